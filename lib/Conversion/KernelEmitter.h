//===- KernelEmitter.h - A graph-defined kernel as gpu.launch --*- C++ -*-===//
//
// KernelEmitter fills the body of one gpu.launch from an mk.graph_kernel:
// shared-memory tiles, input iterators, the for-loop, accumulators, tile
// ops (MMA matmuls in KernelEmitterMma.cpp, row reductions in
// KernelEmitterReduce.cpp) and output savers; plus the
// scalar helpers it shares with the pass (MirageToGPU.cpp). Private to
// lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_KERNELEMITTER_H
#define MIRAGE_LIB_CONVERSION_KERNELEMITTER_H

#include "Mirage/Conversion/Passes.h"

#include "Mirage/Dialect/Block/IR/View.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Search/CodePlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <functional>
#include <limits>

namespace mirage::lowering {

using namespace mlir;

MemRefType toMemRef(Type t);

/// The trips of `kernel`'s loop where they are static; for a `?` loop
/// ([K21]) the deepest pipeline's, so that the pipeline depth is chosen by
/// shared memory alone.
int64_t staticTrips(mk::GraphKernelOp kernel);

Value cIndex(OpBuilder &b, Location loc, int64_t v);

Value cF32(OpBuilder &b, Location loc, double v);

/// exp(x). On the GPU path it becomes libdevice's __nv_expf, linked into the
/// kernel when the CUDA toolkit is found; on the CPU path llvm.exp.
Value emitExp(OpBuilder &b, Location loc, Value x);

/// erf(x) by Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7):
/// 1 - t (a1 + t (a2 + ... + t a5)) exp(-x^2), t = 1 / (1 + p |x|), odd in x.
/// Built from exp, which lowers on both paths, while math.erf has no LLVM
/// intrinsic for the CPU path.
Value emitErf(OpBuilder &b, Location loc, Value x);

/// `src` (a row-major buffer) viewed with the shape of `type`: a collapse
/// to one dim and an expansion, no copy. `dynamicSizes` are the sizes of
/// the dynamic dims of `type`.
Value emitReshape(OpBuilder &b, Location loc, Value src, MemRefType type,
                  ValueRange dynamicSizes = {});

using search::planTileCopy;
using search::planViewCopy;
using search::TileCopy;

/// Computes `kind` on f32 scalars.
Value emitScalar(OpBuilder &b, Location loc, ElementwiseKind kind,
                 ArrayRef<double> params, ValueRange x);

/// The shared-memory accesses whose bank conflicts the lowering checked
/// with the static rule (CodePlan.h, sharedAccessCost): every ldmatrix and
/// scalar fragment load of a tensor-core matmul and every tile copy into or
/// out of shared memory, and those of them that take more wavefronts than
/// a conflict-free access would.
struct SharedAccessStats {
  int64_t checked = 0;
  int64_t conflicted = 0;
};

class KernelEmitter {
public:
  KernelEmitter(mk::GraphKernelOp kernel, OpBuilder &b,
                llvm::DenseMap<Value, Value> &global, int64_t &numBarriers,
                bool tensorCores, int64_t &numMma, bool asyncCopies,
                int64_t maxStages, bool registerAccumulators, bool swizzle,
                SharedAccessStats &bankStats)
      : kernel(kernel), b(b), loc(kernel.getLoc()), global(global),
        numBarriers(numBarriers), tensorCores(tensorCores), numMma(numMma),
        asyncCopies(asyncCopies), maxStages(maxStages),
        registerAccumulators(registerAccumulators), swizzle(swizzle),
        bankStats(bankStats) {}

  /// The view `op` (an input iterator or output saver) reads or writes its
  /// device tensor through ([B22]-[B25]): none without a view attribute or
  /// for the identity (then the device tensor is row-major in the tile's
  /// dims, as without one). Fails, with the reason in `why`, where the
  /// analysis does (the verifier rules that out).
  static FailureOr<std::optional<mb::StridedView>>
  analyzeView(Operation *op, std::string &why);
  /// The divisor its facts give a dynamic dim of a device tensor of the
  /// kernel (a block argument or a saver's result, and the dim): a tile
  /// along that dim that divides it never overhangs, and its copies need no
  /// tail masks (docs/dynamic.md).
  void setDivisors(llvm::DenseMap<std::pair<Value, unsigned>, int64_t> d) {
    divisors = std::move(d);
  }
  /// Plans the shared-memory layout; returns its size in bytes.
  int64_t planSharedMemory();
  /// Emits the kernel body at the builder's insertion point (inside the
  /// launch region).
  LogicalResult emit(gpu::LaunchOp launch);

private:
  struct Slot {
    int64_t offset;
    MemRefType type;
    /// Where the tile's elements sit in the slot (CodePlan.h).
    search::SharedLayout layout;
  };
  /// Reserves a shared-memory slot for `key` with `shape` and `elementType`.
  void reserve(Value key, ArrayRef<int64_t> shape, Type elementType,
               llvm::DenseMap<Value, Slot> &slots);

  /// Emits `for e = tid; e < numElements(shape); e += nthreads` and calls
  /// `body` with the multi-index of element e.
  void forEachElement(ArrayRef<int64_t> shape,
                      function_ref<void(ValueRange)> body);
  /// The multi-index of linear (row-major) element `e` of `shape`.
  SmallVector<Value> delinearize(Value e, ArrayRef<int64_t> shape);
  /// Every access to shared memory goes through these: `idx` is the
  /// logical index into a tile (or a view of it), and sharedAccess gives
  /// the buffer and index where the element sits under the tile's layout
  /// (CodePlan.h, SharedLayout): the column XOR the swizzle of its row in
  /// `buf`, or for a padded tile the offset row * rowPitch + column in a
  /// one-dimensional view of its whole slot; `buf` and `idx` unchanged for
  /// a plain tile or a device buffer.
  struct SharedRef {
    Value mem;
    SmallVector<Value> idx;
  };
  SharedRef sharedAccess(Value buf, ValueRange idx);
  Value load(Value buf, ValueRange idx);
  void store(Value v, Value buf, ValueRange idx);
  Value loadF32(Value buf, ValueRange idx);
  void storeF32(Value buf, ValueRange idx, Value v);
  /// A view of `slot` at byte `offset` of the dynamic shared memory, which
  /// sharedAccess knows the layout of.
  Value sharedView(const Slot &slot, Value offset);
  /// The layout of shared-memory view `buf` (a plain one for others).
  search::SharedLayout layoutOf(Value buf);
  /// Counts an access site of `op` with its bank cost (SharedAccessStats);
  /// a conflicted one gets a remark that says what (`what`) and how much.
  void checkBanks(Operation *op, StringRef what, const search::BankCost &cost);
  /// The element type a value's tile has in shared memory (f32 for
  /// accumulators and loop results).
  Type tileElementType(Value v);
  /// Index into a buffer that broadcasts along its size-1 dims.
  SmallVector<Value> broadcastIndex(Value buf, ValueRange idx);
  /// Declares that the next stage reads `reads` and writes `writes`; emits a
  /// barrier first if that races with earlier stages since the last one.
  void stage(ArrayRef<Value> reads, ArrayRef<Value> writes);
  void barrier();

  LogicalResult emitLoopBody(mb::ForLoopOp loop, Value iv);
  LogicalResult emitTileOp(Operation *op);
  // Tile copies (KernelEmitterCopies.cpp).
  /// The copy of an input tile at iteration `iv` (null for an epilogue
  /// input, after the loop).
  void emitInputIter(mb::InputIterOp op, Value iv);
  /// Tile origin of an input iterator at iteration `iv` (DESIGN §3.2).
  SmallVector<Value> inputOrigin(mb::InputIterOp op, Value iv);
  /// Origin of a tile of `tile` placed by `imap`/`fmap` in the current block
  /// and iteration `iv` (null outside the loop, where fmap is -1).
  SmallVector<Value> tileOrigin(ArrayRef<int64_t> tile,
                                ArrayRef<int64_t> imap, int64_t fmap,
                                Value iv);
  /// mb.band_mask: each element kept or filled by its index in the masked
  /// tensor (the tile's origin plus its index in the tile).
  void emitBandMask(mb::BandMaskOp op);
  /// mb.tail_mask: the elements of this trip past the walked extent become
  /// the fill ([B27]).
  void emitTailMask(mb::TailMaskOp op);
  /// Whether the tile of `op` is the same in every iteration (no walked dim,
  /// or a loop of one iteration): it is loaded once, before the loop.
  bool isLoopInvariant(mb::InputIterOp op);
  /// Elements per cp.async (16, 8 or 4 bytes), or 0 if the tile cannot be
  /// copied asynchronously.
  int64_t asyncChunk(mb::InputIterOp op);
  /// Issues cp.async copies of iteration `iv` of `op` into `dst`.
  void emitAsyncCopy(mb::InputIterOp op, Value iv, Value dst);
  /// Copies iteration `iv` of `op` into `dst` with vector (or, where no
  /// chunk fits, scalar) loads.
  void emitSyncInputCopy(mb::InputIterOp op, Value iv, Value dst);
  /// The copy plan of `op`'s tile.
  TileCopy inputCopy(mb::InputIterOp op);
  /// Copies the tile of `plan` at `srcOrigin` of `src` to `dstOrigin` of
  /// `dst` in chunks (one vector load and store each), converting the
  /// element type. `at` (the iterator or saver) takes the bank-rule remark.
  /// With a `view`, the side in device memory is addressed through it (the
  /// origin is then an index of the view's logical tensor).
  void copyTile(Operation *at, Value src, ArrayRef<Value> srcOrigin, Value dst,
                ArrayRef<Value> dstOrigin, const TileCopy &plan,
                const mb::StridedView *view = nullptr);
  /// The dims along which the tiles of `op` (an input iterator or output
  /// saver) overhang: mb::tailDims, less the dynamic dims whose divisor the
  /// tile divides.
  SmallVector<int64_t> tailDimsOf(Operation *op);
  /// The analysed view of `op` (analyzeView), or null; cached.
  const mb::StridedView *viewOf(Operation *op);
  /// The copy plan of a tile of shape `tile` of a device tensor of shape
  /// `device` with `element`s, through `view` if not null (CodePlan.h: the
  /// cost model plans the same).
  TileCopy planCopy(ArrayRef<int64_t> tile, ArrayRef<int64_t> device,
                    Type element, const mb::StridedView *view);
  /// One side of a tile copy: the buffer and the tile's origin in it, ready
  /// for the chunks of a plan (the merged dims collapsed); for a device
  /// tensor addressed through a view, the buffer flattened to one dim, the
  /// origin a logical index and the view.
  struct CopySide {
    Value mem;
    SmallVector<Value> origin;
    const mb::StridedView *view = nullptr;
    /// [B26] A tail tile: the indices (into sideIndex's result; through a
    /// view, into the logical index before the view's offsets) that the
    /// last block's tile overhangs, with the device extent there (read from
    /// the buffer at run time along a dynamic dim, [K19]); and the plan's
    /// chunk, which divides the innermost extent.
    struct Tail {
      unsigned index;
      Value extent;
      /// Along the dim the loop walks: the reads past the end are zeros
      /// (a reduction across it must not see them, [B28]).
      bool walked = false;
    };
    SmallVector<Tail> tails;
    int64_t chunk = 1;
  };
  /// The extent of merged index `index` of device buffer `mem` (plan's
  /// merged dims), read from the buffer's dynamic dims at run time.
  Value dynamicExtent(Value mem, unsigned index, const TileCopy &plan);
  /// `tiled`: the input iterator or output saver whose device tensor `mem`
  /// is, for its tails (tailDimsOf; through a view, along logical dims the
  /// view passes through to device dims); null for a shared-memory side.
  CopySide copySide(Value mem, ArrayRef<Value> origin, const TileCopy &plan,
                    const mb::StridedView *view, Operation *tiled = nullptr);
  /// The index in `side.mem` of element `idx` of the (merged) tile of a
  /// plan: the origin plus `idx`, through the view if there is one. Every
  /// tile copy addresses device memory through this. With `clampTails`, an
  /// index past a tail's end reads the last row (the last chunk of the
  /// innermost index) instead: a tail tile's loads stay inside the tensor.
  SmallVector<Value> sideIndex(const CopySide &side, ValueRange idx,
                               bool clampTails = false);
  /// Whether index `at` of `side` lies inside the tensor along its tails (a
  /// tail tile's stores past the end are dropped); null without tails.
  /// With `walkedOnly`, along the walked tails only (whose reads past the
  /// end are zeros).
  Value insideTails(const CopySide &side, ArrayRef<Value> at,
                    bool walkedOnly = false);
  /// The dim of an input iterator's tails that the loop walks, or -1.
  int64_t walkedTailDim(Operation *op, ArrayRef<int64_t> tails);
  /// The device tensor's row-major offset of logical index `idx` under
  /// `view`: its offset plus, per digit (mode) of a logical dim,
  /// `((i / radix) mod extent) * stride`.
  Value viewOffset(const mb::StridedView &view, ArrayRef<Value> idx);
  /// `memref` with the merged dims of `plan` collapsed into one.
  Value collapseForCopy(Value memref, const TileCopy &plan);
  /// `origin`, an index into a buffer of `shape`, with the merged dims of
  /// `plan` as one linear index.
  SmallVector<Value> collapseOrigin(ArrayRef<Value> origin,
                                    ArrayRef<int64_t> shape,
                                    const TileCopy &plan);
  /// Calls `body` with the index of the first element of every chunk of
  /// the (merged) tile of `plan`, strided over the block's threads.
  void forEachChunk(const TileCopy &plan, function_ref<void(ValueRange)> body);
  /// `origin` + `idx`, dim by dim.
  SmallVector<Value> offsetIndex(ArrayRef<Value> origin, ValueRange idx);
  /// If `op` (an input iterator or output saver) copies its tile in pieces
  /// under 4 bytes (one element of type `element` at a time), remarks so
  /// and why.
  void remarkScalarCopy(Operation *op, const TileCopy &plan, Type element);
  /// Closes the cp.async group of the copies issued since the last one.
  Value commitGroup();
  /// Bytes between consecutive pipeline buffers of `op`'s tile: its slot.
  int64_t pipelineStride(mb::InputIterOp op);
  /// The pipeline buffer of `op`'s tile that holds iteration `iteration`.
  Value stageView(mb::InputIterOp op, Value iteration);
  /// Before the loop: loads the loop-invariant tiles and the first
  /// `stages - 1` iterations of the pipelined ones.
  void emitLoopPrologue();
  /// At the top of iteration `iv`: requests iteration iv + stages - 1 of
  /// every pipelined tile, waits for iteration iv and binds its buffers.
  void emitPipelineStep(Value iv);
  void emitAccumInit(AccumulatorOpInterface acc);
  void emitAccumUpdate(AccumulatorOpInterface acc);
  void emitAccumFinal(AccumulatorOpInterface acc);
  /// The accumulated value of `acc` after adding element `idx` of this
  /// iteration's operand to `old` (not for rescaled_sum).
  Value accumStep(AccumulatorOpInterface acc, Value old, ValueRange idx);
  /// Whether `acc` lives in registers: a thread owns the same elements in
  /// every iteration (e = tid + j * threads), at most
  /// kMaxRegisterAccumElems of them, so they are loop-carried values.
  bool inRegisters(AccumulatorOpInterface acc);
  /// Calls `body(j, idx)` for the elements e = tid + j * threads this
  /// thread owns in a tile of `shape`, unrolled; a body for an element that
  /// may lie past the end runs under `scf.if` and yields `fallback(j)`
  /// there.
  void forEachOwnedElement(ArrayRef<int64_t> shape,
                           function_ref<Value(int64_t, ValueRange)> body,
                           function_ref<Value(int64_t)> fallback,
                           SmallVectorImpl<Value> &results);
  /// Stores the register values of `acc` into its shared-memory buffer.
  void spillRegisterAccum(AccumulatorOpInterface acc);
  /// Stores the tile of `op` with vector stores (KernelEmitterCopies.cpp).
  void emitOutputSaver(mb::OutputSaverOp op);
  // Row reductions (KernelEmitterReduce.cpp).
  enum class RowReduceKind { Sum, SumSquares, Max };
  /// The plan of a reduction of the rows of a tile of shape `rows` (one row
  /// per element) of `count` elements each with this block's threads.
  search::RowReducePlan rowPlan(ArrayRef<int64_t> rows, int64_t count);
  /// Whether accumulator `acc` reduces rows of its operand (sum_last,
  /// mean_last, rms_last, sum_to).
  static bool reducesRows(AccumulatorOpInterface acc);
  /// The elements of a row: the index in the reduced buffer of element `k`
  /// of the row at `row` (an index into the tile of results).
  using RowIndexFn = std::function<SmallVector<Value>(ValueRange, Value)>;
  /// Writes a row's result; called in one thread per row.
  using RowWriteFn = function_ref<void(ValueRange, Value)>;
  /// Reduces, for every element `row` of a tile of shape `rows`, the
  /// `count` values `in[at(row, k)]`, k < count, cooperatively with the
  /// block's threads (CodePlan.h, planRowReduction): strided partial
  /// results, a gpu.shuffle xor butterfly, and for whole-block plans one
  /// step through `partials` (an [rows, warps] f32 buffer) after a
  /// barrier. Calls `write(row, value)` in exactly one thread per row;
  /// `write` reads `reads` and writes `writes` (the stages and their
  /// barriers follow from them). Every thread of the block must reach it
  /// (the shuffles are warp-collective).
  void reduceRows(Value in, ArrayRef<int64_t> rows, int64_t count,
                  RowReduceKind kind, RowIndexFn at, RowWriteFn write,
                  ArrayRef<Value> reads, ArrayRef<Value> writes,
                  Value partials);
  /// A thread's place in a row reduction: which elements of which rows it
  /// reduces and which lanes it shuffles with.
  struct RowLanes {
    search::RowReducePlan plan;
    SmallVector<int64_t> rows;
    int64_t numRows = 1, count = 0;
    Value in;
    RowReduceKind kind = RowReduceKind::Sum;
    RowIndexFn at;
    /// Threads that reduce (at most the block's), whether this one does,
    /// its lane and warp, the shuffles' width (i32: the warp's lanes).
    Value threads, active, lane, warp, width;
    /// This thread's elements of a row: first, first + step, ...
    Value first, step;
    /// Whether this thread writes a row's (segment plans) or its warp's
    /// (whole-block plans) result.
    Value leader;
    /// Segment plans: this thread's segment and the number of segments.
    Value seg, segments;
  };
  RowLanes rowLanes(search::RowReducePlan plan, ArrayRef<int64_t> rows,
                    int64_t count, Value in, RowReduceKind kind, RowIndexFn at);
  /// Segment plans: the row of this thread's segment in round `round`
  /// (clamped to a row that exists) and whether it exists.
  std::pair<SmallVector<Value>, Value> roundRow(const RowLanes &l, Value round,
                                                Value segments);
  /// This thread's part of `row` (the identity if `valid` is false).
  Value rowPart(const RowLanes &l, ValueRange row, Value valid);
  /// The butterfly over this thread's `part` of `row`; the leader writes
  /// the row's result (segment plans) or its warp's total to
  /// partials[rowLinear][warp] (whole-block plans).
  void finishRowPart(const RowLanes &l, ValueRange row, Value rowLinear,
                     Value valid, Value part, RowWriteFn write, Value partials);
  /// Whole-block plans: after a barrier, a thread per row adds the warps'
  /// totals in warp order and writes the row's result.
  void combineWarpTotals(const RowLanes &l, Value partials, RowWriteFn write,
                         ArrayRef<Value> reads, ArrayRef<Value> writes);
  /// The rows (the result's shape) and elements per row of a row-sum
  /// accumulator, its kind and its element index.
  std::pair<SmallVector<int64_t>, int64_t>
  accumRows(AccumulatorOpInterface acc);
  RowReduceKind accumReduceKind(AccumulatorOpInterface acc);
  RowIndexFn accumRowIndex(AccumulatorOpInterface acc);
  /// Row-sum accumulators in registers: a thread keeps its strided part of
  /// each row it reduces (one per round, or per row in whole-block plans)
  /// across the loop, and the rows are reduced once, after it.
  int64_t rowPartsPerThread(AccumulatorOpInterface acc);
  void accumulateRowParts(AccumulatorOpInterface acc);
  void finishRowSums(AccumulatorOpInterface acc);
  /// `v` combined with the values of the other lanes of its `groupSize`
  /// lanes by a butterfly of gpu.shuffle xor over `width` lanes; lanes
  /// past `width` count as the identity. Exact in the group's first lane.
  Value butterfly(Value v, int64_t groupSize, Value width, RowReduceKind kind);
  /// The identity of `kind` (0, or -inf for maxima) and its combination.
  Value reduceIdentity(RowReduceKind kind);
  Value reduceCombine(RowReduceKind kind, Value acc, Value x);
  /// Reserves the warps' partial results of a reduction keyed by `key`
  /// (an op result), when its plan is a whole-block one.
  void reservePartials(Value key, ArrayRef<int64_t> rows, int64_t count);

  Value buf(Value v) { return tiles.lookup(v); }
  /// Whether `mm` can run on tensor cores (m16n8k16, f16 in, f32 out).
  bool fitsMma(mb::MatmulOp mm);
  /// Before the slots are reserved: the tiles read across rows, whose
  /// layout (padded or swizzled, CodePlan.h planSharedLayout) and slot size
  /// differ from row-major ones.
  void planLayouts();
  /// Emits `mm` with nvgpu.mma.sync, one 16x8 output tile per warp at a time.
  void emitMmaMatmul(mb::MatmulOp mm);
  /// Emits `mm` on the FMA units: each thread sums the products of a strip
  /// of s outputs of one row, n / s columns apart, over k.
  void emitFmaMatmul(mb::MatmulOp mm);
  /// Stores (or, for a matmul accumulated in place, adds) the f32 value
  /// `v` of `mm`'s output element `idx`.
  void storeMatmulElement(mb::MatmulOp mm, ValueRange idx, Value v);

  mk::GraphKernelOp kernel;
  OpBuilder &b;
  Location loc;
  llvm::DenseMap<Value, Value> &global;
  int64_t &numBarriers;
  bool tensorCores;
  int64_t &numMma;
  bool asyncCopies;
  /// Most buffers of a walking tile's cp.async pipeline.
  int64_t maxStages;
  bool registerAccumulators;
  /// Lay out tensor-core operands padded or swizzled (off: row-major, to
  /// measure what the layouts remove).
  bool swizzle;
  SharedAccessStats &bankStats;
  llvm::DenseMap<std::pair<Value, unsigned>, int64_t> divisors;
  /// The layout of every view of a swizzled or padded tile (the pipeline's
  /// buffers and the copies' collapsed views included) and, padded, the
  /// one-dimensional view of its whole slot the accesses index.
  struct LaidOutView {
    search::SharedLayout layout;
    Value flat;
  };
  llvm::DenseMap<Value, LaidOutView> viewLayouts;
  /// The analysed views of input iterators and output savers (viewOf).
  llvm::DenseMap<Operation *, std::optional<mb::StridedView>> deviceViews;
  /// The tiles planSharedMemory lays out for reads across rows (the
  /// operands of tensor-core matmuls).
  llvm::DenseSet<Value> readAcrossRows;
  /// The matmuls accumulated in place into their accum_sum's shared
  /// buffer (mb::accumulatedInPlace, when the accumulator is not in
  /// registers): no slot of their own, the accumulator's update is their
  /// store.
  llvm::DenseMap<Operation *, mb::AccumSumOp> inPlace;
  /// Walking input tiles loaded with cp.async into `stages` rotating
  /// buffers, `stages - 1` iterations ahead.
  SmallVector<mb::InputIterOp> pipelined;
  int64_t stages = 1;
  /// Loop-invariant input tiles, loaded once before the loop.
  SmallVector<mb::InputIterOp> hoisted;
  /// The dynamic shared memory all tiles are views of.
  Value rawShared;

  llvm::DenseMap<Value, Slot> slots;      // IR value -> shared-memory slot
  llvm::DenseMap<Value, Slot> aux;        // extra buffers keyed by op result
  llvm::DenseMap<Value, Slot> partialSlots; // warps' partial row results
  llvm::DenseMap<Value, Value> partialTiles;
  llvm::DenseMap<Value, Value> tiles;     // IR value -> memref view
  llvm::DenseMap<Value, Value> auxTiles;  // IR value -> extra memref view
  int64_t smemBytes = 0;
  Value tid, nthreads, blockIds[3];
  /// The loop's induction variable while its body is emitted, else null.
  Value loopIv;
  /// The loop's trip count: `forloop`, or for a `?` loop ([K21])
  /// ceil(walked extent / tile), computed at the start of the kernel.
  Value tripCount;
  /// The extent of the dim the loop walks, read once at the start of the
  /// kernel (from the walking tensor along a dynamic dim); null when no
  /// iterator walks the loop.
  Value walkedExtent;
  llvm::DenseSet<Value> dirty, readSinceBarrier;
  /// Current per-thread values of the accumulators kept in registers.
  llvm::MapVector<Operation *, SmallVector<Value>> regAccs;
  int64_t blockThreads() {
    ArrayRef<int64_t> blk = kernel.getBlock();
    return blk[0] * blk[1] * blk[2];
  }
  /// Slots in planning order (key, map it is in), so the emitted IR is
  /// deterministic.
  enum class SlotMap { Tiles, Aux, Partials };
  SmallVector<std::pair<Value, SlotMap>> order;
};

} // namespace mirage::lowering

#endif // MIRAGE_LIB_CONVERSION_KERNELEMITTER_H
