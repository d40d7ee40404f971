//===- MirageToGPU.cpp - Lower uGraphs to gpu.launch ------------*- C++ -*-===//
//
// Lowers functions of graph-defined kernels to host functions over memrefs
// whose kernels are gpu.launch ops working on shared-memory tiles. See the
// description of ConvertMirageToGPU in Passes.td for the scheme.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

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
#include <limits>

namespace mirage {
#define GEN_PASS_DEF_CONVERTMIRAGETOGPU
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

namespace {

MemRefType toMemRef(Type t) {
  auto tensor = cast<RankedTensorType>(t);
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

/// Most accumulator elements one thread keeps in registers (more stay in
/// shared memory).
constexpr int64_t kMaxRegisterAccumElems = 16;

/// Alignment of every tile in dynamic shared memory (16 bytes: the widest
/// vector load a later vectorisation would use).
constexpr int64_t kTileAlign = 16;

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value cF32(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

/// exp(x). On the GPU path it becomes libdevice's __nv_expf, linked into the
/// kernel when the CUDA toolkit is found; on the CPU path llvm.exp.
Value emitExp(OpBuilder &b, Location loc, Value x) {
  return math::ExpOp::create(b, loc, x);
}

/// erf(x) by Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7):
/// 1 - t (a1 + t (a2 + ... + t a5)) exp(-x^2), t = 1 / (1 + p |x|), odd in x.
/// Built from exp, which lowers on both paths, while math.erf has no LLVM
/// intrinsic for the CPU path.
Value emitErf(OpBuilder &b, Location loc, Value x) {
  Value one = cF32(b, loc, 1.0);
  Value a = math::AbsFOp::create(b, loc, x);
  Value t = arith::DivFOp::create(
      b, loc, one,
      arith::AddFOp::create(
          b, loc, one,
          arith::MulFOp::create(b, loc, cF32(b, loc, 0.3275911), a)));
  Value poly = cF32(b, loc, 1.061405429);
  for (double c : {-1.453152027, 1.421413741, -0.284496736, 0.254829592})
    poly = arith::AddFOp::create(b, loc, cF32(b, loc, c),
                                 arith::MulFOp::create(b, loc, t, poly));
  poly = arith::MulFOp::create(b, loc, t, poly);
  Value e = emitExp(
      b, loc,
      arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, a, a)));
  Value y = arith::SubFOp::create(b, loc, one,
                                  arith::MulFOp::create(b, loc, poly, e));
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         cF32(b, loc, 0.0));
  return arith::SelectOp::create(b, loc, negative,
                                 arith::NegFOp::create(b, loc, y), y);
}

/// `src` (a row-major buffer) viewed with the static shape of `type`: a
/// collapse to one dim and an expansion, no copy.
Value emitReshape(OpBuilder &b, Location loc, Value src, MemRefType type) {
  auto all = [](int64_t rank) {
    ReassociationIndices dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d);
    return SmallVector<ReassociationIndices, 1>{dims};
  };
  auto srcType = cast<MemRefType>(src.getType());
  if (srcType.getRank() > 1)
    src = memref::CollapseShapeOp::create(b, loc, src, all(srcType.getRank()));
  if (type.getRank() > 1)
    src = memref::ExpandShapeOp::create(b, loc, type, src, all(type.getRank()));
  return src;
}

/// Computes `kind` on f32 scalars.
Value emitScalar(OpBuilder &b, Location loc, ElementwiseKind kind,
                 ArrayRef<double> params, ValueRange x) {
  auto one = [&] { return cF32(b, loc, 1.0); };
  auto sigmoid = [&](Value v) {
    Value e = emitExp(b, loc, arith::NegFOp::create(b, loc, v));
    return arith::DivFOp::create(b, loc, one(),
                                 arith::AddFOp::create(b, loc, one(), e));
  };
  switch (kind) {
  case ElementwiseKind::Exp:
    return emitExp(b, loc, x[0]);
  case ElementwiseKind::Square:
    return arith::MulFOp::create(b, loc, x[0], x[0]);
  case ElementwiseKind::Sqrt:
    return math::SqrtOp::create(b, loc, x[0]);
  case ElementwiseKind::Rsqrt:
    return math::RsqrtOp::create(b, loc, x[0]);
  case ElementwiseKind::Silu:
    return arith::MulFOp::create(b, loc, x[0], sigmoid(x[0]));
  case ElementwiseKind::Sigmoid:
    return sigmoid(x[0]);
  case ElementwiseKind::Gelu: {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    Value x3 = arith::MulFOp::create(
        b, loc, x[0], arith::MulFOp::create(b, loc, x[0], x[0]));
    Value inner = arith::AddFOp::create(
        b, loc, x[0], arith::MulFOp::create(b, loc, cF32(b, loc, 0.044715), x3));
    // tanh(z) = 1 - 2 / (exp(2z) + 1): exp lowers on both paths, while
    // math.tanh has no LLVM intrinsic for the CPU path.
    Value z = arith::MulFOp::create(
        b, loc, cF32(b, loc, 2.0 * std::sqrt(2.0 / M_PI)), inner);
    Value t = arith::SubFOp::create(
        b, loc, one(),
        arith::DivFOp::create(
            b, loc, cF32(b, loc, 2.0),
            arith::AddFOp::create(b, loc, emitExp(b, loc, z), one())));
    Value half = arith::MulFOp::create(b, loc, cF32(b, loc, 0.5), x[0]);
    return arith::MulFOp::create(b, loc, half,
                                 arith::AddFOp::create(b, loc, one(), t));
  }
  case ElementwiseKind::Reciprocal:
    return arith::DivFOp::create(b, loc, one(), x[0]);
  case ElementwiseKind::Tanh:
    // libdevice's __nv_tanhf on the GPU path, llvm.tanh (libm) on the CPU.
    return math::TanhOp::create(b, loc, x[0]);
  case ElementwiseKind::GeluErf: {
    // 0.5 x (1 + erf(x / sqrt(2)))
    Value erf = emitErf(
        b, loc, arith::MulFOp::create(b, loc, cF32(b, loc, M_SQRT1_2), x[0]));
    Value half = arith::MulFOp::create(b, loc, cF32(b, loc, 0.5), x[0]);
    return arith::MulFOp::create(b, loc, half,
                                 arith::AddFOp::create(b, loc, one(), erf));
  }
  case ElementwiseKind::Relu:
    return arith::MaximumFOp::create(b, loc, x[0], cF32(b, loc, 0.0));
  case ElementwiseKind::Neg:
    return arith::NegFOp::create(b, loc, x[0]);
  case ElementwiseKind::MulScalar:
    return arith::MulFOp::create(b, loc, x[0], cF32(b, loc, params[0]));
  case ElementwiseKind::AddScalar:
    return arith::AddFOp::create(b, loc, x[0], cF32(b, loc, params[0]));
  case ElementwiseKind::Clamp:
    return arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, x[0], cF32(b, loc, params[0])),
        cF32(b, loc, params[1]));
  case ElementwiseKind::Add:
    return arith::AddFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Sub:
    return arith::SubFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Mul:
    return arith::MulFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Div:
    return arith::DivFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Pow:
    return math::PowFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Max:
    return arith::MaximumFOp::create(b, loc, x[0], x[1]);
  }
  llvm_unreachable("unknown element-wise kind");
}

/// Emits the code of one graph-defined kernel inside its gpu.launch.
class KernelEmitter {
public:
  KernelEmitter(mk::GraphKernelOp kernel, OpBuilder &b,
                llvm::DenseMap<Value, Value> &global, int64_t &numBarriers,
                bool tensorCores, int64_t &numMma, bool asyncCopies,
                bool registerAccumulators)
      : kernel(kernel), b(b), loc(kernel.getLoc()), global(global),
        numBarriers(numBarriers), tensorCores(tensorCores), numMma(numMma),
        asyncCopies(asyncCopies), registerAccumulators(registerAccumulators) {}

  /// Plans the shared-memory layout; returns its size in bytes.
  int64_t planSharedMemory();
  /// Emits the kernel body at the builder's insertion point (inside the
  /// launch region).
  LogicalResult emit(gpu::LaunchOp launch);

private:
  struct Slot {
    int64_t offset;
    MemRefType type;
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
  Value loadF32(Value buf, ValueRange idx);
  void storeF32(Value buf, ValueRange idx, Value v);
  /// Index into a buffer that broadcasts along its size-1 dims.
  SmallVector<Value> broadcastIndex(Value buf, ValueRange idx);
  /// Declares that the next stage reads `reads` and writes `writes`; emits a
  /// barrier first if that races with earlier stages since the last one.
  void stage(ArrayRef<Value> reads, ArrayRef<Value> writes);
  void barrier();

  LogicalResult emitLoopBody(mb::ForLoopOp loop, Value iv);
  LogicalResult emitTileOp(Operation *op);
  void emitInputIter(mb::InputIterOp op, Value iv);
  /// Tile origin of an input iterator at iteration `iv` (DESIGN §3.2).
  SmallVector<Value> inputOrigin(mb::InputIterOp op, Value iv);
  /// Elements per cp.async (16, 8 or 4 bytes), or 0 if the tile cannot be
  /// copied asynchronously.
  int64_t asyncChunk(mb::InputIterOp op);
  /// Issues cp.async copies of iteration `iv` of `op` into `dst`.
  void emitAsyncCopy(mb::InputIterOp op, Value iv, Value dst);
  /// Prefetches iteration iv + 1 of every double-buffered input and waits
  /// for iteration iv; binds the tiles of iteration iv.
  void emitDoubleBufferedStep(Value iv);
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
  void emitOutputSaver(mb::OutputSaverOp op);
  /// Sum (or sum of squares) of `buf` over its last dim at row `idx`.
  Value rowReduce(Value buf, ValueRange idx, int64_t begin, int64_t count,
                  bool squares);

  Value buf(Value v) { return tiles.lookup(v); }
  /// Whether `mm` can run on tensor cores (m16n8k16, f16 in, f32 out).
  bool fitsMma(mb::MatmulOp mm);
  /// Emits `mm` with nvgpu.mma.sync, one 16x8 output tile per warp at a time.
  void emitMmaMatmul(mb::MatmulOp mm);

  mk::GraphKernelOp kernel;
  OpBuilder &b;
  Location loc;
  llvm::DenseMap<Value, Value> &global;
  int64_t &numBarriers;
  bool tensorCores;
  int64_t &numMma;
  bool asyncCopies;
  bool registerAccumulators;
  /// Input iterators loaded with cp.async into two alternating buffers.
  SmallVector<mb::InputIterOp> doubleBuffered;
  /// The token a wait names (the lowering only uses its numGroups).
  Value asyncToken;
  /// The dynamic shared memory all tiles are views of.
  Value rawShared;

  llvm::DenseMap<Value, Slot> slots;      // IR value -> shared-memory slot
  llvm::DenseMap<Value, Slot> aux;        // extra buffers keyed by op result
  llvm::DenseMap<Value, Value> tiles;     // IR value -> memref view
  llvm::DenseMap<Value, Value> auxTiles;  // IR value -> extra memref view
  int64_t smemBytes = 0;
  Value tid, nthreads, blockIds[3];
  llvm::DenseSet<Value> dirty, readSinceBarrier;
  /// Current per-thread values of the accumulators kept in registers.
  llvm::MapVector<Operation *, SmallVector<Value>> regAccs;
  int64_t blockThreads() {
    ArrayRef<int64_t> blk = kernel.getBlock();
    return blk[0] * blk[1] * blk[2];
  }
  /// Slots in planning order (key, is-aux), so the emitted IR is
  /// deterministic.
  SmallVector<std::pair<Value, bool>> order;
};

void KernelEmitter::reserve(Value key, ArrayRef<int64_t> shape,
                            Type elementType,
                            llvm::DenseMap<Value, Slot> &into) {
  auto type = MemRefType::get(
      shape, elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::AddressSpace::Workgroup));
  int64_t bytes = type.getNumElements() * elementByteWidth(elementType);
  into[key] = {smemBytes, type};
  order.push_back({key, &into == &aux});
  smemBytes += llvm::alignTo(bytes, kTileAlign);
}

int64_t KernelEmitter::planSharedMemory() {
  Type f32 = b.getF32Type();
  kernel.getBody().walk([&](Operation *op) {
    if (isa<mb::ForLoopOp, mb::OutputSaverOp, mb::YieldOp, mb::ReturnOp>(op) ||
        op->getParentOfType<mt::ThreadGraphOp>())
      return;
    for (Value r : op->getResults()) {
      auto t = cast<RankedTensorType>(r.getType());
      // Accumulators and row statistics are kept in f32.
      bool wide = isa<AccumulatorOpInterface>(op);
      reserve(r, t.getShape(), wide ? f32 : t.getElementType(), slots);
    }
    if (auto rms = dyn_cast<mb::RmsNormOp>(op)) {
      SmallVector<int64_t> shape(rms.getType().getShape());
      shape.back() = 1;
      reserve(rms.getResult(), shape, f32, aux);
    }
    if (auto acc = dyn_cast<mb::AccumRescaledSumOp>(op))
      reserve(acc.getResult(), acc.getType().getShape(), f32, aux);
    if (auto it = dyn_cast<mb::InputIterOp>(op);
        it && asyncCopies && it.getFmap() >= 0 && kernel.getForloop() > 1 &&
        asyncChunk(it) > 0) {
      // Double buffering: iteration i + 1 loads while iteration i computes.
      reserve(it.getTile(), it.getType().getShape(),
              it.getType().getElementType(), aux);
      doubleBuffered.push_back(it);
    }
  });
  return smemBytes;
}

void KernelEmitter::barrier() {
  gpu::BarrierOp::create(b, loc);
  ++numBarriers;
  dirty.clear();
  readSinceBarrier.clear();
}

void KernelEmitter::stage(ArrayRef<Value> reads, ArrayRef<Value> writes) {
  bool race = llvm::any_of(reads, [&](Value v) { return dirty.contains(v); }) ||
              llvm::any_of(writes, [&](Value v) {
                return dirty.contains(v) || readSinceBarrier.contains(v);
              });
  if (race)
    barrier();
  readSinceBarrier.insert(reads.begin(), reads.end());
  dirty.insert(writes.begin(), writes.end());
}

void KernelEmitter::forEachElement(ArrayRef<int64_t> shape,
                                   function_ref<void(ValueRange)> body) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  auto loop = scf::ForOp::create(b, loc, tid, cIndex(b, loc, n), nthreads);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(delinearize(loop.getInductionVar(), shape));
}

SmallVector<Value> KernelEmitter::delinearize(Value e,
                                              ArrayRef<int64_t> shape) {
  SmallVector<Value> idx(shape.size());
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value q = stride == 1 ? e
                          : arith::DivUIOp::create(b, loc, e,
                                                   cIndex(b, loc, stride));
    idx[d] = d == 0 ? q
                    : arith::RemUIOp::create(b, loc, q,
                                             cIndex(b, loc, shape[d]));
    stride *= shape[d];
  }
  return idx;
}

SmallVector<Value> KernelEmitter::broadcastIndex(Value buffer, ValueRange idx) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Value> out(idx);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) == 1)
      out[d] = cIndex(b, loc, 0);
  return out;
}

Value KernelEmitter::loadF32(Value buffer, ValueRange idx) {
  Value v = memref::LoadOp::create(b, loc, buffer, idx);
  if (!v.getType().isF32())
    v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return v;
}

void KernelEmitter::storeF32(Value buffer, ValueRange idx, Value v) {
  Type et = cast<MemRefType>(buffer.getType()).getElementType();
  if (et != v.getType())
    v = arith::TruncFOp::create(b, loc, et, v);
  memref::StoreOp::create(b, loc, v, buffer, idx);
}

Value KernelEmitter::rowReduce(Value buffer, ValueRange idx, int64_t begin,
                               int64_t count, bool squares) {
  auto loop = scf::ForOp::create(b, loc, cIndex(b, loc, begin),
                                 cIndex(b, loc, begin + count),
                                 cIndex(b, loc, 1),
                                 ValueRange{cF32(b, loc, 0.0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> at(idx);
  at.back() = loop.getInductionVar();
  Value x = loadF32(buffer, at);
  if (squares)
    x = arith::MulFOp::create(b, loc, x, x);
  Value s = arith::AddFOp::create(b, loc, loop.getRegionIterArgs()[0], x);
  scf::YieldOp::create(b, loc, s);
  return loop.getResult(0);
}

SmallVector<Value> KernelEmitter::inputOrigin(mb::InputIterOp op, Value iv) {
  ArrayRef<int64_t> tile = op.getType().getShape();
  ArrayRef<int64_t> imap = op.getImap();
  int64_t fmap = op.getFmap();
  int64_t f = kernel.getForloop();
  // Tile origin (DESIGN §3.2): block index, then the loop index inside it.
  SmallVector<Value> off(tile.size(), cIndex(b, loc, 0));
  for (int g = 0; g < 3; ++g)
    if (imap[g] >= 0)
      off[imap[g]] = blockIds[g];
  if (fmap >= 0)
    off[fmap] = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, off[fmap], cIndex(b, loc, f)),
        iv);
  for (size_t d = 0; d < tile.size(); ++d)
    off[d] = arith::MulIOp::create(b, loc, off[d], cIndex(b, loc, tile[d]));
  return off;
}

void KernelEmitter::emitInputIter(mb::InputIterOp op, Value iv) {
  if (llvm::is_contained(doubleBuffered, op))
    return; // Loaded by emitDoubleBufferedStep.
  ArrayRef<int64_t> tile = op.getType().getShape();
  SmallVector<Value> off = inputOrigin(op, iv);
  Value src = global.lookup(op.getInput());
  Value dst = buf(op.getTile());
  stage({}, {dst});
  forEachElement(tile, [&](ValueRange idx) {
    SmallVector<Value> at;
    for (size_t d = 0; d < tile.size(); ++d)
      at.push_back(arith::AddIOp::create(b, loc, off[d], idx[d]));
    Value v = memref::LoadOp::create(b, loc, src, at);
    memref::StoreOp::create(b, loc, v, dst, idx);
  });
}

int64_t KernelEmitter::asyncChunk(mb::InputIterOp op) {
  int64_t width = elementByteWidth(op.getType().getElementType());
  int64_t tileLast = op.getType().getShape().back();
  int64_t globalLast = op.getInput().getType().getShape().back();
  // A chunk is contiguous in both memories and aligned to its size: it must
  // divide the tile row and the device-tensor row.
  for (int64_t bytes : {16, 8, 4})
    if (bytes % width == 0 && tileLast % (bytes / width) == 0 &&
        globalLast % (bytes / width) == 0)
      return bytes / width;
  return 0;
}

void KernelEmitter::emitAsyncCopy(mb::InputIterOp op, Value iv, Value dst) {
  ArrayRef<int64_t> tile = op.getType().getShape();
  int64_t chunk = asyncChunk(op);
  SmallVector<int64_t> chunks(tile);
  chunks.back() /= chunk;
  SmallVector<Value> off = inputOrigin(op, iv);
  Value src = global.lookup(op.getInput());
  forEachElement(chunks, [&](ValueRange idx) {
    SmallVector<Value> at(idx), gat;
    at.back() = arith::MulIOp::create(b, loc, idx.back(), cIndex(b, loc, chunk));
    for (size_t d = 0; d < tile.size(); ++d)
      gat.push_back(arith::AddIOp::create(b, loc, off[d], at[d]));
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dst, at, src,
        gat, b.getIndexAttr(chunk), /*srcElements=*/Value(),
        /*bypassL1=*/UnitAttr());
  });
}

void KernelEmitter::emitDoubleBufferedStep(Value iv) {
  if (doubleBuffered.empty())
    return;
  int64_t f = kernel.getForloop();
  Value even = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, iv, cIndex(b, loc, 2)), cIndex(b, loc, 0));
  Value next = arith::AddIOp::create(b, loc, iv, cIndex(b, loc, 1));
  Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                     cIndex(b, loc, f));
  // Select between the two slots by byte offset (a select of workgroup
  // memrefs would not survive the NVVM type conversion).
  SmallVector<Value> current, upcoming;
  for (mb::InputIterOp it : doubleBuffered) {
    const Slot &s0 = slots.find(it.getTile())->second;
    const Slot &s1 = aux.find(it.getTile())->second;
    Value o0 = cIndex(b, loc, s0.offset), o1 = cIndex(b, loc, s1.offset);
    auto view = [&](Value offset) {
      return memref::ViewOp::create(b, loc, s0.type, rawShared, offset,
                                    ValueRange{})
          .getResult();
    };
    current.push_back(view(arith::SelectOp::create(b, loc, even, o0, o1)));
    upcoming.push_back(view(arith::SelectOp::create(b, loc, even, o1, o0)));
  }
  // The next buffers were last read in iteration iv - 1, which ended with a
  // barrier.
  auto prefetch = scf::IfOp::create(b, loc, more, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&prefetch.getThenRegion().front());
    for (auto [it, dst] : llvm::zip_equal(doubleBuffered, upcoming))
      emitAsyncCopy(it, next, dst);
    nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ValueRange{});
  }
  // Wait for this iteration's group: all but the one just issued.
  auto wait = scf::IfOp::create(b, loc, more, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&wait.getThenRegion().front());
    nvgpu::DeviceAsyncWaitOp::create(b, loc, asyncToken,
                                     b.getI32IntegerAttr(1));
    b.setInsertionPointToStart(&wait.getElseRegion().front());
    nvgpu::DeviceAsyncWaitOp::create(b, loc, asyncToken,
                                     b.getI32IntegerAttr(0));
  }
  // Other threads' copies become visible at the next barrier.
  for (auto [it, cur] : llvm::zip_equal(doubleBuffered, current)) {
    tiles[it.getTile()] = cur;
    dirty.insert(cur);
  }
}

void KernelEmitter::emitOutputSaver(mb::OutputSaverOp op) {
  ArrayRef<int64_t> tile = op.getInput().getType().getShape();
  ArrayRef<int64_t> omap = op.getOmap();
  SmallVector<Value> off(tile.size(), cIndex(b, loc, 0));
  for (int g = 0; g < 3; ++g)
    if (omap[g] >= 0)
      off[omap[g]] = arith::MulIOp::create(b, loc, blockIds[g],
                                           cIndex(b, loc, tile[omap[g]]));
  Value src = buf(op.getInput());
  Value dst = global.lookup(op.getOutput());
  stage({src}, {});
  forEachElement(tile, [&](ValueRange idx) {
    SmallVector<Value> at;
    for (size_t d = 0; d < tile.size(); ++d)
      at.push_back(arith::AddIOp::create(b, loc, off[d], idx[d]));
    storeF32(dst, at, loadF32(src, idx));
  });
}

void KernelEmitter::emitAccumInit(AccumulatorOpInterface acc) {
  Value out = buf(acc->getResult(0));
  SmallVector<Value> writes{out};
  double init = acc.getAccumulatorKind() == AccumulatorKind::Max
                    ? -std::numeric_limits<double>::infinity()
                    : 0.0;
  if (inRegisters(acc)) {
    int64_t n = 1;
    for (int64_t d : cast<MemRefType>(out.getType()).getShape())
      n *= d;
    int64_t t = blockThreads();
    regAccs[acc.getOperation()].assign((n + t - 1) / t, cF32(b, loc, init));
    return;
  }
  Value runningMax = auxTiles.lookup(acc->getResult(0));
  if (runningMax)
    writes.push_back(runningMax);
  stage({}, writes);
  forEachElement(cast<MemRefType>(out.getType()).getShape(),
                 [&](ValueRange idx) {
                   memref::StoreOp::create(b, loc, cF32(b, loc, init), out,
                                           idx);
                   if (runningMax)
                     memref::StoreOp::create(
                         b, loc,
                         cF32(b, loc, -std::numeric_limits<double>::infinity()),
                         runningMax, idx);
                 });
}

void KernelEmitter::emitAccumUpdate(AccumulatorOpInterface acc) {
  Value out = buf(acc->getResult(0));
  Value x = buf(acc.getAccumulated());
  auto shape = cast<MemRefType>(out.getType()).getShape();
  if (inRegisters(acc)) {
    // Only the operand is read; the running values are this thread's.
    stage({x}, {});
    SmallVector<Value> &vals = regAccs[acc.getOperation()];
    SmallVector<Value> next;
    forEachOwnedElement(
        shape,
        [&](int64_t j, ValueRange idx) { return accumStep(acc, vals[j], idx); },
        [&](int64_t j) { return vals[j]; }, next);
    vals = next;
    return;
  }
  Value runningMax = auxTiles.lookup(acc->getResult(0));
  SmallVector<Value> reads{x, out}, writes{out};
  Value m;
  if (auto rs = dyn_cast<mb::AccumRescaledSumOp>(acc.getOperation())) {
    m = buf(rs.getMax());
    reads.push_back(m);
    reads.push_back(runningMax);
    writes.push_back(runningMax);
  }
  stage(reads, writes);
  forEachElement(shape, [&](ValueRange idx) {
    Value old = memref::LoadOp::create(b, loc, out, idx);
    Value next = accumStep(acc, old, idx);
    if (auto rs = dyn_cast<mb::AccumRescaledSumOp>(acc.getOperation())) {
      // M' = max(M, m); acc' = acc exp(M - M') + x exp(m - M')
      Value mi = loadF32(m, broadcastIndex(m, idx));
      Value mOld = memref::LoadOp::create(b, loc, runningMax, idx);
      Value mNew = arith::MaximumFOp::create(b, loc, mOld, mi);
      Value scaleOld =
          emitExp(b, loc, arith::SubFOp::create(b, loc, mOld, mNew));
      Value scaleNew =
          emitExp(b, loc, arith::SubFOp::create(b, loc, mi, mNew));
      next = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, old, scaleOld),
          arith::MulFOp::create(b, loc, loadF32(x, idx), scaleNew));
      memref::StoreOp::create(b, loc, mNew, runningMax, idx);
    }
    memref::StoreOp::create(b, loc, next, out, idx);
  });
}

Value KernelEmitter::accumStep(AccumulatorOpInterface acc, Value old,
                               ValueRange idx) {
  Value x = buf(acc.getAccumulated());
  int64_t n = cast<MemRefType>(x.getType()).getShape().back();
  int64_t outLast = cast<MemRefType>(buf(acc->getResult(0)).getType())
                        .getShape()
                        .back();
  Value next;
  switch (acc.getAccumulatorKind()) {
    case AccumulatorKind::Sum:
      next = arith::AddFOp::create(b, loc, old, loadF32(x, idx));
      break;
    case AccumulatorKind::Max:
      next = arith::MaximumFOp::create(b, loc, old, loadF32(x, idx));
      break;
    case AccumulatorKind::SumLast:
    case AccumulatorKind::MeanLast:
      next = arith::AddFOp::create(b, loc, old,
                                   rowReduce(x, idx, 0, n, /*squares=*/false));
      break;
    case AccumulatorKind::RmsLast:
      next = arith::AddFOp::create(b, loc, old,
                                   rowReduce(x, idx, 0, n, /*squares=*/true));
      break;
    case AccumulatorKind::SumTo: {
      int64_t chunk = n / outLast;
      Value begin = arith::MulIOp::create(b, loc, idx.back(),
                                          cIndex(b, loc, chunk));
      auto loop = scf::ForOp::create(
          b, loc, begin,
          arith::AddIOp::create(b, loc, begin, cIndex(b, loc, chunk)),
          cIndex(b, loc, 1), ValueRange{old});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> at(idx);
      at.back() = loop.getInductionVar();
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::AddFOp::create(b, loc, loop.getRegionIterArgs()[0],
                                           loadF32(x, at))});
      b.setInsertionPointAfter(loop);
      next = loop.getResult(0);
      break;
    }
    case AccumulatorKind::RescaledSum:
      // Needs the running maximum too: emitAccumUpdate handles it.
      next = old;
      break;
  }
  return next;
}

bool KernelEmitter::inRegisters(AccumulatorOpInterface acc) {
  if (!registerAccumulators || isa<mb::AccumRescaledSumOp>(acc.getOperation()))
    return false;
  int64_t n = 1;
  for (int64_t d :
       cast<RankedTensorType>(acc->getResult(0).getType()).getShape())
    n *= d;
  int64_t t = blockThreads();
  return (n + t - 1) / t <= kMaxRegisterAccumElems;
}

void KernelEmitter::forEachOwnedElement(
    ArrayRef<int64_t> shape, function_ref<Value(int64_t, ValueRange)> body,
    function_ref<Value(int64_t)> fallback, SmallVectorImpl<Value> &results) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  int64_t t = blockThreads();
  for (int64_t j = 0; j * t < n; ++j) {
    Value e = arith::AddIOp::create(b, loc, tid, cIndex(b, loc, j * t));
    auto indexOf = [&]() { return delinearize(e, shape); };
    if ((j + 1) * t <= n) {
      results.push_back(body(j, indexOf()));
      continue;
    }
    // The last round: threads past the end keep their value.
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          e, cIndex(b, loc, n));
    auto ifOp = scf::IfOp::create(b, loc, b.getF32Type(), inRange,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, loc, body(j, indexOf()));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, fallback(j));
    results.push_back(ifOp.getResult(0));
  }
}

void KernelEmitter::spillRegisterAccum(AccumulatorOpInterface acc) {
  Value out = buf(acc->getResult(0));
  SmallVector<Value> &vals = regAccs[acc.getOperation()];
  stage({}, {out});
  SmallVector<Value> unused;
  forEachOwnedElement(
      cast<MemRefType>(out.getType()).getShape(),
      [&](int64_t j, ValueRange idx) {
        memref::StoreOp::create(b, loc, vals[j], out, idx);
        return vals[j];
      },
      [&](int64_t j) { return vals[j]; }, unused);
}

void KernelEmitter::emitAccumFinal(AccumulatorOpInterface acc) {
  AccumulatorKind kind = acc.getAccumulatorKind();
  if (kind != AccumulatorKind::MeanLast && kind != AccumulatorKind::RmsLast)
    return;
  Value out = buf(acc->getResult(0));
  int64_t n = cast<RankedTensorType>(acc.getAccumulated().getType())
                  .getShape()
                  .back();
  double count = static_cast<double>(n * kernel.getForloop());
  double eps = 0.0;
  if (auto rms = dyn_cast<mb::AccumRmsLastOp>(acc.getOperation()))
    eps = rms.getEps().convertToDouble();
  stage({out}, {out});
  forEachElement(cast<MemRefType>(out.getType()).getShape(),
                 [&](ValueRange idx) {
                   Value v = memref::LoadOp::create(b, loc, out, idx);
                   v = arith::DivFOp::create(b, loc, v, cF32(b, loc, count));
                   if (kind == AccumulatorKind::RmsLast)
                     v = math::SqrtOp::create(
                         b, loc, arith::AddFOp::create(b, loc, v,
                                                       cF32(b, loc, eps)));
                   memref::StoreOp::create(b, loc, v, out, idx);
                 });
}

LogicalResult KernelEmitter::emitTileOp(Operation *op) {
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
    SmallVector<Value> ins;
    for (Value v : op->getOperands())
      ins.push_back(buf(v));
    Value out = buf(op->getResult(0));
    stage(ins, {out});
    SmallVector<double, 2> params = ew.getScalarParams();
    forEachElement(cast<MemRefType>(out.getType()).getShape(),
                   [&](ValueRange idx) {
                     SmallVector<Value> xs;
                     for (Value in : ins)
                       xs.push_back(loadF32(in, broadcastIndex(in, idx)));
                     storeF32(out, idx,
                              emitScalar(b, loc, ew.getElementwiseKind(),
                                         params, xs));
                   });
    return success();
  }
  if (auto tg = dyn_cast<mt::ThreadGraphOp>(op)) {
    SmallVector<Value> ins, outs;
    for (Value v : tg.getInputs())
      ins.push_back(buf(v));
    for (Value v : tg.getResults())
      outs.push_back(buf(v));
    stage(ins, outs);
    Block &body = tg.getBody().front();
    forEachElement(cast<MemRefType>(outs[0].getType()).getShape(),
                   [&](ValueRange idx) {
                     llvm::DenseMap<Value, Value> scalar;
                     for (auto [arg, in] :
                          llvm::zip_equal(body.getArguments(), ins))
                       scalar[arg] = loadF32(in, broadcastIndex(in, idx));
                     for (Operation &inner : body.without_terminator()) {
                       auto e = cast<ElementwiseOpInterface>(inner);
                       SmallVector<Value> xs;
                       for (Value v : inner.getOperands())
                         xs.push_back(scalar.lookup(v));
                       scalar[inner.getResult(0)] =
                           emitScalar(b, loc, e.getElementwiseKind(),
                                      e.getScalarParams(), xs);
                     }
                     for (auto [v, out] : llvm::zip_equal(
                              body.getTerminator()->getOperands(), outs))
                       storeF32(out, idx, scalar.lookup(v));
                   });
    return success();
  }
  if (auto mm = dyn_cast<mb::MatmulOp>(op)) {
    Value lhs = buf(mm.getLhs()), rhs = buf(mm.getRhs()),
          out = buf(mm.getResult());
    stage({lhs, rhs}, {out});
    if (fitsMma(mm)) {
      emitMmaMatmul(mm);
      return success();
    }
    int64_t k = mm.getLhs().getType().getShape().back();
    forEachElement(mm.getType().getShape(), [&](ValueRange idx) {
      auto loop = scf::ForOp::create(b, loc, cIndex(b, loc, 0),
                                     cIndex(b, loc, k), cIndex(b, loc, 1),
                                     ValueRange{cF32(b, loc, 0.0)});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value kk = loop.getInductionVar();
        SmallVector<Value> a(idx), w(idx);
        a.back() = kk;
        w[w.size() - 2] = kk;
        Value p = arith::MulFOp::create(b, loc, loadF32(lhs, a),
                                        loadF32(rhs, w));
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::AddFOp::create(b, loc,
                                             loop.getRegionIterArgs()[0], p)});
      }
      storeF32(out, idx, loop.getResult(0));
    });
    return success();
  }
  if (isa<mb::ReduceSumOp, mb::ReduceMaxOp>(op)) {
    bool isMax = isa<mb::ReduceMaxOp>(op);
    int64_t dim = isMax ? cast<mb::ReduceMaxOp>(op).getDim()
                        : cast<mb::ReduceSumOp>(op).getDim();
    Value in = buf(op->getOperand(0)), out = buf(op->getResult(0));
    stage({in}, {out});
    int64_t n = cast<MemRefType>(in.getType()).getDimSize(dim);
    forEachElement(cast<MemRefType>(out.getType()).getShape(),
                   [&](ValueRange idx) {
                     Value init = cF32(
                         b, loc,
                         isMax ? -std::numeric_limits<double>::infinity() : 0.0);
                     auto loop = scf::ForOp::create(
                         b, loc, cIndex(b, loc, 0), cIndex(b, loc, n),
                         cIndex(b, loc, 1), ValueRange{init});
                     {
                       OpBuilder::InsertionGuard guard(b);
                       b.setInsertionPointToStart(loop.getBody());
                       SmallVector<Value> at(idx);
                       at[dim] = loop.getInductionVar();
                       Value x = loadF32(in, at);
                       Value acc = loop.getRegionIterArgs()[0];
                       Value r = isMax ? Value(arith::MaximumFOp::create(
                                             b, loc, acc, x))
                                       : Value(arith::AddFOp::create(b, loc,
                                                                     acc, x));
                       scf::YieldOp::create(b, loc, r);
                     }
                     storeF32(out, idx, loop.getResult(0));
                   });
    return success();
  }
  if (auto rms = dyn_cast<mb::RmsNormOp>(op)) {
    Value in = buf(rms.getInput()), out = buf(rms.getResult());
    Value stat = auxTiles.lookup(rms.getResult());
    Value weight = rms.getWeight() ? buf(rms.getWeight()) : Value();
    int64_t n = rms.getType().getShape().back();
    double eps = rms.getEps().convertToDouble();
    stage({in}, {stat});
    forEachElement(cast<MemRefType>(stat.getType()).getShape(),
                   [&](ValueRange idx) {
                     Value ss = rowReduce(in, idx, 0, n, /*squares=*/true);
                     Value mean = arith::DivFOp::create(
                         b, loc, ss, cF32(b, loc, static_cast<double>(n)));
                     memref::StoreOp::create(
                         b, loc,
                         math::SqrtOp::create(
                             b, loc,
                             arith::AddFOp::create(b, loc, mean,
                                                   cF32(b, loc, eps))),
                         stat, idx);
                   });
    SmallVector<Value> reads{in, stat};
    if (weight)
      reads.push_back(weight);
    stage(reads, {out});
    forEachElement(rms.getType().getShape(), [&](ValueRange idx) {
      SmallVector<Value> row(idx);
      row.back() = cIndex(b, loc, 0);
      Value y = arith::DivFOp::create(b, loc, loadF32(in, idx),
                                      memref::LoadOp::create(b, loc, stat, row));
      if (weight)
        y = arith::MulFOp::create(b, loc, y,
                                  loadF32(weight, ValueRange{idx.back()}));
      storeF32(out, idx, y);
    });
    return success();
  }
  if (auto tr = dyn_cast<mb::TransposeOp>(op)) {
    Value in = buf(tr.getInput()), out = buf(tr.getResult());
    stage({in}, {out});
    ArrayRef<int64_t> perm = tr.getPerm();
    forEachElement(tr.getType().getShape(), [&](ValueRange idx) {
      SmallVector<Value> at(idx.size());
      for (size_t k = 0; k < perm.size(); ++k)
        at[perm[k]] = idx[k];
      // The input may be an f32 accumulator buffer.
      storeF32(out, idx, loadF32(in, at));
    });
    return success();
  }
  if (auto cat = dyn_cast<mb::ConcatOp>(op)) {
    SmallVector<Value> ins;
    for (Value v : cat.getInputs())
      ins.push_back(buf(v));
    Value out = buf(cat.getResult());
    stage(ins, {out});
    int64_t dim = cat.getDim(), base = 0;
    for (Value in : ins) {
      auto shape = cast<MemRefType>(in.getType()).getShape();
      forEachElement(shape, [&](ValueRange idx) {
        SmallVector<Value> at(idx);
        at[dim] = arith::AddIOp::create(b, loc, idx[dim], cIndex(b, loc, base));
        storeF32(out, at, loadF32(in, idx));
      });
      base += shape[dim];
    }
    return success();
  }
  return op->emitOpError("is not supported by convert-mirage-to-gpu");
}

bool KernelEmitter::fitsMma(mb::MatmulOp mm) {
  if (!tensorCores)
    return false;
  ArrayRef<int64_t> blk = kernel.getBlock();
  ArrayRef<int64_t> a = mm.getLhs().getType().getShape();
  ArrayRef<int64_t> w = mm.getRhs().getType().getShape();
  int64_t r = a.size();
  // Operands read straight from f16 buffers (not f32 accumulators); one
  // batch dim at most.
  auto isF16Buffer = [&](Value v) {
    return cast<MemRefType>(buf(v).getType()).getElementType().isF16();
  };
  return r <= 3 && (blk[0] * blk[1] * blk[2]) % 32 == 0 &&
         isF16Buffer(mm.getLhs()) && isF16Buffer(mm.getRhs()) &&
         a[r - 2] % 16 == 0 && a[r - 1] % 16 == 0 && w[r - 1] % 8 == 0;
}

void KernelEmitter::emitMmaMatmul(mb::MatmulOp mm) {
  Value lhs = buf(mm.getLhs()), rhs = buf(mm.getRhs()),
        out = buf(mm.getResult());
  ArrayRef<int64_t> outShape = mm.getType().getShape();
  int64_t r = outShape.size();
  int64_t m = outShape[r - 2], n = outShape[r - 1];
  int64_t k = mm.getLhs().getType().getShape().back();
  int64_t batch = r == 3 ? outShape[0] : 1;
  int64_t tilesM = m / 16, tilesN = n / 8;
  Value c32 = cIndex(b, loc, 32);
  Value warp = arith::DivUIOp::create(b, loc, tid, c32);
  Value lane = arith::RemUIOp::create(b, loc, tid, c32);
  Value nwarps = arith::DivUIOp::create(b, loc, nthreads, c32);
  // PTX m16n8k16 fragment layout: group g = lane / 4, thread t = lane % 4.
  Value g = arith::DivUIOp::create(b, loc, lane, cIndex(b, loc, 4));
  Value t2 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, cIndex(b, loc, 4)),
      cIndex(b, loc, 2));
  auto add = [&](Value x, int64_t c) {
    return c == 0 ? x : arith::AddIOp::create(b, loc, x, cIndex(b, loc, c));
  };
  // Every warp runs the same number of rounds (warps past the last tile
  // recompute it and store nothing), so warp-collective code, and its CPU
  // emulation with block-wide barriers, stays uniform.
  int64_t numTiles = batch * tilesM * tilesN;
  Value rounds = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, cIndex(b, loc, numTiles - 1), nwarps),
      nwarps);
  auto tileLoop = scf::ForOp::create(b, loc, cIndex(b, loc, 0), rounds,
                                     cIndex(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tileLoop.getBody());
  Value tRaw = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, tileLoop.getInductionVar(), nwarps),
      warp);
  Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tRaw,
                                       cIndex(b, loc, numTiles));
  Value tIdx = arith::MinUIOp::create(b, loc, tRaw, cIndex(b, loc, numTiles - 1));
  Value tn = arith::RemUIOp::create(b, loc, tIdx, cIndex(b, loc, tilesN));
  Value rest = arith::DivUIOp::create(b, loc, tIdx, cIndex(b, loc, tilesN));
  Value tm = arith::RemUIOp::create(b, loc, rest, cIndex(b, loc, tilesM));
  Value bi = arith::DivUIOp::create(b, loc, rest, cIndex(b, loc, tilesM));
  Value row0 = arith::MulIOp::create(b, loc, tm, cIndex(b, loc, 16));
  Value col0 = arith::MulIOp::create(b, loc, tn, cIndex(b, loc, 8));
  // Fragments come from shared memory through ldmatrix: every lane gives
  // the address of one 16-byte row of an 8x8 f16 matrix (tiles are 16-byte
  // aligned and their rows are multiples of 8 elements, as fitsMma checks).
  // Lane l addresses row l % 16; for A, its second column block of 8 is
  // given by lanes 16..31.
  auto inWorkgroup = [](Value v) {
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
        cast<MemRefType>(v.getType()).getMemorySpace());
    return space && space.getValue() == gpu::AddressSpace::Workgroup;
  };
  bool ldmatrix = inWorkgroup(lhs) && inWorkgroup(rhs);
  Value laneRow = arith::RemUIOp::create(b, loc, lane, cIndex(b, loc, 16));
  Value laneColA = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, lane, cIndex(b, loc, 16)),
      cIndex(b, loc, 8));
  auto at = [&](Value row, Value col) {
    SmallVector<Value> idx;
    if (r == 3)
      idx.push_back(bi);
    idx.push_back(row);
    idx.push_back(col);
    return idx;
  };
  Type f32 = b.getF32Type(), f16 = b.getF16Type();
  auto accType = VectorType::get({2, 2}, f32);
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  auto kLoop = scf::ForOp::create(b, loc, cIndex(b, loc, 0),
                                  cIndex(b, loc, k), cIndex(b, loc, 16),
                                  ValueRange{zero});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value k0 = kLoop.getInductionVar();
    auto fragAType = VectorType::get({4, 2}, f16);
    auto fragBType = VectorType::get({2, 2}, f16);
    Value fragA, fragB;
    if (ldmatrix) {
      // x4: the four 8x8 blocks of the 16x16 A tile, rows then columns.
      fragA = nvgpu::LdMatrixOp::create(
          b, loc, fragAType, lhs,
          at(arith::AddIOp::create(b, loc, row0, laneRow),
             arith::AddIOp::create(b, loc, k0, laneColA)),
          /*transpose=*/false, /*numTiles=*/4);
      // x2, transposed: B is stored k-major, the fragment wants n-major.
      fragB = nvgpu::LdMatrixOp::create(
          b, loc, fragBType, rhs,
          at(arith::AddIOp::create(b, loc, k0, laneRow), col0),
          /*transpose=*/true, /*numTiles=*/2);
    } else {
      Value rowA = arith::AddIOp::create(b, loc, row0, g);
      Value colA = arith::AddIOp::create(b, loc, k0, t2);
      SmallVector<Value> a;
      // a0..a7: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1), then +8 columns.
      for (int64_t dc : {0, 8})
        for (int64_t dr : {0, 8})
          for (int64_t j : {0, 1})
            a.push_back(memref::LoadOp::create(
                b, loc, lhs, at(add(rowA, dr), add(colA, dc + j))));
      fragA = vector::FromElementsOp::create(b, loc, fragAType, a);
      // b0..b3: (k = 2t, 2t+1, 2t+8, 2t+9; n = g).
      Value colB = arith::AddIOp::create(b, loc, col0, g);
      Value rowB = arith::AddIOp::create(b, loc, k0, t2);
      SmallVector<Value> bv;
      for (int64_t dr : {0, 1, 8, 9})
        bv.push_back(
            memref::LoadOp::create(b, loc, rhs, at(add(rowB, dr), colB)));
      fragB = vector::FromElementsOp::create(b, loc, fragBType, bv);
    }
    Value d = nvgpu::MmaSyncOp::create(
        b, loc, fragA, fragB, kLoop.getRegionIterArgs()[0],
        b.getI64ArrayAttr({16, 8, 16}));
    scf::YieldOp::create(b, loc, d);
  }
  // c0..c3: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1).
  Value acc = kLoop.getResult(0);
  auto ifActive = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifActive.getThenRegion().front());
  Value rowC = arith::AddIOp::create(b, loc, row0, g);
  Value colC = arith::AddIOp::create(b, loc, col0, t2);
  for (int64_t i : {0, 1})
    for (int64_t j : {0, 1}) {
      Value v = vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j});
      storeF32(out, at(add(rowC, 8 * i), add(colC, j)), v);
    }
  ++numMma;
}

LogicalResult KernelEmitter::emitLoopBody(mb::ForLoopOp loop, Value iv) {
  emitDoubleBufferedStep(iv);
  for (Operation &op : loop.getBody().front()) {
    if (isa<mb::YieldOp>(op))
      continue;
    if (auto it = dyn_cast<mb::InputIterOp>(op)) {
      emitInputIter(it, iv);
      continue;
    }
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
      emitAccumUpdate(acc);
      continue;
    }
    if (failed(emitTileOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult KernelEmitter::emit(gpu::LaunchOp launch) {
  Block &entry = launch.getBody().front();
  b.setInsertionPointToStart(&entry);
  gpu::KernelDim3 t = launch.getThreadIds(), bd = launch.getBlockSize(),
                  bid = launch.getBlockIds();
  blockIds[0] = bid.x;
  blockIds[1] = bid.y;
  blockIds[2] = bid.z;
  // Linear thread id and thread count: every stage strides by them.
  Value xy = arith::MulIOp::create(b, loc, bd.x, bd.y);
  tid = arith::AddIOp::create(
      b, loc, t.x,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, t.y, bd.x),
                            arith::MulIOp::create(b, loc, t.z, xy)));
  nthreads = arith::MulIOp::create(b, loc, xy, bd.z);

  auto rawType = MemRefType::get(
      {ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::AddressSpace::Workgroup));
  Value raw = gpu::DynamicSharedMemoryOp::create(b, loc, rawType);
  rawShared = raw;
  auto view = [&](const Slot &s) {
    return memref::ViewOp::create(b, loc, s.type, raw,
                                  cIndex(b, loc, s.offset), ValueRange{})
        .getResult();
  };
  for (auto [v, isAux] : order) {
    if (isAux)
      auxTiles[v] = view(aux.lookup(v));
    else
      tiles[v] = view(slots.lookup(v));
  }

  mb::ForLoopOp loop = kernel.getForLoop();
  SmallVector<AccumulatorOpInterface> accs;
  for (Operation &op : loop.getBody().front())
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op))
      accs.push_back(acc);
  for (AccumulatorOpInterface acc : accs)
    emitAccumInit(acc);
  if (!doubleBuffered.empty()) {
    // Prologue: start loading iteration 0.
    Value zeroIv = cIndex(b, loc, 0);
    for (mb::InputIterOp it : doubleBuffered)
      emitAsyncCopy(it, zeroIv, tiles.lookup(it.getTile()));
    asyncToken = nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ValueRange{});
  }

  // Accumulators in registers are loop-carried values.
  SmallVector<Value> carried;
  for (auto &[op, vals] : regAccs)
    carried.append(vals.begin(), vals.end());
  auto forOp = scf::ForOp::create(b, loc, cIndex(b, loc, 0),
                                  cIndex(b, loc, kernel.getForloop()),
                                  cIndex(b, loc, 1), carried);
  auto rebind = [&](ValueRange values) {
    size_t next = 0;
    for (auto &[op, vals] : regAccs)
      for (Value &v : vals)
        v = values[next++];
  };
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = forOp.getBody();
    if (carried.empty())
      b.setInsertionPoint(body->getTerminator());
    else
      b.setInsertionPointToEnd(body);
    rebind(forOp.getRegionIterArgs());
    if (failed(emitLoopBody(loop, forOp.getInductionVar())))
      return failure();
    // The next iteration overwrites the input tiles other threads read.
    barrier();
    if (!carried.empty()) {
      SmallVector<Value> yielded;
      for (auto &[op, vals] : regAccs)
        yielded.append(vals.begin(), vals.end());
      scf::YieldOp::create(b, loc, yielded);
    }
  }
  rebind(forOp.getResults());
  for (AccumulatorOpInterface acc : accs)
    if (inRegisters(acc))
      spillRegisterAccum(acc);
  dirty.clear();
  readSinceBarrier.clear();
  // Loop results are the accumulator buffers.
  auto yield = cast<mb::YieldOp>(loop.getBody().front().getTerminator());
  for (auto [r, v] : llvm::zip_equal(loop.getResults(), yield.getValues()))
    tiles[r] = tiles.lookup(v);
  for (AccumulatorOpInterface acc : accs)
    emitAccumFinal(acc);

  for (Operation &op : kernel.getBody().front()) {
    if (isa<mb::ForLoopOp, mb::ReturnOp>(op))
      continue;
    if (auto saver = dyn_cast<mb::OutputSaverOp>(op)) {
      emitOutputSaver(saver);
      continue;
    }
    if (failed(emitTileOp(&op)))
      return failure();
  }
  gpu::TerminatorOp::create(b, loc);
  return success();
}

struct ConvertMirageToGPUPass
    : public mirage::impl::ConvertMirageToGPUBase<ConvertMirageToGPUPass> {
  using Base::Base;

  /// Lowers one function; returns failure after emitting a diagnostic.
  LogicalResult convert(func::FuncOp fn);

  void runOnOperation() override {
    SmallVector<func::FuncOp> fns;
    getOperation().walk([&](func::FuncOp fn) {
      bool hasMirage = false;
      fn.walk([&](Operation *op) {
        if (isa<mk::MKDialect>(op->getDialect()))
          hasMirage = true;
      });
      if (hasMirage)
        fns.push_back(fn);
    });
    llvm::StringSet<> converted;
    for (func::FuncOp fn : fns) {
      std::string name = fn.getName().str();
      if (failed(convert(fn)))
        return signalPassFailure();
      converted.insert(name);
    }
    rewriteCalls(converted);
  }

  /// Callers keep working on tensors: each call to a converted function gets
  /// buffers for its operands and freshly allocated result buffers, and its
  /// results become tensors again (folded away when the caller works on
  /// buffers already).
  void rewriteCalls(const llvm::StringSet<> &converted) {
    SmallVector<func::CallOp> calls;
    getOperation().walk([&](func::CallOp call) {
      if (converted.contains(call.getCallee()))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      OpBuilder b(call);
      Location loc = call.getLoc();
      SmallVector<Value> args;
      for (Value v : call.getOperands())
        args.push_back(bufferization::ToBufferOp::create(
            b, loc, toMemRef(v.getType()), v, /*readOnly=*/true));
      SmallVector<Value> outs;
      for (Type t : call.getResultTypes()) {
        outs.push_back(memref::AllocOp::create(b, loc, toMemRef(t)));
        args.push_back(outs.back());
      }
      func::CallOp::create(b, loc, call.getCallee(), TypeRange{}, args);
      for (auto [r, out] : llvm::zip_equal(call.getResults(), outs))
        r.replaceAllUsesWith(bufferization::ToTensorOp::create(
            b, loc, r.getType(), out, /*restrict=*/true, /*writable=*/true));
      call.erase();
    }
  }
};

LogicalResult ConvertMirageToGPUPass::convert(func::FuncOp fn) {
  if (fn.isExternal() || !fn.getBody().hasOneBlock())
    return fn.emitOpError("convert-mirage-to-gpu needs a single-block body");
  for (Type t : llvm::concat<const Type>(fn.getArgumentTypes(),
                                         fn.getResultTypes()))
    if (!isa<RankedTensorType>(t))
      return fn.emitOpError("convert-mirage-to-gpu expects tensor arguments "
                            "and results, got ")
             << t;
  Block &body = fn.getBody().front();
  for (Operation &op : body) {
    if (isa<mk::GraphKernelOp, mk::ReshapeOp, func::ReturnOp>(op))
      continue;
    return op.emitOpError(
        "is not supported by convert-mirage-to-gpu: only graph-defined "
        "kernels (mk.graph_kernel) are lowered; express this op inside one");
  }

  // Destination-passing signature: inputs, then one buffer per result.
  SmallVector<Type> argTypes;
  for (Type t : fn.getArgumentTypes())
    argTypes.push_back(toMemRef(t));
  for (Type t : fn.getResultTypes())
    argTypes.push_back(toMemRef(t));
  OpBuilder b(fn);
  Location loc = fn.getLoc();
  auto newFn = func::FuncOp::create(b, loc, fn.getName(),
                                    b.getFunctionType(argTypes, {}));
  newFn.setVisibility(fn.getVisibility());
  Block *entry = newFn.addEntryBlock();
  b.setInsertionPointToStart(entry);

  llvm::DenseMap<Value, Value> memrefOf;
  for (auto [oldArg, newArg] :
       llvm::zip(body.getArguments(), entry->getArguments()))
    memrefOf[oldArg] = newArg;
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  unsigned numIn = fn.getNumArguments();
  // A kernel result that is returned is written straight into the result
  // buffer.
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    if (v.getDefiningOp<mk::GraphKernelOp>() && !memrefOf.count(v))
      memrefOf[v] = entry->getArgument(numIn + i);

  SmallVector<Value> temporaries;
  int64_t barriers = 0;
  for (Operation &op : body) {
    if (auto reshape = dyn_cast<mk::ReshapeOp>(op)) {
      memrefOf[reshape.getResult()] =
          emitReshape(b, loc, memrefOf.lookup(reshape.getInput()),
                      cast<MemRefType>(toMemRef(reshape.getType())));
      continue;
    }
    auto kernel = dyn_cast<mk::GraphKernelOp>(op);
    if (!kernel)
      continue;
    for (Value r : kernel.getResults())
      if (!memrefOf.count(r)) {
        Value alloc =
            memref::AllocOp::create(b, loc, toMemRef(r.getType())).getResult();
        memrefOf[r] = alloc;
        temporaries.push_back(alloc);
      }
    // Inside the kernel, device tensors are the block arguments and the
    // output savers' results.
    llvm::DenseMap<Value, Value> global;
    for (auto [arg, in] : llvm::zip_equal(kernel.getBody().getArguments(),
                                          kernel.getInputs()))
      global[arg] = memrefOf.lookup(in);
    auto kret = cast<mb::ReturnOp>(kernel.getBody().front().getTerminator());
    for (auto [saved, r] :
         llvm::zip_equal(kret.getOutputs(), kernel.getResults()))
      global[saved] = memrefOf.lookup(r);

    int64_t mma = 0;
    // Double buffering and f32 accumulators take more shared memory than the
    // verifier's count of the tiles; without double buffering if that is
    // what it takes to fit the target.
    int64_t limit = kernel.getSharedMemoryLimit();
    std::optional<KernelEmitter> emitter;
    emitter.emplace(kernel, b, global, barriers, tensorCores, mma,
                    asyncCopies, registerAccumulators);
    int64_t smem = emitter->planSharedMemory();
    if (smem > limit && asyncCopies) {
      emitter.emplace(kernel, b, global, barriers, tensorCores, mma,
                      /*asyncCopies=*/false, registerAccumulators);
      smem = emitter->planSharedMemory();
    }
    if (smem > limit)
      return kernel.emitOpError("needs ")
             << smem << " bytes of shared memory once lowered (f32 "
             << "accumulators, aligned tiles), more than the target's "
             << limit;
    ArrayRef<int64_t> grid = kernel.getGrid(), block = kernel.getBlock();
    auto launch = gpu::LaunchOp::create(
        b, kernel.getLoc(), cIndex(b, loc, grid[0]), cIndex(b, loc, grid[1]),
        cIndex(b, loc, grid[2]), cIndex(b, loc, block[0]),
        cIndex(b, loc, block[1]), cIndex(b, loc, block[2]),
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), smem));
    {
      OpBuilder::InsertionGuard guard(b);
      if (failed(emitter->emit(launch)))
        return failure();
    }
    ++numKernels;
    numMmaTiles += mma;
  }
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Value dst = entry->getArgument(numIn + i);
    if (memrefOf.lookup(v) != dst)
      memref::CopyOp::create(b, loc, memrefOf.lookup(v), dst);
  }
  for (Value t : temporaries)
    memref::DeallocOp::create(b, loc, t);
  func::ReturnOp::create(b, loc);
  numBarriers += barriers;
  fn.erase();
  return success();
}

} // namespace
