//===- Block.h - Mirage block-graph dialect ---------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCK_H
#define MIRAGE_DIALECT_BLOCK_IR_BLOCK_H

#include "Mirage/Dialect/Block/IR/View.h"
#include "Mirage/Interfaces/MirageInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Mirage/Dialect/Block/IR/BlockOpsDialect.h.inc"

namespace mirage::mb {
/// Verifies that `op` is directly in the body of an mb.for_loop ([B19]),
/// itself inside a graph-defined kernel ([C0.2]).
mlir::LogicalResult verifyInForLoop(mlir::Operation *op);
/// [B20] A tile op's place in the index space of its kernel-level tensor:
/// `imap` as an input iterator's ([B5]), `fmap` -1 or a dim, and -1
/// outside the for-loop's body.
mlir::LogicalResult verifyTileCoordinates(mlir::Operation *op,
                                          llvm::ArrayRef<int64_t> imap,
                                          int64_t fmap);

/// Marks the ops that only exist in a for-loop body: input iterators,
/// accumulators and mb.yield.
template <typename ConcreteType>
class InForLoop : public mlir::OpTrait::TraitBase<ConcreteType, InForLoop> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInForLoop(op);
  }
};
} // namespace mirage::mb

#define GET_OP_CLASSES
#include "Mirage/Dialect/Block/IR/BlockOps.h.inc"

namespace mirage::mb {
/// Shape of the tile an input iterator reads from a device tensor of `shape`,
/// or failure with a message in `why`.
mlir::FailureOr<llvm::SmallVector<int64_t>>
computeInputTileShape(llvm::ArrayRef<int64_t> shape,
                      llvm::ArrayRef<int64_t> grid, int64_t forloop,
                      llvm::ArrayRef<int64_t> imap, int64_t fmap,
                      std::string &why);
/// The view of input iterator or output saver `op` analysed over its logical
/// and device shapes: std::nullopt without a `view`; failure, with the
/// reason in `why`, for a map that is no strided view of the device tensor
/// (the verifier rejects those, B22-B25).
mlir::FailureOr<std::optional<StridedView>> analyzeView(mlir::Operation *op,
                                                        std::string &why);
/// Shape of the device tensor an output saver writes a tile of `tile` into.
mlir::FailureOr<llvm::SmallVector<int64_t>>
computeOutputShape(llvm::ArrayRef<int64_t> tile, llvm::ArrayRef<int64_t> grid,
                   llvm::ArrayRef<int64_t> omap, std::string &why);
/// [B26] Whether `tile` tiles a device tensor of `shape` with a tail: every
/// dim as computeInputTileShape (fmap -1 for an output saver) would have it,
/// except grid-partitioned dims that no loop walks, which may take a tile
/// `t` with `grid[g] == ceil(shape[d] / t)`. The last block's tile then
/// overhangs the tensor: its reads clamp to the last index, its writes past
/// the end are dropped. True only when some dim has such a tail.
bool isTailTiling(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> tile,
                  llvm::ArrayRef<int64_t> grid, int64_t forloop,
                  llvm::ArrayRef<int64_t> map, int64_t fmap);
/// The dims along which `op` (an input iterator or an output saver) has a
/// tail tile (isTailTiling), and in a dynamic kernel every dim a '?' grid
/// dim partitions ([K19]): dims of the logical tensor, which through a
/// view are dims the view passes through (passedThroughDims); empty for an
/// exact tiling.
llvm::SmallVector<int64_t> tailDims(mlir::Operation *op);
/// The device tensor's dim that logical dim `dim` of input iterator or
/// output saver `op` is: `dim` itself without a view, the device dim the
/// view passes it through to with one, -1 where the view mixes it with
/// other dims (or `dim` is -1).
int64_t deviceDimOf(mlir::Operation *op, int64_t dim);
/// Whether the generated code keeps block value `v`'s tile in f32 instead
/// of its element type: an accumulator's (a loop result aliases it) and a
/// matmul's that only accumulators read, so that a trip's partial products,
/// summed in f32, are accumulated without being rounded to f16/bf16 first
/// (where they could overflow although the accumulated result, divided or
/// scaled after the loop, would not). A matmul that accum_rescaled_sum
/// reads is not widened: its operand is relative to the step's maximum, so
/// its values are bounded as the reference's are (online softmax's P.V).
/// The lowering lays these tiles out in
/// f32, the kernels'-precision evaluation leaves them unrounded and the
/// search counts their shared memory at 4 bytes an element.
bool keptInF32(mlir::Value v);
/// The mb.accum_sum that matmul `mm` is accumulated into in place, or
/// null: where an element-wise accum_sum is the matmul's only reader, the
/// generated code adds each trip's products to the accumulator's f32 buffer
/// (at the element's store, in the order the separate sum would add them)
/// instead of writing an f32 tile of its own that the accumulator then
/// reads. The lowering reserves no slot for such a matmul and the search
/// does not count one (one f32 tile per pair instead of two).
AccumSumOp accumulatedInPlace(MatmulOp mm);

// The walked tail of a loop (LoopTail.cpp, docs/dynamic.md).
/// The first input iterator of `loop` that walks it (fmap != -1), or null.
/// Its logical extent along fmap is the walked extent W of mb.tail_mask.
InputIterOp walkingIterator(ForLoopOp loop);
/// What `loop`'s walking iterators walk: the dim of the first one's tensor,
/// its logical extent (ShapedType::kDynamic under a `?` loop) and the
/// tile's extent along it (each trip's); std::nullopt when no iterator
/// walks the loop.
struct LoopWalk {
  InputIterOp iterator;
  int64_t dim = -1, extent = 0, tile = 0;
  /// ceil(extent / tile): the trips a static extent takes.
  int64_t trips() const { return (extent + tile - 1) / tile; }
};
std::optional<LoopWalk> loopWalk(ForLoopOp loop);
/// Whether the last trip of `kernel`'s loop overhangs the dim it walks: a
/// `?` loop ([K21]) or a walked tail ([B26]).
bool hasLoopTail(GraphKernelOpInterface kernel);
/// [B28] In a loop with a tail, every reduction across the walked dim
/// (reduce_sum, reduce_max, a matmul's contraction, an accumulator of a
/// tile along it) reads its operand with the reduction's identity past the
/// end: through mb.tail_mask, or for sums straight from the input iterator
/// (whose reads there are zeros); rms_norm, accum_mean_last, accum_rms_last
/// and concat do not run across it; the walking iterators agree.
mlir::LogicalResult verifyLoopTail(GraphKernelOpInterface kernel);
/// Inserts the mb.tail_mask ops that [B28] asks for into `kernel` (nothing
/// for a loop without a tail); fails, saying why in `why`, where no mask
/// can make it right.
mlir::LogicalResult maskLoopTail(GraphKernelOpInterface kernel,
                                 std::string &why);

/// Whether the blocks of `kernel` along grid dim `g` compute independent
/// slices (GridPartition.cpp): no op of its block graph combines elements
/// along the dim `g` partitions (a reduction or contraction across it, a
/// normalisation over it, a concat along it), and every saver of a tile
/// along it writes that dim where `g` maps. Fails, saying which op and why
/// in `why`, otherwise or where it cannot tell.
mlir::LogicalResult checkBlocksIndependent(GraphKernelOpInterface kernel,
                                           int64_t g, std::string &why);
} // namespace mirage::mb

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCK_H
