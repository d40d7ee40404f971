//===- MirageToGPU.cpp - Lower uGraphs to gpu.launch ------------*- C++ -*-===//
//
// Lowers functions of graph-defined kernels to host functions over memrefs
// whose kernels are gpu.launch ops working on shared-memory tiles. See the
// description of ConvertMirageToGPU in Passes.td for the scheme.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"

#include "KernelEmitter.h"

#include "llvm/ADT/StringSet.h"

namespace mirage {
#define GEN_PASS_DEF_CONVERTMIRAGETOGPU
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::lowering;

namespace {

struct ConvertMirageToGPUPass
    : public mirage::impl::ConvertMirageToGPUBase<ConvertMirageToGPUPass> {
  using Base::Base;

  /// Lowers one function; returns failure after emitting a diagnostic.
  LogicalResult convert(func::FuncOp fn);

  void runOnOperation() override {
    if (failed(
            mk::rejectDynamicDims(getOperation(), "--convert-mirage-to-gpu")))
      return signalPassFailure();
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
  SharedAccessStats banks;
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

    // Tiles read or written through a view are addressed by its analysis.
    WalkResult views = kernel.getBody().walk([&](Operation *inner) {
      if (!isa<mb::InputIterOp, mb::OutputSaverOp>(inner))
        return WalkResult::advance();
      std::string why;
      if (succeeded(KernelEmitter::analyzeView(inner, why)))
        return WalkResult::advance();
      inner->emitOpError("cannot lower its view: ") << why;
      return WalkResult::interrupt();
    });
    if (views.wasInterrupted())
      return failure();

    int64_t mma = 0;
    // Pipeline buffers and f32 accumulators take more shared memory than
    // the verifier's count of the tiles: the pipeline depth follows from
    // the planned layout (CodePlan.h); without cp.async if not even one
    // buffer per tile fits.
    int64_t limit = kernel.getSharedMemoryLimit();
    std::optional<KernelEmitter> emitter;
    auto plan = [&](bool async, int64_t stages) {
      emitter.emplace(kernel, b, global, barriers, tensorCores, mma, async,
                      stages, registerAccumulators, swizzleShared, banks);
      return emitter->planSharedMemory();
    };
    int64_t stages =
        asyncCopies ? search::choosePipelineStages(
                          kernel.getForloop(), limit,
                          [&](int64_t s) { return plan(true, s); })
                    : 0;
    int64_t smem = stages > 0 ? plan(true, stages) : plan(false, 1);
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
  numSharedChecked += banks.checked;
  numBankConflicted += banks.conflicted;
  fn.erase();
  return success();
}

} // namespace
