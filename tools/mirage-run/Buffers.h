//===- Buffers.h - Argument buffers and output comparison of mirage-run ---===//
//
// What the two modes of mirage-run share: the storage of one argument in
// the element type of the lowered code, seeded inputs rounded to that type,
// the expanded memref descriptor the lowered function takes, and the
// comparison of its outputs with an f64 reference.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_MIRAGE_RUN_BUFFERS_H
#define MIRAGE_TOOLS_MIRAGE_RUN_BUFFERS_H

#include "Mirage/Verify/Interpreter.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace mirage::run {

/// Storage of one argument in the element type of the lowered code,
/// followed by a red zone of kRedZoneBytes canary bytes: a kernel that
/// writes past the end of a tensor (a tail tile whose stores are not
/// guarded) changes them (writesPastTheEnd).
struct Buffer {
  mlir::Type elem;
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<uint8_t> bytes;
  unsigned width = 4;
};
/// Large enough for the overhang of a tail tile of up to 64 rows of 16 KiB
/// (an unguarded store past it could corrupt the heap instead).
constexpr size_t kRedZoneBytes = size_t(1) << 20;
constexpr uint8_t kRedZoneCanary = 0xA5;
/// Whether a byte of `b`'s red zone changed.
bool writesPastTheEnd(const Buffer &b);

/// A buffer holding `t` (already rounded to the element type; integral
/// values for an integer type).
Buffer makeBuffer(const verify::FloatTensor &t, mlir::Type elem);
/// A zeroed buffer of `shape` in `elem`: a float, an integer (i1 takes a
/// byte, as in the lowered code) or index (8 bytes).
Buffer zeroBuffer(llvm::ArrayRef<int64_t> shape, mlir::Type elem);
/// Element `i` (row-major) of `b` as a double.
double readElement(const Buffer &b, int64_t i);
/// Every element of `b` as a double.
verify::FloatTensor readBuffer(const Buffer &b);

/// What a comparison may consult besides the reference to tell f32
/// overflow, rounding and ill-conditioning from a mismatch (compareOutputs).
struct ComparisonAids {
  /// The reference computed in f32 (empty: none).
  llvm::ArrayRef<verify::FloatTensor> f32Reference;
  /// The ratio of the outputs' rounding unit to f32's: 1 for outputs
  /// computed in f32, 2^-29 for outputs computed in f64.
  double roundingScale = 1.0;
  /// The reference evaluated again on inputs moved by kInputPerturbation
  /// relative (seed k); null when it cannot be evaluated.
  llvm::function_ref<const std::vector<verify::FloatTensor> *(unsigned k)>
      perturbedReference;
  /// The outputs computed again in f64 (null when they cannot be).
  llvm::function_ref<const std::vector<Buffer> *()> outputsInF64;
  /// Per output, the narrowest storage type its computation rounds to on
  /// the way (null, or no entry: the output's own); its tolerance applies
  /// where it is looser than the output type's (an f32 result of values
  /// stored in bf16).
  llvm::ArrayRef<mlir::Type> storage;
};

/// The element type with the loosest tolerance (bf16, else f16, else null)
/// among the tensors that `result` is computed from: the values of its
/// backward slice, inside kernels too.
mlir::Type narrowestStorage(mlir::Value result);

/// Compares every output with the reference and prints one line per output
/// (and the first mismatch); false on a mismatch. The tolerance of an
/// element type is multiplied by `tolScale`. A NaN on both sides, or an
/// infinity of the same sign, agrees (counted on a line of its own). With
/// `aids`:
///  - overflow: where an output element computed in f32 is non-finite and
///    the reference finite, the computation overflows in f32 (a NOTE, not
///    a mismatch) when the f32 reference is non-finite there too, or the
///    outputs computed in f64 are within tolerance of the reference there
///    (x * (1 / y) with a subnormal y overflows where x / y does not);
///  - f32 rounding: where a finite output element is out of tolerance and
///    the f32 reference departs from the reference by more than the
///    tolerance there or elsewhere in its row (the last dim), the element
///    is ill-conditioned in f32; it agrees when its error is at most
///    kIllConditionedFactor times the f32 reference's largest in the row,
///    on a NOTE line; so does an element that is not finite in the
///    reference where the output and the f32 reference are both finite, or
///    both the same non-finite value (f32 rounding decides: there is no real
///    value to compare with). For outputs computed in f64 the f32
///    reference's error times `roundingScale` estimates theirs (an f64
///    output that is not finite where the reference is finite is then not
///    an overflow);
///  - ill-conditioned inputs: an element still out of tolerance that one of
///    kPerturbations perturbed references moves out of tolerance, or to
///    another finite or non-finite kind, is ill-conditioned at these inputs
///    (e.g. the sign of a cancellation that rounding decides, a coin flip
///    per evaluation): a NOTE, not a mismatch. The perturbed references
///    and the outputs in f64 are asked for only at such elements.
bool compareOutputs(llvm::ArrayRef<Buffer> outBufs,
                    llvm::ArrayRef<verify::FloatTensor> reference,
                    double tolScale, double &maxAbs, double &maxRel,
                    const ComparisonAids &aids = {});

/// How many perturbed evaluations an out-of-tolerance element is tried
/// against: an element that rounding alone decides escapes all of them
/// with probability 2^-kPerturbations.
constexpr unsigned kPerturbations = 8;

/// The relative size of the input perturbation of a perturbed reference:
/// 2^13 times f64's rounding unit, so that it moves an ill-conditioned
/// element further than the rounding of another order of f64 operations
/// does, and a well-conditioned one (condition number below about 2^20)
/// by less than the tolerance.
constexpr double kInputPerturbation = 0x1p-40;

/// `inputs` moved by +-kInputPerturbation relative, a seeded random sign
/// per element (float inputs only: `isFloat[i]`).
std::vector<verify::FloatTensor>
perturbInputs(llvm::ArrayRef<verify::FloatTensor> inputs,
              llvm::ArrayRef<bool> isFloat, uint64_t seed);

/// How much further than the reference evaluated in f32 an output computed
/// in f32 elsewhere (another order of operations) may be from the f64
/// reference at an ill-conditioned element.
constexpr double kIllConditionedFactor = 8.0;

/// Expanded memref descriptor of a row-major buffer at `ptr`: allocated
/// pointer, aligned pointer, offset, sizes, strides.
std::vector<int64_t> descriptor(void *ptr, llvm::ArrayRef<int64_t> shape);

/// Prints "mirage-run: <msg>" on stderr; returns the exit code 1.
int fail(const llvm::Twine &msg);

std::string typeName(mlir::Type t);
double msSince(std::chrono::steady_clock::time_point t0);

} // namespace mirage::run

#endif // MIRAGE_TOOLS_MIRAGE_RUN_BUFFERS_H
