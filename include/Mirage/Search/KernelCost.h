//===- KernelCost.h - What one kernel costs ---------------------*- C++ -*-===//
//
// The analysis of one kernel for the cost model (CostModel.h): a
// `KernelDesc` (grid, block, loop, the tiles it loads, the ops it runs on
// tiles of which shapes, the tensors it writes) becomes a `KernelWork`:
// DRAM and L2 bytes from tiles x replication x iterations with the re-reads
// that fit in L2 served from it, and the arithmetic split by unit. The
// search fills a KernelDesc from its own IR; `describeKernel` fills one from
// an mk op (a pre-defined op or a graph-defined kernel), and
// `analyzeProgram` models a whole function of mk ops.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_KERNELCOST_H
#define MIRAGE_SEARCH_KERNELCOST_H

#include "Mirage/Search/CostModel.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir {
class Operation;
class Type;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mirage {
enum class ElementwiseKind : uint32_t;
enum class AccumulatorKind : uint32_t;
namespace mb {
class StridedView;
} // namespace mb
} // namespace mirage

namespace mirage::search {

/// One op of a kernel, on values of the given shapes (tiles inside a
/// graph-defined kernel, whole tensors for a pre-defined op).
struct CostOp {
  enum class Class : uint8_t {
    Elementwise,
    Matmul,
    /// reduce_sum, reduce_max: one CUDA op per input element.
    Reduce,
    /// band_mask: per element the index difference, two compares, a select
    /// (and the add of an additive mask).
    Mask,
    RmsNorm,
    Accumulate,
    /// concat, transpose, reshape: no arithmetic.
    Move,
  };
  Class cls = Class::Move;
  ElementwiseKind elementwise{};
  AccumulatorKind accumulator{};
  llvm::SmallVector<int64_t, 4> result;
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 2> args;
  /// Runs every loop iteration (body ops and accumulators), not once after.
  bool inLoop = false;
};

/// An input of a kernel: its bytes in device memory, the bytes of the tile
/// one block loads, and whether the loop walks it (a new tile every
/// iteration) or loads it once.
struct CostInput {
  double tensorBytes = 0;
  double tileBytes = 0;
  /// Its shared-memory slot: tileBytes 16-byte aligned, plus the padding
  /// of a padded layout (CodePlan.h, sharedTileBytes); 0: tileBytes.
  double slotBytes = 0;
  bool walked = false;
  /// An epilogue input ([B21]): its tile is copied once per block after the
  /// loop, synchronously (never a cp.async), where post-loop ops read it.
  bool afterLoop = false;
  /// Bytes one load of its tile copy moves (CodePlan.h: 16, 8 or 4, or one
  /// element); 0 for the inputs of a pre-defined op.
  double chunkBytes = 0;
  /// Shared-memory wavefronts of one copy of its tile and the part bank
  /// conflicts add (CodePlan.h, copySharedCost).
  double copyWavefronts = 0;
  double copyConflictWavefronts = 0;
};

/// The input of a graph-defined kernel that loads tiles of shape `tile` of
/// a tensor of shape `tensor` (elements of `elementBytes` bytes), a new one
/// every iteration if `walked`; its chunk and its tile's layout (for
/// `readAcrossRows`, the operands of tensor-core matmuls) are the
/// lowering's (CodePlan.h). With a `view` (an input iterator's, not the
/// identity) the tile is cut from the view's logical tensor and copied as
/// the lowering copies it through the view (planViewCopy).
CostInput describeInput(llvm::ArrayRef<int64_t> tile,
                        llvm::ArrayRef<int64_t> tensor, double elementBytes,
                        bool walked, bool readAcrossRows = false,
                        const mb::StridedView *view = nullptr);

/// A kernel as the cost analysis sees it.
struct KernelDesc {
  /// A pre-defined op (a library kernel): one "block" holds everything.
  bool predefined = false;
  int64_t blocks = 1;
  int64_t threads = 128;
  int64_t forloop = 1;
  double smemBytes = 0;
  /// The shared memory a block may use where the kernel is lowered (the
  /// mk.smem_limit in force); the cp.async pipeline depth is chosen against
  /// it, as the lowering does.
  double smemLimit = 98304;
  llvm::SmallVector<CostInput, 4> inputs;
  llvm::SmallVector<double, 2> outputBytes;
  llvm::SmallVector<CostOp, 8> ops;
};

/// CUDA-core and SFU instructions per element of an element-wise op.
struct UnitCost {
  double cuda = 0, sfu = 0;
};
UnitCost elementwiseUnitCost(ElementwiseKind kind);

/// The work of `desc` on `device`: loads, stores and arithmetic per unit,
/// and the bytes of global loads a block keeps in flight with the code the
/// lowering emits for it: the cp.async pipeline depth it picks against the
/// device's shared memory (CodePlan.h), (stages - 1) walked tiles ahead; a
/// tile loaded before the loop all at once; a synchronous copy one chunk per
/// thread.
/// With `unpadded`, tensor-core FLOPs are the mathematical 2·M·N·K (for the
/// roofline floor) instead of the count padded to the m16n8k16 mma shape.
KernelWork analyzeKernel(const DeviceModel &device, const KernelDesc &desc,
                         bool unpadded = false);

/// The description of an mk op outside a graph-defined kernel or of an
/// mk.graph_kernel; failure (with `error`) for an op the model cannot read.
mlir::FailureOr<KernelDesc> describeKernel(mlir::Operation *op,
                                           std::string &error);

/// One kernel of a program with its work and time.
struct KernelCost {
  mlir::Operation *op = nullptr;
  KernelDesc desc;
  KernelWork work;
  KernelTime time;
};

/// A whole function of mk ops and graph-defined kernels.
struct ProgramCost {
  llvm::SmallVector<KernelCost, 4> kernels;
  double totalMicros = 0;
  /// Compulsory traffic of the function's arguments and results, and the
  /// (unpadded) arithmetic of its kernels.
  RooflineFloor floor;
};
mlir::FailureOr<ProgramCost> analyzeProgram(mlir::func::FuncOp func,
                                            const DeviceModel &device,
                                            std::string &error);

/// Bytes of one element of a tensor type (4 for f32, 2 for f16/bf16).
double elementBytesOf(mlir::Type type);

} // namespace mirage::search

#endif // MIRAGE_SEARCH_KERNELCOST_H
