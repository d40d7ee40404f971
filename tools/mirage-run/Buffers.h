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
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace mirage::run {

/// Storage of one argument in the element type of the lowered code.
struct Buffer {
  mlir::Type elem;
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<uint8_t> bytes;
  unsigned width = 4;
};

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

/// Compares every output with the reference and prints one line per output
/// (and the first mismatch); false on a mismatch. The tolerance of an
/// element type is multiplied by `tolScale`. A NaN on both sides, or an
/// infinity of the same sign, agrees (counted on a line of its own). Where
/// an output element is non-finite and the reference finite, `f32Reference`
/// (the reference computed in f32, when given) decides: non-finite there
/// too means the computation overflows in f32, which a NOTE line reports
/// instead of a mismatch. Where a finite output element is out of tolerance
/// and `f32Reference` departs from the reference by more than the tolerance
/// there or elsewhere in its row (the last dim), the element is
/// ill-conditioned in f32 (the rounding of f32 alone moves it that far); it
/// agrees when its error is at most kIllConditionedFactor times the f32
/// reference's largest in the row, on a NOTE line; so does
/// an element that is not finite in the reference where the output and
/// `f32Reference` are both finite, or both the same non-finite value (f32
/// rounding decides: there is no real value to compare with). Outputs
/// computed in f64 pass `roundingScale` = the ratio of f64's to f32's
/// rounding unit: the f32 reference's error, times it, estimates theirs
/// (an f64 output that is not finite where the reference is finite is then
/// a mismatch: f64 does not overflow where the reference does not).
bool compareOutputs(llvm::ArrayRef<Buffer> outBufs,
                    llvm::ArrayRef<verify::FloatTensor> reference,
                    double tolScale, double &maxAbs, double &maxRel,
                    llvm::ArrayRef<verify::FloatTensor> f32Reference = {},
                    double roundingScale = 1.0);

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
