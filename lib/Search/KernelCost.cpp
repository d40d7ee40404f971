//===- KernelCost.cpp - What one kernel costs -------------------*- C++ -*-===//
//
// From a kernel's description to its work (bytes by level, arithmetic by
// unit), and from mk ops to descriptions; docs/cost-model.md gives the
// formulas.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/KernelCost.h"
#include "Mirage/Search/CodePlan.h"
#include "Mirage/Transforms/AbsorbViews.h"
#include "Mirage/Transforms/WrapKernels.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Block/IR/View.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "Mirage/Interfaces/MirageInterfaces.h"
#include "Mirage/Search/Superoptimizer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

double numel(ArrayRef<int64_t> shape) {
  double n = 1;
  for (int64_t d : shape)
    n *= static_cast<double>(d);
  return n;
}

double roundUp(double x, double m) { return std::ceil(x / m) * m; }

/// Tensor-core FLOPs of a (batched) matmul with result `result` and
/// contracted size `k`; padded to the m16n8k16 mma tile unless `unpadded`.
/// A matmul whose m is not a multiple of 16 but whose n is runs with its
/// operand roles swapped (the lowering's decode path, KernelEmitterMma.cpp):
/// n fills the 16 rows and m is padded to the 8 columns.
double matmulFlops(ArrayRef<int64_t> result, int64_t k, bool unpadded) {
  double m =
      result.size() >= 2 ? static_cast<double>(result[result.size() - 2]) : 1.0;
  double n = result.empty() ? 1.0 : static_cast<double>(result.back());
  double batch = numel(result) / (m * n);
  double kk = static_cast<double>(k);
  if (!unpadded) {
    bool swapped = std::fmod(m, 16.0) != 0 && std::fmod(n, 16.0) == 0;
    m = roundUp(m, swapped ? 8 : 16);
    n = roundUp(n, swapped ? 16 : 8);
    kk = roundUp(kk, 16);
  }
  return 2.0 * batch * m * n * kk;
}

/// The shared-memory wavefronts of the tensor-core operand loads of one
/// matmul of f16 tiles `lhs` by `rhs` (the operands tensor cores take),
/// laid out as the lowering lays out tensor-core operands (CodePlan.h).
/// None for shapes that do not fit m16n8k16. Memoised: the search prices
/// the same tile shapes many times.
BankCost mmaBankCost(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  constexpr int64_t kF16 = 2;
  static thread_local std::map<std::vector<int64_t>, BankCost> memo;
  std::vector<int64_t> key(lhs.begin(), lhs.end());
  key.push_back(-1);
  key.insert(key.end(), rhs.begin(), rhs.end());
  auto it = memo.find(key);
  if (it != memo.end())
    return it->second;
  BankCost cost = mmaSharedCost(
      lhs, rhs, planSharedLayout(lhs, kF16, /*readAcrossRows=*/true),
      planSharedLayout(rhs, kF16, /*readAcrossRows=*/true));
  memo.emplace(std::move(key), cost);
  return cost;
}

/// The thread-instructions of the butterflies of one row reduction of
/// `rows` rows of `count` elements by a block of `threads` threads, as the
/// lowering plans it (CodePlan.h, planRowReduction): every thread runs
/// every round, three instructions per shuffle step (the shuffle, the
/// select of the identity for a missing lane, the combination), plus one
/// per row and warp for the shared-memory step of whole-block plans. 0 for
/// a library kernel (`threads` 0).
double butterflyOps(double rows, double count, int64_t threads) {
  if (threads <= 0 || rows < 1)
    return 0;
  RowReducePlan plan = planRowReduction(
      static_cast<int64_t>(rows),
      static_cast<int64_t>(std::max(1.0, std::round(count))), threads);
  double t = static_cast<double>(threads);
  double steps = static_cast<double>(plan.shuffleSteps);
  double warps = std::ceil(t / static_cast<double>(kWarpSize));
  if (plan.wholeBlock)
    return rows * t * steps * 3.0 + rows * warps;
  double segments = std::ceil(t / static_cast<double>(plan.groupSize));
  return std::ceil(rows / segments) * t * steps * 3.0;
}

/// The parts of rows one thread of a row-sum accumulator keeps
/// (CodePlan.h, rowPartsPerThread).
int64_t rowSumPartsPerThread(double rows, double count, int64_t threads) {
  auto r = static_cast<int64_t>(rows);
  auto c = static_cast<int64_t>(std::max(1.0, std::round(count)));
  return rowPartsPerThread(planRowReduction(r, c, threads), r, threads);
}

/// Adds the arithmetic of `op`, run `times` times, to `w`; `perBlock` is
/// how often the once-per-block finalisation of an accumulator runs.
void addOpWork(KernelWork &w, const CostOp &op, double times, double perBlock,
               bool unpadded) {
  double n = numel(op.result);
  for (const auto &a : op.args)
    n = std::max(n, numel(a));
  int64_t threads = w.fullyParallel ? 0 : w.threads;
  // The elements of a reduction's rows per result element.
  auto perRow = [&] {
    return op.args.empty() ? 1.0 : numel(op.args[0]) / numel(op.result);
  };
  switch (op.cls) {
  case CostOp::Class::Matmul:
    w.tensorFlops +=
        times * matmulFlops(op.result, op.args[0].back(), unpadded);
    if (threads > 0 && op.args.size() == 2) {
      BankCost banks = mmaBankCost(op.args[0], op.args[1]);
      w.smemWavefronts += times * static_cast<double>(banks.wavefronts);
      w.bankConflictWavefronts += times * static_cast<double>(banks.extra());
    }
    return;
  case CostOp::Class::Elementwise: {
    UnitCost c = elementwiseUnitCost(op.elementwise);
    w.cudaOps += times * n * c.cuda;
    w.sfuOps += times * n * c.sfu;
    return;
  }
  case CostOp::Class::Reduce:
    w.cudaOps +=
        times * (n + butterflyOps(numel(op.result), perRow(), threads));
    return;
  case CostOp::Class::Mask:
    w.cudaOps += times * n * 5.0;
    return;
  case CostOp::Class::RmsNorm: {
    // Per element: the square-and-add (one FMA), the scale, the weight;
    // per row one rsqrt.
    double rows = n / static_cast<double>(op.args[0].back());
    w.cudaOps +=
        times * n * (op.args.size() > 1 ? 3.0 : 2.0) +
        times *
            butterflyOps(rows, static_cast<double>(op.args[0].back()), threads);
    w.sfuOps += times * rows;
    return;
  }
  case CostOp::Class::Accumulate: {
    double resultElems = numel(op.result);
    if (op.accumulator == AccumulatorKind::RmsLast ||
        op.accumulator == AccumulatorKind::MeanLast ||
        op.accumulator == AccumulatorKind::SumLast ||
        op.accumulator == AccumulatorKind::SumTo) {
      // A thread keeps its parts of its rows in registers when they are
      // few (as the GPU pipelines lower it), so the rows are reduced once
      // per block; otherwise in every iteration.
      bool inRegisters =
          threads > 0 && rowSumPartsPerThread(resultElems, perRow(), threads) <=
                             kMaxRegisterAccumElems;
      w.cudaOps += (inRegisters ? perBlock : times) *
                   butterflyOps(resultElems, perRow(), threads);
    }
    switch (op.accumulator) {
    case AccumulatorKind::RmsLast:
      // One FMA per element and iteration; the sqrt once per block.
      w.cudaOps += times * n + perBlock * resultElems;
      w.sfuOps += perBlock * resultElems;
      return;
    case AccumulatorKind::MeanLast:
      w.cudaOps += times * n + perBlock * resultElems;
      return;
    case AccumulatorKind::RescaledSum:
      // x * exp(m - max): a subtraction, an ex2 with its scaling, a
      // multiply-add, and the running maximum.
      w.cudaOps += times * n * 4.0;
      w.sfuOps += times * n;
      return;
    default:
      w.cudaOps += times * n;
      return;
    }
  }
  case CostOp::Class::Move:
    return;
  }
}

FailureOr<CostOp> describeOp(Operation *op, bool inLoop, std::string &error) {
  CostOp c;
  c.inLoop = inLoop;
  auto shapeOf = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t ? SmallVector<int64_t, 4>(t.getShape())
             : SmallVector<int64_t, 4>();
  };
  if (op->getNumResults() != 1) {
    error = "the cost model cannot read '" +
            op->getName().getStringRef().str() + "' (not one result)";
    return failure();
  }
  c.result = shapeOf(op->getResult(0));
  for (Value v : op->getOperands())
    c.args.push_back(shapeOf(v));
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
    c.cls = CostOp::Class::Elementwise;
    c.elementwise = ew.getElementwiseKind();
    return c;
  }
  if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
    c.cls = CostOp::Class::Accumulate;
    c.accumulator = acc.getAccumulatorKind();
    return c;
  }
  std::optional<CostOp::Class> cls =
      TypeSwitch<Operation *, std::optional<CostOp::Class>>(op)
          .Case<mk::MatmulOp, mb::MatmulOp>(
              [](Operation *) { return CostOp::Class::Matmul; })
          .Case<mk::ReduceSumOp, mk::ReduceMaxOp, mb::ReduceSumOp,
                mb::ReduceMaxOp>(
              [](Operation *) { return CostOp::Class::Reduce; })
          .Case<mk::RmsNormOp, mb::RmsNormOp>(
              [](Operation *) { return CostOp::Class::RmsNorm; })
          .Case<mk::BandMaskOp, mb::BandMaskOp, mb::TailMaskOp>(
              [](Operation *) { return CostOp::Class::Mask; })
          .Case<mk::ConcatOp, mb::ConcatOp, mk::TransposeOp, mb::TransposeOp>(
              [](Operation *) { return CostOp::Class::Move; })
          .Default([](Operation *) { return std::nullopt; });
  if (!cls) {
    error = "the cost model cannot read '" +
            op->getName().getStringRef().str() + "'";
    return failure();
  }
  c.cls = *cls;
  return c;
}

double bytesOf(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt)
    return 0;
  return static_cast<double>(rt.getNumElements()) *
         elementBytesOf(rt.getElementType());
}

} // namespace

double mirage::search::elementBytesOf(Type type) {
  if (auto rt = dyn_cast<ShapedType>(type))
    type = rt.getElementType();
  if (type.isIntOrFloat())
    return std::max(1u, type.getIntOrFloatBitWidth() / 8);
  return 2;
}

UnitCost mirage::search::elementwiseUnitCost(ElementwiseKind kind) {
  switch (kind) {
  case ElementwiseKind::Exp:
    return {1, 1}; // scale by log2(e), ex2
  case ElementwiseKind::Sqrt:
    return {1, 1}; // rsqrt, multiply
  case ElementwiseKind::Rsqrt:
    return {0, 1};
  case ElementwiseKind::Silu:
    return {3, 2}; // x * rcp(1 + ex2(-x log2 e))
  case ElementwiseKind::Sigmoid:
    return {2, 2}; // rcp(1 + ex2(-x log2 e))
  case ElementwiseKind::Gelu:
    return {7, 1}; // tanh form: a cubic, tanh.approx, the scaling
  case ElementwiseKind::Div:
    return {1, 1}; // rcp, multiply
  case ElementwiseKind::Reciprocal:
    return {0, 1}; // rcp
  case ElementwiseKind::Tanh:
    return {0, 1}; // tanh.approx
  case ElementwiseKind::GeluErf:
    return {8, 2}; // erf: a rational polynomial and ex2, rcp; the scaling
  case ElementwiseKind::Pow:
    return {1, 2}; // ex2(y lg2 x)
  case ElementwiseKind::Clamp:
    return {2, 0};
  case ElementwiseKind::Where:
    return {2, 0}; // a compare, a select
  case ElementwiseKind::Convert:
    return {0, 0}; // the load widens, the store rounds
  case ElementwiseKind::Square:
  case ElementwiseKind::Relu:
  case ElementwiseKind::Max:
  case ElementwiseKind::Neg:
  case ElementwiseKind::MulScalar:
  case ElementwiseKind::AddScalar:
  case ElementwiseKind::Add:
  case ElementwiseKind::Sub:
  case ElementwiseKind::Mul:
    return {1, 0};
  }
  return {1, 0};
}

CostInput mirage::search::describeInput(ArrayRef<int64_t> tile,
                                        ArrayRef<int64_t> tensor,
                                        double elementBytes, bool walked,
                                        bool readAcrossRows,
                                        const mb::StridedView *view) {
  auto product = [](ArrayRef<int64_t> shape) {
    double n = 1;
    for (int64_t d : shape)
      n *= static_cast<double>(d);
    return n;
  };
  CostInput in;
  in.tensorBytes = product(tensor) * elementBytes;
  in.tileBytes = product(tile) * elementBytes;
  in.walked = walked;
  int64_t width = static_cast<int64_t>(elementBytes);
  TileCopy copy =
      view ? planViewCopy(tile, view->getShape(), width,
                          [&](int64_t n) { return view->contiguousRun(n); })
           : planTileCopy(tile, tensor, width);
  in.chunkBytes = static_cast<double>(copy.chunk * width);
  SharedLayout layout = planSharedLayout(tile, width, readAcrossRows);
  in.slotBytes = static_cast<double>(
      sharedTileBytes(layout, static_cast<int64_t>(product(tile)), width));
  BankCost banks = copySharedCost(copy, layout, width);
  in.copyWavefronts = static_cast<double>(banks.wavefronts);
  in.copyConflictWavefronts = static_cast<double>(banks.extra());
  return in;
}

/// Whether the lowering copies `in`'s tile with cp.async (chunks of 4 bytes
/// or more), not with synchronous loads; an epilogue input's tile is copied
/// synchronously after the loop.
static bool copiedAsync(const CostInput &in) {
  return !in.afterLoop && in.chunkBytes >= kMinAsyncCopyBytes;
}

/// Sets w.bytesInFlight, w.pipelineStages and the pipeline's shared memory
/// from the copies the lowering emits for `desc` (CodePlan.h,
/// KernelEmitterCopies.cpp): tiles whose chunks are 4 bytes or more go
/// through cp.async, walked ones in a pipeline `stages - 1` iterations
/// ahead, the others all at once before the loop; the rest are synchronous
/// copies with one chunk per thread in flight. In the steady state of a loop
/// only the walked tiles are in flight; a kernel without one is one burst.
static void addLoadsInFlight(const DeviceModel &device, const KernelDesc &desc,
                             KernelWork &w) {
  // Inputs described without their copy (tests' hand-made descriptions):
  // nothing known, the full bandwidth.
  if (llvm::any_of(desc.inputs,
                   [](const CostInput &in) { return in.chunkBytes <= 0; }))
    return;
  auto walks = [&](const CostInput &in) {
    return tileWalksLoop(in.walked, desc.forloop);
  };
  double pipelined = 0;
  for (const CostInput &in : desc.inputs)
    if (walks(in) && copiedAsync(in))
      pipelined += in.slotBytes > 0 ? in.slotBytes
                                    : static_cast<double>(sharedSlotBytes(
                                          static_cast<int64_t>(in.tileBytes)));
  int64_t stages = choosePipelineStages(
      desc.forloop, static_cast<int64_t>(desc.smemLimit),
      [&](int64_t s) {
        return static_cast<int64_t>(desc.smemBytes +
                                    static_cast<double>(s - 1) * pipelined);
      });
  w.pipelineStages = pipelined > 0 ? std::max<int64_t>(stages, 1) : 1;
  w.smemBytes += static_cast<double>(w.pipelineStages - 1) * pipelined;
  bool anyWalked = llvm::any_of(desc.inputs, walks);
  double threads = static_cast<double>(std::max<int64_t>(desc.threads, 1));
  for (const CostInput &in : desc.inputs) {
    bool walked = walks(in);
    if (anyWalked && !walked)
      continue;
    double inFlight = std::min(in.tileBytes, threads * in.chunkBytes);
    if (stages > 0 && copiedAsync(in)) {
      if (!walked)
        inFlight = in.tileBytes;
      else if (stages > 1)
        // The loop issues trip i + stages - 1 before it waits for trip i
        // (KernelEmitter::emitPipelineStep): a memory-bound loop, waiting
        // most of each trip, has `stages` tiles outstanding.
        inFlight = static_cast<double>(stages) * in.tileBytes;
    }
    w.bytesInFlight += inFlight;
  }
}

KernelWork mirage::search::analyzeKernel(const DeviceModel &device,
                                         const KernelDesc &desc,
                                         bool unpadded) {
  KernelWork w;
  w.fullyParallel = desc.predefined;
  w.blocks = desc.predefined ? 1 : desc.blocks;
  w.threads = desc.threads;
  w.smemBytes = desc.smemBytes;
  w.loopIterations = desc.predefined ? 1 : desc.forloop;
  double blocks = static_cast<double>(w.blocks);
  double f = static_cast<double>(w.loopIterations);
  // Loads: every block loads its tile, every iteration if the loop walks
  // the input. The first read of each byte comes from DRAM; re-reads
  // (replication across blocks, or a tile loaded again) come from L2 in the
  // proportion of the re-read inputs that fit in it together.
  SmallVector<double, 4> reRead;
  double workingSet = 0;
  for (const CostInput &in : desc.inputs) {
    double copies = blocks * (in.walked ? f : 1.0);
    if (in.chunkBytes > 0)
      w.memoryInstructions += copies * std::ceil(in.tileBytes / in.chunkBytes) *
                              (copiedAsync(in) ? 1 : 2);
    w.smemWavefronts += copies * in.copyWavefronts;
    w.bankConflictWavefronts += copies * in.copyConflictWavefronts;
    double loaded = in.tileBytes * blocks * (in.walked ? f : 1.0);
    w.bytes += std::min(loaded, in.tensorBytes);
    reRead.push_back(std::max(0.0, loaded - in.tensorBytes));
    if (reRead.back() > 0)
      workingSet += in.tensorBytes;
  }
  double hit = workingSet > 0 ? std::min(1.0, device.l2Bytes / workingSet) : 1;
  for (double r : reRead) {
    w.bytes += r * (1.0 - hit);
    w.l2Bytes += r * hit;
  }
  for (double out : desc.outputBytes)
    w.bytes += out;
  for (const CostOp &op : desc.ops)
    addOpWork(w, op, blocks * (op.inLoop ? f : 1.0), blocks, unpadded);
  if (!desc.predefined)
    addLoadsInFlight(device, desc, w);
  return w;
}

/// The description of the kernel that --mirage-wrap-kernels makes of the
/// mk op `op` (WrapKernels.h), built on a copy of `op` in a scratch module;
/// nullopt if it cannot be wrapped. Memoised by op, attributes, types and
/// limit: a partitioned search costs the same ops in hundreds of intervals.
static std::optional<KernelDesc> describeWrapped(Operation *op) {
  static std::mutex mutex;
  static llvm::StringMap<std::optional<KernelDesc>> memo;
  int64_t limit = mk::MKDialect::getSharedMemoryLimit(op->getParentOp());
  std::string key;
  {
    llvm::raw_string_ostream os(key);
    os << op->getName() << " " << op->getRawDictionaryAttrs() << " "
       << op->getPropertiesAsAttribute() << " " << limit;
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      os << " " << t;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = memo.find(key);
    if (it != memo.end())
      return it->second;
  }
  MLIRContext *ctx = op->getContext();
  OpBuilder b(ctx);
  Location loc = op->getLoc();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  (*scratch)->setAttr(mk::MKDialect::kSmemLimitAttrName,
                      b.getI64IntegerAttr(limit));
  b.setInsertionPointToEnd(scratch->getBody());
  auto func = func::FuncOp::create(
      b, loc, "wrapped",
      b.getFunctionType(op->getOperandTypes(), op->getResultTypes()));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  IRMapping map;
  map.map(op->getOperands(), entry->getArguments());
  Operation *copy = b.clone(*op, map);
  std::optional<KernelDesc> desc;
  std::string why, error;
  // An op the wrap rejects is costed otherwise: its complaints (a shape
  // rule of the tiles it tried) are not the user's.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  if (mk::GraphKernelOp kernel =
          wrapInKernel(copy, kWrapMaxTile, kWrapBlockThreads, why)) {
    FailureOr<KernelDesc> d = describeKernel(kernel, error);
    if (succeeded(d))
      desc = std::move(*d);
  }
  std::lock_guard<std::mutex> lock(mutex);
  return memo.try_emplace(key, std::move(desc)).first->second;
}

FailureOr<KernelDesc> mirage::search::describeKernel(Operation *op,
                                                     std::string &error) {
  KernelDesc d;
  auto kernel = dyn_cast<mk::GraphKernelOp>(op);
  if (!kernel) {
    // A pre-defined op runs as the kernel the lowering wraps it into.
    if (std::optional<KernelDesc> wrapped = describeWrapped(op))
      return *wrapped;
    // One the lowering cannot wrap (it rejects the function): a library
    // kernel that fills the device, as a bound.
    d.predefined = true;
    for (Value v : op->getOperands())
      d.inputs.push_back({bytesOf(v.getType()), bytesOf(v.getType()), false});
    for (Type t : op->getResultTypes())
      d.outputBytes.push_back(bytesOf(t));
    FailureOr<CostOp> c = describeOp(op, /*inLoop=*/false, error);
    if (failed(c))
      return failure();
    d.ops.push_back(std::move(*c));
    return d;
  }
  d.blocks = 1;
  for (int64_t g : kernel.getGrid())
    d.blocks *= g;
  d.threads = 1;
  for (int64_t t : kernel.getBlock())
    d.threads *= t;
  d.forloop = kernel.getForloop();
  d.smemBytes = static_cast<double>(kernel.computeSharedMemoryBytes());
  d.smemLimit = static_cast<double>(kernel.getSharedMemoryLimit());
  bool bad = false;
  kernel.getBody().walk([&](Operation *inner) {
    if (bad || isa<mb::ForLoopOp>(inner) ||
        inner->hasTrait<OpTrait::IsTerminator>() ||
        inner->getParentOfType<mt::ThreadGraphOp>())
      return;
    bool inLoop = inner->getParentOfType<mb::ForLoopOp>() != nullptr;
    if (auto it = dyn_cast<mb::InputIterOp>(inner)) {
      // An f16 operand of a matmul tensor cores take is laid out for reads
      // across rows (KernelEmitter::fitsMma).
      bool acrossRows = llvm::any_of(it->getUsers(), [](Operation *user) {
        auto mm = dyn_cast<mb::MatmulOp>(user);
        return mm && mm.getLhs().getType().getElementType().isF16() &&
               mm.getRhs().getType().getElementType().isF16() &&
               mmaFitsTiles(mm.getLhs().getType().getShape(),
                            mm.getRhs().getType().getShape());
      });
      // A tile read through a view is copied as the lowering copies it
      // (CodePlan.h, planViewCopy); the identity view as no view.
      std::string why;
      FailureOr<std::optional<mb::StridedView>> analyzed =
          mb::analyzeView(it, why);
      if (failed(analyzed)) {
        error = "the cost model cannot read the view of an input "
                "iterator: " +
                why;
        bad = true;
        return;
      }
      std::optional<mb::StridedView> view = *analyzed;
      if (view && view->isIdentity())
        view.reset();
      d.inputs.push_back(describeInput(
          it.getType().getShape(), it.getInput().getType().getShape(),
          elementBytesOf(it.getType()),
          // fmap is stored unsigned; -1: no loop walk.
          static_cast<int64_t>(it.getFmap()) >= 0, acrossRows,
          view ? &*view : nullptr));
      d.inputs.back().afterLoop = it.isEpilogue();
      return;
    }
    if (isa<mb::OutputSaverOp>(inner)) {
      d.outputBytes.push_back(bytesOf(inner->getResult(0).getType()));
      return;
    }
    if (auto tg = dyn_cast<mt::ThreadGraphOp>(inner)) {
      // Each scalar op of the region once per element of the result.
      SmallVector<int64_t, 4> shape(
          cast<RankedTensorType>(inner->getResult(0).getType()).getShape());
      for (Operation &s : tg.getBody().front().without_terminator()) {
        auto ew = dyn_cast<ElementwiseOpInterface>(&s);
        if (!ew) {
          error = "the cost model cannot read '" +
                  s.getName().getStringRef().str() + "' in a thread graph";
          bad = true;
          return;
        }
        CostOp c;
        c.cls = CostOp::Class::Elementwise;
        c.elementwise = ew.getElementwiseKind();
        c.result = shape;
        c.inLoop = inLoop;
        d.ops.push_back(std::move(c));
      }
      return;
    }
    FailureOr<CostOp> c = describeOp(inner, inLoop, error);
    if (failed(c)) {
      bad = true;
      return;
    }
    d.ops.push_back(std::move(*c));
  });
  if (bad)
    return failure();
  return d;
}

FailureOr<ProgramCost> mirage::search::analyzeProgram(func::FuncOp func,
                                                      const DeviceModel &device,
                                                      std::string &error) {
  if (func.isExternal()) {
    error = "function has no body";
    return failure();
  }
  // Every value the model sizes (bytesOf): the signature's and the
  // kernel-level ops' results.
  auto staticTensor = [](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    return rt && rt.hasStaticShape();
  };
  bool allStatic = llvm::all_of(func.getArgumentTypes(), staticTensor) &&
                   llvm::all_of(func.getResultTypes(), staticTensor);
  for (Block &block : func.getBody())
    for (Operation &op : block.without_terminator())
      allStatic = allStatic && llvm::all_of(op.getResultTypes(), staticTensor);
  if (!allStatic) {
    error = "the cost model needs static tensor shapes";
    return failure();
  }
  ProgramCost p;
  double bytes = 0, tensor = 0, cuda = 0, sfu = 0;
  for (Type t : func.getFunctionType().getInputs())
    bytes += bytesOf(t);
  for (Type t : func.getFunctionType().getResults())
    bytes += bytesOf(t);
  for (Block &block : func.getBody())
    for (Operation &op : block.without_terminator()) {
      // A reshape is a view of its buffer, and a layout op next to kernels
      // becomes part of their views (AbsorbViews.h): no kernel, no time.
      if (isa<mk::ReshapeOp>(op) || (isLayoutOp(&op) && foldsIntoKernels(&op)))
        continue;
      FailureOr<KernelDesc> d = describeKernel(&op, error);
      if (failed(d))
        return failure();
      KernelCost k;
      k.op = &op;
      k.desc = std::move(*d);
      k.work = analyzeKernel(device, k.desc);
      k.time = modelKernel(device, k.work);
      KernelWork exact = analyzeKernel(device, k.desc, /*unpadded=*/true);
      tensor += exact.tensorFlops;
      cuda += exact.cudaOps;
      sfu += exact.sfuOps;
      p.totalMicros += k.time.total;
      p.kernels.push_back(std::move(k));
    }
  p.floor = rooflineFloor(device, bytes, tensor, cuda, sfu);
  return p;
}

FailureOr<std::pair<unsigned, double>>
mirage::search::estimateProgramCost(func::FuncOp func, StringRef chip) {
  std::optional<DeviceModel> device = getDeviceModel(chip);
  if (!device)
    return failure();
  std::string error;
  FailureOr<ProgramCost> p = analyzeProgram(func, *device, error);
  if (failed(p))
    return failure();
  return std::make_pair(static_cast<unsigned>(p->kernels.size()),
                        p->totalMicros);
}
