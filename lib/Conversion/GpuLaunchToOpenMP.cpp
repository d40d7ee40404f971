//===- GpuLaunchToOpenMP.cpp - Run gpu.launch on the CPU --------*- C++ -*-===//
//
// MLIR 22 has no gpu -> CPU path. This pass turns each gpu.launch into a loop
// nest over the grid whose body is an omp.parallel team running the block's
// code: the same GPU-structured IR that becomes PTX runs under mlir-runner,
// so kernel numerics are tested on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mirage {
#define GEN_PASS_DEF_GPULAUNCHTOOPENMP
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;

namespace {

/// The type with the gpu address space removed (CPU memory is flat).
Type stripAddressSpace(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  if (!m || !isa_and_nonnull<gpu::AddressSpaceAttr>(m.getMemorySpace()))
    return t;
  return MemRefType::get(m.getShape(), m.getElementType(), m.getLayout());
}

/// nvgpu.mma.sync m16n8k16 with f16 operands and an f32 accumulator: the
/// one warp-level op emulated on the CPU.
bool isEmulatedMma(Operation *op) {
  auto mma = dyn_cast<nvgpu::MmaSyncOp>(op);
  if (!mma)
    return false;
  ArrayRef<Attribute> shape = mma.getMmaShape().getValue();
  auto dim = [&](int i) { return cast<IntegerAttr>(shape[i]).getInt(); };
  return dim(0) == 16 && dim(1) == 8 && dim(2) == 16 &&
         mma.getMatrixA().getType() == VectorType::get({4, 2}, Float16Type::get(op->getContext())) &&
         mma.getMatrixB().getType() == VectorType::get({2, 2}, Float16Type::get(op->getContext())) &&
         mma.getMatrixC().getType() == VectorType::get({2, 2}, Float32Type::get(op->getContext()));
}

/// nvgpu.ldmatrix of f16 8x8 matrices (x1, x2 or x4, plain or transposed):
/// the other warp-level op emulated on the CPU.
bool isEmulatedLdMatrix(Operation *op) {
  auto ld = dyn_cast<nvgpu::LdMatrixOp>(op);
  return ld && ld.getSrcMemref().getType().getElementType().isF16() &&
         ld.getRes().getType() ==
             VectorType::get({static_cast<int64_t>(ld.getNumTiles()), 2},
                             Float16Type::get(op->getContext()));
}

/// Replaces one warp-collective ldmatrix by its CPU emulation. On the GPU,
/// lane 8i + r gives the address of row r of matrix i; lane l receives
/// elements (l / 4, 2 (l % 4) + j) of each matrix (of its transpose with
/// `transpose`). Here every thread publishes its indices in `scratch[tid]`,
/// the team synchronises, and each thread loads its elements through the
/// indices of the lanes of its warp that own the rows; a second barrier
/// keeps the next ldmatrix from overwriting indices still being read.
void emulateLdMatrix(nvgpu::LdMatrixOp ld, Value tid, Value scratch) {
  OpBuilder b(ld);
  Location loc = ld.getLoc();
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value lane = arith::RemUIOp::create(b, loc, tid, c(32));
  Value warpBase = arith::SubIOp::create(b, loc, tid, lane);
  for (auto [d, idx] : llvm::enumerate(ld.getIndices()))
    memref::StoreOp::create(b, loc, idx, scratch,
                            ValueRange{tid, c(static_cast<int64_t>(d))});
  omp::BarrierOp::create(b, loc);
  Value quad = arith::DivUIOp::create(b, loc, lane, c(4));
  Value pair = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, c(4)), c(2));
  size_t rank = ld.getIndices().size();
  SmallVector<Value> elems;
  for (int64_t i = 0; i < static_cast<int64_t>(ld.getNumTiles()); ++i)
    for (int64_t j = 0; j < 2; ++j) {
      // The row owner and the column within the row.
      Value rowInMatrix = ld.getTranspose()
                              ? arith::AddIOp::create(b, loc, pair, c(j))
                              : quad;
      Value col = ld.getTranspose() ? quad
                                    : arith::AddIOp::create(b, loc, pair, c(j));
      Value owner = arith::AddIOp::create(
          b, loc, warpBase, arith::AddIOp::create(b, loc, c(8 * i), rowInMatrix));
      SmallVector<Value> idx;
      for (size_t d = 0; d < rank; ++d)
        idx.push_back(memref::LoadOp::create(
            b, loc, scratch, ValueRange{owner, c(static_cast<int64_t>(d))}));
      idx.back() = arith::AddIOp::create(b, loc, idx.back(), col);
      elems.push_back(memref::LoadOp::create(b, loc, ld.getSrcMemref(), idx));
    }
  omp::BarrierOp::create(b, loc);
  Value result = vector::FromElementsOp::create(b, loc, ld.getRes().getType(),
                                                elems);
  ld.replaceAllUsesWith(result);
  ld.erase();
}

/// Replaces one warp-collective m16n8k16 mma by its CPU emulation: every
/// thread publishes its A and B fragments in `scratch[tid]`, the team
/// synchronises, and each thread computes its own four D elements by reading
/// the fragments of the lanes of its warp that hold them (PTX fragment
/// layout: group g = lane / 4, t = lane % 4; A elements (g + 8i, 2t + j + 8h),
/// B elements (2t + j + 8h, g), C/D elements (g + 8i, 2t + j)). A second
/// barrier keeps the next mma from overwriting fragments still being read.
void emulateMma(nvgpu::MmaSyncOp mma, Value tid, Value scratch) {
  OpBuilder b(mma);
  Location loc = mma.getLoc();
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Type f32 = b.getF32Type();
  Value lane = arith::RemUIOp::create(b, loc, tid, c(32));
  Value warpBase = arith::SubIOp::create(b, loc, tid, lane);
  auto publish = [&](Value frag, int64_t rows, int64_t base) {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        Value v = vector::ExtractOp::create(b, loc, frag,
                                            ArrayRef<int64_t>{i, j});
        v = arith::ExtFOp::create(b, loc, f32, v);
        memref::StoreOp::create(b, loc, v, scratch,
                                ValueRange{tid, c(base + 2 * i + j)});
      }
  };
  publish(mma.getMatrixA(), 4, 0);
  publish(mma.getMatrixB(), 2, 8);
  omp::BarrierOp::create(b, loc);
  Value g = arith::DivUIOp::create(b, loc, lane, c(4));
  Value t2 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, c(4)), c(2));
  SmallVector<Value> d;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      Value row = arith::AddIOp::create(b, loc, g, c(8 * i));
      Value col = arith::AddIOp::create(b, loc, t2, c(j));
      Value init = vector::ExtractOp::create(b, loc, mma.getMatrixC(),
                                             ArrayRef<int64_t>{i, j});
      auto loop = scf::ForOp::create(b, loc, c(0), c(16), c(1),
                                     ValueRange{init});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k = loop.getInductionVar();
      Value kLow = arith::RemUIOp::create(b, loc, k, c(8));
      Value kHigh = arith::DivUIOp::create(b, loc, k, c(8));
      Value kOdd = arith::RemUIOp::create(b, loc, k, c(2));
      Value kPair = arith::DivUIOp::create(b, loc, kLow, c(2));
      // A(row, k): lane (row % 8) * 4 + (k % 8) / 2, register
      // 4 * (k / 8) + 2 * (row / 8) + k % 2.
      Value aLane = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, arith::RemUIOp::create(b, loc, row, c(8)), c(4)),
          kPair);
      Value aReg = arith::AddIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, kHigh, c(4)),
              arith::MulIOp::create(
                  b, loc, arith::DivUIOp::create(b, loc, row, c(8)), c(2))),
          kOdd);
      // B(k, col): lane col * 4 + (k % 8) / 2, register 8 + 2 * (k / 8) + k % 2.
      Value bLane = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, col, c(4)), kPair);
      Value bReg = arith::AddIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, c(8),
                                arith::MulIOp::create(b, loc, kHigh, c(2))),
          kOdd);
      Value a = memref::LoadOp::create(
          b, loc, scratch,
          ValueRange{arith::AddIOp::create(b, loc, warpBase, aLane), aReg});
      Value w = memref::LoadOp::create(
          b, loc, scratch,
          ValueRange{arith::AddIOp::create(b, loc, warpBase, bLane), bReg});
      Value sum = arith::AddFOp::create(
          b, loc, loop.getRegionIterArgs()[0],
          arith::MulFOp::create(b, loc, a, w));
      scf::YieldOp::create(b, loc, sum);
      d.push_back(loop.getResult(0));
    }
  omp::BarrierOp::create(b, loc);
  Value result = vector::FromElementsOp::create(
      b, loc, VectorType::get({2, 2}, f32), d);
  mma.replaceAllUsesWith(result);
  mma.erase();
}

/// gpu.shuffle xor of an f32 value, as the warp reductions use it: the one
/// shuffle emulated on the CPU.
bool isEmulatedShuffle(Operation *op) {
  auto shuffle = dyn_cast<gpu::ShuffleOp>(op);
  return shuffle && shuffle.getMode() == gpu::ShuffleMode::XOR &&
         shuffle.getValue().getType().isF32();
}

/// Replaces one warp-collective gpu.shuffle xor by its CPU emulation, with
/// the semantics of its NVVM lowering (shfl.sync.bfly with the clamp
/// width - 1): lane l receives the value of lane l ^ offset of its warp of
/// 32 consecutive threads if that lane is below `width`, else its own value
/// and valid = false. Every thread publishes its value in `scratch[tid]`,
/// the team synchronises, each thread reads its partner's slot, and a
/// second barrier keeps the next shuffle from overwriting a slot still
/// being read. A partner past the team (undefined on the GPU) reads the
/// thread's own value.
void emulateShuffle(gpu::ShuffleOp shuffle, Value tid, Value teamThreads,
                    Value scratch) {
  OpBuilder b(shuffle);
  Location loc = shuffle.getLoc();
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  auto toIndex = [&](Value v) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v)
        .getResult();
  };
  Value lane = arith::RemUIOp::create(b, loc, tid, c(32));
  Value warpBase = arith::SubIOp::create(b, loc, tid, lane);
  memref::StoreOp::create(b, loc, shuffle.getValue(), scratch, ValueRange{tid});
  omp::BarrierOp::create(b, loc);
  Value partner =
      arith::XOrIOp::create(b, loc, lane, toIndex(shuffle.getOffset()));
  Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      partner, toIndex(shuffle.getWidth()));
  Value src = arith::AddIOp::create(b, loc, warpBase, partner);
  Value readable = arith::AndIOp::create(
      b, loc, valid,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, src,
                            teamThreads));
  Value at = arith::SelectOp::create(b, loc, readable, src, tid);
  Value got = memref::LoadOp::create(b, loc, scratch, ValueRange{at});
  omp::BarrierOp::create(b, loc);
  Value result =
      arith::SelectOp::create(b, loc, valid, got, shuffle.getValue());
  shuffle.getShuffleResult().replaceAllUsesWith(result);
  shuffle.getValid().replaceAllUsesWith(valid);
  shuffle.erase();
}

/// cp.async on the CPU: the copy happens at once, so groups and waits have
/// nothing left to do.
void emulateAsyncCopies(Operation *root) {
  SmallVector<Operation *> waits, groups;
  SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
  root->walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncWaitOp>(op))
      waits.push_back(op);
    else if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op))
      groups.push_back(op);
    else if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
      copies.push_back(copy);
  });
  for (Operation *op : waits)
    op->erase();
  for (Operation *op : groups)
    op->erase();
  for (nvgpu::DeviceAsyncCopyOp copy : copies) {
    OpBuilder b(copy);
    Location loc = copy.getLoc();
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value n = arith::ConstantIndexOp::create(
        b, loc, copy.getDstElements().getZExtValue());
    // Elements past srcElements are zero-filled, as on the GPU.
    Value valid = copy.getSrcElements() ? copy.getSrcElements() : n;
    auto loop = scf::ForOp::create(b, loc, c0, n, c1);
    b.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();
    SmallVector<Value> src(copy.getSrcIndices()), dst(copy.getDstIndices());
    dst.back() = arith::AddIOp::create(b, loc, dst.back(), e);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, e, valid);
    Type et = cast<MemRefType>(copy.getDst().getType()).getElementType();
    auto value = scf::IfOp::create(b, loc, TypeRange{et}, inRange,
                                   /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&value.getThenRegion().front());
      src.back() = arith::AddIOp::create(b, loc, src.back(), e);
      scf::YieldOp::create(
          b, loc,
          ValueRange{memref::LoadOp::create(b, loc, copy.getSrc(), src)});
      b.setInsertionPointToStart(&value.getElseRegion().front());
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::ConstantOp::create(
                               b, loc, b.getZeroAttr(et))});
    }
    memref::StoreOp::create(b, loc, value.getResult(0), copy.getDst(), dst);
    copy.erase();
  }
}

struct GpuLaunchToOpenMPPass
    : public mirage::impl::GpuLaunchToOpenMPBase<GpuLaunchToOpenMPPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    if (launches.empty())
      return;
    OpBuilder mb(module.getBodyRegion());
    auto tidFn = module.lookupSymbol<func::FuncOp>("omp_get_thread_num");
    if (!tidFn) {
      mb.setInsertionPointToStart(module.getBody());
      tidFn = func::FuncOp::create(mb, module.getLoc(), "omp_get_thread_num",
                                   mb.getFunctionType({}, {mb.getI32Type()}));
      tidFn.setPrivate();
    }
    numThreadsFn = module.lookupSymbol<func::FuncOp>("omp_get_num_threads");
    if (!numThreadsFn) {
      mb.setInsertionPointToStart(module.getBody());
      numThreadsFn = func::FuncOp::create(
          mb, module.getLoc(), "omp_get_num_threads",
          mb.getFunctionType({}, {mb.getI32Type()}));
      numThreadsFn.setPrivate();
    }
    for (gpu::LaunchOp launch : launches)
      if (failed(convert(launch, tidFn)))
        return signalPassFailure();
  }

  LogicalResult convert(gpu::LaunchOp launch, func::FuncOp tidFn);

  func::FuncOp numThreadsFn;
};

LogicalResult GpuLaunchToOpenMPPass::convert(gpu::LaunchOp launch,
                                             func::FuncOp tidFn) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.hasClusterSize() || !launch.getBody().hasOneBlock())
    return launch.emitOpError(
        "is not supported by mirage-gpu-launch-to-omp: async tokens, "
        "clusters and multi-block bodies have no CPU emulation");
  WalkResult unsupported = launch.getBody().walk([](Operation *op) {
    if ((isa<gpu::ShuffleOp>(op) && !isEmulatedShuffle(op)) ||
        isa<gpu::SubgroupReduceOp, gpu::AllReduceOp>(op) ||
        (op->getDialect() && op->getDialect()->getNamespace() == "nvgpu" &&
         !isEmulatedMma(op) && !isEmulatedLdMatrix(op) &&
         !isa<nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
              nvgpu::DeviceAsyncWaitOp>(op))) {
      op->emitOpError("has no CPU emulation in mirage-gpu-launch-to-omp");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();

  Location loc = launch.getLoc();
  OpBuilder b(launch);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  // Workgroup memory: one stack buffer shared by the team, allocated once
  // before the grid loops (blocks run one after another; shared memory
  // starts undefined on the GPU too). Allocated inside the loops, the stack
  // would grow by the shared-memory size for every block.
  SmallVector<Value> workgroup;
  for (BlockArgument a : launch.getWorkgroupAttributions())
    workgroup.push_back(memref::AllocaOp::create(
        b, loc, cast<MemRefType>(stripAddressSpace(a.getType()))));
  Value dynamicShared;
  if (Value size = launch.getDynamicSharedMemorySize()) {
    auto constant = size.getDefiningOp<arith::ConstantIntOp>();
    if (!constant)
      return launch.emitOpError("mirage-gpu-launch-to-omp needs a constant "
                                "dynamic shared memory size");
    auto type = MemRefType::get({std::max<int64_t>(constant.value(), 1)},
                                b.getI8Type());
    // 16-byte alignment, as the GPU guarantees for dynamic shared memory.
    auto alloca = memref::AllocaOp::create(b, loc, type, ValueRange{},
                                           ValueRange{}, b.getI64IntegerAttr(16));
    dynamicShared = memref::CastOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type()),
        alloca);
  }

  SmallVector<nvgpu::MmaSyncOp> mmas;
  launch.getBody().walk([&](nvgpu::MmaSyncOp mma) { mmas.push_back(mma); });
  if (!mmas.empty() && threads > 0)
    return mmas.front().emitOpError(
        "is emulated only with one OpenMP thread per GPU thread (threads=0)");
  SmallVector<nvgpu::LdMatrixOp> ldmatrices;
  launch.getBody().walk(
      [&](nvgpu::LdMatrixOp ld) { ldmatrices.push_back(ld); });
  if (!ldmatrices.empty() && threads > 0)
    return ldmatrices.front().emitOpError(
        "is emulated only with one OpenMP thread per GPU thread (threads=0)");
  Value teamSize;
  Value blockThreads = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block.x, block.y), block.z);
  if (threads > 0)
    teamSize = arith::ConstantIndexOp::create(b, loc, threads);
  else
    teamSize = blockThreads;
  SmallVector<gpu::ShuffleOp> shuffles;
  launch.getBody().walk([&](gpu::ShuffleOp op) { shuffles.push_back(op); });
  Value mmaScratch, ldScratch, shuffleScratch;
  // One value per thread of the team for the shuffles.
  if (!shuffles.empty())
    shuffleScratch = memref::AllocaOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getF32Type()),
        ValueRange{teamSize});
  if (!mmas.empty())
    mmaScratch = memref::AllocaOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic, 12}, b.getF32Type()),
        ValueRange{blockThreads});
  // The row indices each thread gives its ldmatrix (memrefs of rank <= 4).
  if (!ldmatrices.empty())
    ldScratch = memref::AllocaOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic, 4}, b.getIndexType()),
        ValueRange{blockThreads});
  auto fz = scf::ForOp::create(b, loc, c0, grid.z, c1);
  b.setInsertionPoint(fz.getBody()->getTerminator());
  auto fy = scf::ForOp::create(b, loc, c0, grid.y, c1);
  b.setInsertionPoint(fy.getBody()->getTerminator());
  auto fx = scf::ForOp::create(b, loc, c0, grid.x, c1);
  b.setInsertionPoint(fx.getBody()->getTerminator());

  omp::ParallelOperands clauses;
  clauses.numThreads =
      arith::IndexCastOp::create(b, loc, b.getI32Type(), teamSize);
  auto par = omp::ParallelOp::create(b, loc, clauses);
  Block *team = b.createBlock(&par.getRegion());
  b.setInsertionPointToStart(team);
  Value t = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      func::CallOp::create(b, loc, tidFn, ValueRange{}).getResult(0));
  // OpenMP may give a team fewer threads than requested.
  Value actual = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      func::CallOp::create(b, loc, numThreadsFn, ValueRange{}).getResult(0));
  Value tid[3], bdim[3];
  if (threads > 0) {
    // A team of N threads stands for a block of N threads along x: only
    // valid for thread-count-agnostic kernels (see the pass description).
    tid[0] = t;
    tid[1] = tid[2] = c0;
    bdim[0] = actual;
    bdim[1] = bdim[2] = c1;
  } else {
    // Each GPU thread must have its OpenMP thread, or work would be lost.
    cf::AssertOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, actual,
                              blockThreads),
        "mirage-gpu-launch-to-omp: OpenMP gave the team fewer threads than "
        "the GPU block has");
    tid[0] = arith::RemUIOp::create(b, loc, t, block.x);
    Value rest = arith::DivUIOp::create(b, loc, t, block.x);
    tid[1] = arith::RemUIOp::create(b, loc, rest, block.y);
    tid[2] = arith::DivUIOp::create(b, loc, rest, block.y);
    bdim[0] = block.x;
    bdim[1] = block.y;
    bdim[2] = block.z;
  }
  SmallVector<Value> privates;
  for (BlockArgument a : launch.getPrivateAttributions())
    privates.push_back(memref::AllocaOp::create(
        b, loc, cast<MemRefType>(stripAddressSpace(a.getType()))));

  Block &body = launch.getBody().front();
  body.walk([](Operation *op) {
    for (Value r : op->getResults())
      r.setType(stripAddressSpace(r.getType()));
    for (Region &region : op->getRegions())
      for (Block &blk : region)
        for (BlockArgument arg : blk.getArguments())
          arg.setType(stripAddressSpace(arg.getType()));
  });
  Value bid[3] = {fx.getInductionVar(), fy.getInductionVar(),
                  fz.getInductionVar()};
  Value gdim[3] = {grid.x, grid.y, grid.z};
  auto replace = [](gpu::KernelDim3 dims, Value *with) {
    Value(dims.x).replaceAllUsesWith(with[0]);
    Value(dims.y).replaceAllUsesWith(with[1]);
    Value(dims.z).replaceAllUsesWith(with[2]);
  };
  replace(launch.getBlockIds(), bid);
  replace(launch.getThreadIds(), tid);
  replace(launch.getGridSize(), gdim);
  replace(launch.getBlockSize(), bdim);
  for (auto [a, v] : llvm::zip(launch.getWorkgroupAttributions(), workgroup))
    Value(a).replaceAllUsesWith(v);
  for (auto [a, v] : llvm::zip(launch.getPrivateAttributions(), privates))
    Value(a).replaceAllUsesWith(v);
  team->getOperations().splice(team->end(), body.getOperations());

  SmallVector<Operation *> dead;
  LogicalResult status = success();
  par.walk([&](Operation *op) {
    OpBuilder ob(op);
    auto dim = [](gpu::Dimension d) { return static_cast<int>(d); };
    if (isa<gpu::TerminatorOp>(op)) {
      omp::TerminatorOp::create(ob, op->getLoc());
      dead.push_back(op);
    } else if (isa<gpu::BarrierOp>(op)) {
      omp::BarrierOp::create(ob, op->getLoc());
      dead.push_back(op);
    } else if (auto o = dyn_cast<gpu::ThreadIdOp>(op)) {
      o.replaceAllUsesWith(tid[dim(o.getDimension())]);
      dead.push_back(op);
    } else if (auto o = dyn_cast<gpu::BlockIdOp>(op)) {
      o.replaceAllUsesWith(bid[dim(o.getDimension())]);
      dead.push_back(op);
    } else if (auto o = dyn_cast<gpu::BlockDimOp>(op)) {
      o.replaceAllUsesWith(bdim[dim(o.getDimension())]);
      dead.push_back(op);
    } else if (auto o = dyn_cast<gpu::GridDimOp>(op)) {
      o.replaceAllUsesWith(gdim[dim(o.getDimension())]);
      dead.push_back(op);
    } else if (auto o = dyn_cast<gpu::DynamicSharedMemoryOp>(op)) {
      if (!dynamicShared) {
        status = o.emitOpError("used without a dynamic shared memory size");
        return;
      }
      o.replaceAllUsesWith(dynamicShared);
      dead.push_back(op);
    }
  });
  for (Operation *op : dead)
    op->erase();
  for (nvgpu::LdMatrixOp ld : ldmatrices)
    emulateLdMatrix(ld, t, ldScratch);
  for (nvgpu::MmaSyncOp mma : mmas)
    emulateMma(mma, t, mmaScratch);
  for (gpu::ShuffleOp shuffle : shuffles)
    emulateShuffle(shuffle, t, actual, shuffleScratch);
  emulateAsyncCopies(par);
  launch.erase();
  return status;
}

} // namespace
