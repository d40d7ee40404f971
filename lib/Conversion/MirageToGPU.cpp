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

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <numeric>

namespace mirage {
#define GEN_PASS_DEF_CONVERTMIRAGETOGPU
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::lowering;

namespace {

/// The tails of `kernel` along dynamic dims ([B26]: a `?` grid dim's, or
/// the walk of a `?` loop) that `divisors` does not remove: the device
/// tensor in the kernel, the dim and the tile's extent there.
SmallVector<std::tuple<Value, unsigned, int64_t>>
dynamicTails(mk::GraphKernelOp kernel,
             const llvm::DenseMap<std::pair<Value, unsigned>, int64_t>
                 &divisors) {
  SmallVector<std::tuple<Value, unsigned, int64_t>> tails;
  kernel.getBody().walk([&](Operation *op) {
    Value device;
    RankedTensorType tile;
    if (auto it = dyn_cast<mb::InputIterOp>(op)) {
      device = it.getInput();
      tile = it.getType();
    } else if (auto saver = dyn_cast<mb::OutputSaverOp>(op)) {
      device = saver.getOutput();
      tile = saver.getInput().getType();
    } else {
      return;
    }
    auto type = cast<RankedTensorType>(device.getType());
    for (int64_t l : mb::tailDims(op)) {
      // Through a view, logical dim l is device dim d.
      int64_t d = mb::deviceDimOf(op, l);
      if (d < 0 || !type.isDynamicDim(d))
        continue;
      auto dim = static_cast<unsigned>(d);
      int64_t extent = tile.getDimSize(l);
      auto known = divisors.find({device, dim});
      if ((known != divisors.end() && known->second % extent == 0) ||
          llvm::is_contained(tails, std::make_tuple(device, dim, extent)))
        continue;
      tails.push_back({device, dim, extent});
    }
  });
  return tails;
}

/// The blocks of `kernel` along each grid dim: ceil(size / tile) along a
/// '?' grid dim, the size read from a device tensor it partitions
/// (`global` maps the kernel's tensors to their buffers).
SmallVector<Value> gridSizes(OpBuilder &b, mk::GraphKernelOp kernel,
                             const llvm::DenseMap<Value, Value> &global) {
  Location loc = kernel.getLoc();
  SmallVector<Value> grid;
  ArrayRef<int64_t> blocksPerDim = kernel.getGrid();
  for (size_t g = 0; g < blocksPerDim.size(); ++g) {
    int64_t blocks = blocksPerDim[g];
    if (!ShapedType::isDynamic(blocks)) {
      grid.push_back(cIndex(b, loc, blocks));
      continue;
    }
    // [K19] every '?' grid dim partitions a dynamic dim of some iterator or
    // saver; all of them have the same size.
    Value count;
    kernel.getBody().walk([&](Operation *op) {
      Value device;
      int64_t dim = -1, tile = 0;
      if (auto it = dyn_cast<mb::InputIterOp>(op)) {
        device = it.getInput();
        dim = it.getImap()[g];
        tile = dim >= 0 ? it.getType().getDimSize(dim) : 0;
      } else if (auto saver = dyn_cast<mb::OutputSaverOp>(op)) {
        device = saver.getOutput();
        dim = saver.getOmap()[g];
        tile = dim >= 0 ? saver.getInput().getType().getDimSize(dim) : 0;
      }
      // Through a view, the logical dim the grid partitions is device dim
      // `at`.
      int64_t at = dim < 0 ? -1 : mb::deviceDimOf(op, dim);
      if (count || at < 0 ||
          !cast<RankedTensorType>(device.getType()).isDynamicDim(at))
        return;
      Value size = memref::DimOp::create(b, loc, global.lookup(device), at);
      count = arith::CeilDivUIOp::create(b, loc, size, cIndex(b, loc, tile));
    });
    grid.push_back(count);
  }
  return grid;
}

/// Creates, before `fn`, the host function that replaces it: its name, a
/// destination-passing signature (the inputs, then one buffer per result)
/// and an entry block, where `b` is left.
Block *createHostFunction(OpBuilder &b, func::FuncOp fn) {
  SmallVector<Type> argTypes;
  for (Type t :
       llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes()))
    argTypes.push_back(toMemRef(t));
  auto host = func::FuncOp::create(b, fn.getLoc(), fn.getName(),
                                   b.getFunctionType(argTypes, {}));
  host.setVisibility(fn.getVisibility());
  Block *entry = host.addEntryBlock();
  b.setInsertionPointToStart(entry);
  return entry;
}

struct ConvertMirageToGPUPass
    : public mirage::impl::ConvertMirageToGPUBase<ConvertMirageToGPUPass> {
  using Base::Base;

  /// Lowers one function; returns failure after emitting a diagnostic.
  LogicalResult convert(func::FuncOp fn);
  /// [K20] Lowers a function that dispatches on a size to a host function
  /// that calls the lowered program of the run-time size's class.
  LogicalResult convertDispatch(func::FuncOp fn,
                                const mk::SizeDispatch &dispatch);
  /// Records, for the callers of `fn`, where its results' dynamic dims are
  /// read from (resultDims).
  void recordResultDims(func::FuncOp fn, const mk::DynamicSizes &sizes);

  /// Per converted function with dynamic result dims: for every result,
  /// the (argument, dim) each of its dynamic dims is read from.
  llvm::StringMap<SmallVector<SmallVector<std::pair<unsigned, unsigned>>>>
      resultDims;

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
      // The calls of a size dispatch are on buffers already.
      if (llvm::any_of(call.getOperandTypes(), llvm::IsaPred<MemRefType>))
        continue;
      OpBuilder b(call);
      Location loc = call.getLoc();
      SmallVector<Value> args;
      for (Value v : call.getOperands())
        args.push_back(bufferization::ToBufferOp::create(
            b, loc, toMemRef(v.getType()), v, /*readOnly=*/true));
      SmallVector<Value> outs;
      for (auto [i, t] : llvm::enumerate(call.getResultTypes())) {
        // A dynamic result dim has the size of an argument dim.
        SmallVector<Value> sizes;
        auto dims = resultDims.find(call.getCallee());
        if (dims != resultDims.end())
          for (auto [arg, dim] : dims->second[i])
            sizes.push_back(
                tensor::DimOp::create(b, loc, call.getOperand(arg), dim));
        outs.push_back(memref::AllocOp::create(b, loc, toMemRef(t), sizes));
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
  std::string why;
  FailureOr<std::optional<mk::SizeDispatch>> dispatch =
      mk::SizeDispatch::read(fn, &why);
  if (failed(dispatch))
    return fn.emitOpError("[K20] ") << why;
  if (*dispatch)
    return convertDispatch(fn, **dispatch);
  for (Type t : llvm::concat<const Type>(fn.getArgumentTypes(),
                                         fn.getResultTypes()))
    if (!isa<RankedTensorType>(t))
      return fn.emitOpError("convert-mirage-to-gpu expects tensor arguments "
                            "and results, got ")
             << t;
  // [K19] Dynamic dims are read from the arguments at run time: kernels
  // launch ceil(size / tile) blocks along their '?' grid dims.
  std::optional<mk::DynamicSizes> sizes;
  if (mk::hasDynamicDims(fn)) {
    FailureOr<mk::DynamicSizes> analyzed = mk::DynamicSizes::analyze(fn);
    if (failed(analyzed))
      return failure();
    sizes = std::move(*analyzed);
    // Every dynamic dim the lowering allocates or reshapes has a size.
    for (Operation &op : fn.getBody().front())
      for (Value r : op.getResults())
        if (auto type = dyn_cast<RankedTensorType>(r.getType()))
          for (int64_t d = 0; d < type.getRank(); ++d)
            if (type.isDynamicDim(d) && !sizes->findSize(r, d))
              return op.emitOpError("dynamic dim ")
                     << d << " of its result has no size read from an "
                     << "argument (docs/dynamic.md)";
  }
  Block &body = fn.getBody().front();
  for (Operation &op : body) {
    if (isa<mk::GraphKernelOp, mk::ReshapeOp, func::ReturnOp>(op))
      continue;
    return op.emitOpError(
        "is not supported by convert-mirage-to-gpu: only graph-defined "
        "kernels (mk.graph_kernel) are lowered; express this op inside one");
  }

  OpBuilder b(fn);
  Location loc = fn.getLoc();
  Block *entry = createHostFunction(b, fn);

  llvm::DenseMap<Value, Value> memrefOf;
  for (auto [oldArg, newArg] :
       llvm::zip(body.getArguments(), entry->getArguments()))
    memrefOf[oldArg] = newArg;
  // The run-time value of every size, and the sizes of a value's dynamic
  // dims.
  SmallVector<Value> sizeValues;
  if (sizes)
    for (const mk::DynamicSize &size : sizes->getSizes())
      sizeValues.push_back(memref::DimOp::create(
          b, loc, entry->getArgument(size.argument), size.dim));
  auto dynamicSizesOf = [&](Value v) {
    SmallVector<Value> out;
    auto type = cast<RankedTensorType>(v.getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        out.push_back(sizeValues[*sizes->findSize(v, d)]);
    return out;
  };
  if (sizes)
    recordResultDims(fn, *sizes);
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
                      cast<MemRefType>(toMemRef(reshape.getType())),
                      dynamicSizesOf(reshape.getResult()));
      continue;
    }
    auto kernel = dyn_cast<mk::GraphKernelOp>(op);
    if (!kernel)
      continue;
    for (Value r : kernel.getResults())
      if (!memrefOf.count(r)) {
        Value alloc = memref::AllocOp::create(b, loc, toMemRef(r.getType()),
                                              dynamicSizesOf(r))
                          .getResult();
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

    // The divisors the facts give the kernel's dynamic dims: tiles that
    // divide them need no tail masks.
    llvm::DenseMap<std::pair<Value, unsigned>, int64_t> divisors;
    if (sizes) {
      auto record = [&](Value inKernel, Value outside) {
        auto type = cast<RankedTensorType>(outside.getType());
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (std::optional<unsigned> id = sizes->findSize(outside, d))
            divisors[{inKernel, static_cast<unsigned>(d)}] =
                sizes->getSizes()[*id].divisor;
      };
      for (auto [arg, in] :
           llvm::zip_equal(kernel.getBody().getArguments(), kernel.getInputs()))
        record(arg, in);
      for (auto [saved, r] :
           llvm::zip_equal(kret.getOutputs(), kernel.getResults()))
        record(saved, r);
    }
    int64_t mma = 0;
    // Launches the kernel at the insertion point, its tails along the dims
    // `known` divides by the tile left unmasked.
    auto launchKernel = [&](const llvm::DenseMap<std::pair<Value, unsigned>,
                                                 int64_t> &known)
        -> LogicalResult {
      // Pipeline buffers and f32 accumulators take more shared memory than
      // the verifier's count of the tiles: the pipeline depth follows from
      // the planned layout (CodePlan.h); without cp.async if not even one
      // buffer per tile fits.
      int64_t limit = kernel.getSharedMemoryLimit();
      std::optional<KernelEmitter> emitter;
      auto plan = [&](bool async, int64_t stages) {
        emitter.emplace(kernel, b, global, barriers, tensorCores, mma, async,
                        stages, registerAccumulators, swizzleShared, banks);
        emitter->setDivisors(known);
        return emitter->planSharedMemory();
      };
      int64_t stages =
          asyncCopies ? search::choosePipelineStages(
                            staticTrips(kernel), limit,
                            [&](int64_t s) { return plan(true, s); })
                      : 0;
      int64_t smem = stages > 0 ? plan(true, stages) : plan(false, 1);
      if (smem > limit)
        return kernel.emitOpError("needs ")
               << smem << " bytes of shared memory once lowered (f32 "
               << "accumulators, aligned tiles), more than the target's "
               << limit;
      ArrayRef<int64_t> block = kernel.getBlock();
      SmallVector<Value> grid = gridSizes(b, kernel, global);
      auto launch = gpu::LaunchOp::create(
          b, kernel.getLoc(), grid[0], grid[1], grid[2],
          cIndex(b, loc, block[0]), cIndex(b, loc, block[1]),
          cIndex(b, loc, block[2]),
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), smem));
      OpBuilder::InsertionGuard guard(b);
      return emitter->emit(launch);
    };
    // The tails along dynamic dims that no fact removes: where every such
    // size is a multiple of its tile at run time, a variant without masks
    // runs instead.
    SmallVector<std::tuple<Value, unsigned, int64_t>> tails =
        dynamicTails(kernel, divisors);
    if (tails.empty() || !unmaskedVariants) {
      if (failed(launchKernel(divisors)))
        return failure();
    } else {
      Value exact;
      llvm::DenseMap<std::pair<Value, unsigned>, int64_t> known = divisors;
      // The sizes as read from the arguments (the kernel manifest names
      // them so).
      llvm::DenseMap<Value, Value> outside;
      for (auto [arg, in] :
           llvm::zip_equal(kernel.getBody().getArguments(), kernel.getInputs()))
        outside[arg] = in;
      for (auto [saved, r] :
           llvm::zip_equal(kret.getOutputs(), kernel.getResults()))
        outside[saved] = r;
      llvm::SmallDenseSet<std::pair<Value, int64_t>> terms;
      for (auto [device, d, tile] : tails) {
        std::optional<unsigned> id;
        if (sizes)
          id = sizes->findSize(outside.lookup(device), d);
        Value size =
            id ? sizeValues[*id]
               : memref::DimOp::create(b, loc, global.lookup(device), d)
                     .getResult();
        int64_t &divisor = known[{device, d}];
        divisor = divisor ? std::lcm(divisor, tile) : tile;
        if (!terms.insert({size, tile}).second)
          continue;
        Value multiple = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(b, loc, size, cIndex(b, loc, tile)),
            cIndex(b, loc, 0));
        exact = exact ? arith::AndIOp::create(b, loc, exact, multiple)
                      : multiple;
      }
      auto ifOp = scf::IfOp::create(b, loc, exact, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      if (failed(launchKernel(known)))
        return failure();
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      if (failed(launchKernel(divisors)))
        return failure();
      ++numUnmaskedVariants;
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

void ConvertMirageToGPUPass::recordResultDims(func::FuncOp fn,
                                              const mk::DynamicSizes &sizes) {
  auto &dims = resultDims[fn.getName()];
  dims.clear();
  for (Value r : fn.getBody().front().getTerminator()->getOperands()) {
    dims.emplace_back();
    auto type = cast<RankedTensorType>(r.getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d)) {
        const mk::DynamicSize &size = sizes.getSizes()[*sizes.findSize(r, d)];
        dims.back().push_back({size.argument, size.dim});
      }
  }
}

LogicalResult
ConvertMirageToGPUPass::convertDispatch(func::FuncOp fn,
                                        const mk::SizeDispatch &dispatch) {
  FailureOr<mk::DynamicSizes> sizes = mk::DynamicSizes::analyze(fn);
  if (failed(sizes))
    return failure();
  std::optional<unsigned> size = sizes->lookup(dispatch.size);
  if (!size)
    return fn.emitOpError("[K20] dispatches on size '")
           << dispatch.size << "', which is not one of its dynamic sizes";
  recordResultDims(fn, *sizes);
  OpBuilder b(fn);
  Location loc = fn.getLoc();
  Block *entry = createHostFunction(b, fn);
  const mk::DynamicSize &s = sizes->getSizes()[*size];
  Value value =
      memref::DimOp::create(b, loc, entry->getArgument(s.argument), s.dim);
  // size <= bounds[0] ? programs[0] : size <= bounds[1] ? ... : last.
  std::function<void(size_t)> emitFrom = [&](size_t i) {
    if (i == dispatch.bounds.size()) {
      func::CallOp::create(b, loc, dispatch.programs[i], TypeRange{},
                           entry->getArguments());
      return;
    }
    Value inClass =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, value,
                              cIndex(b, loc, dispatch.bounds[i]));
    auto branch = scf::IfOp::create(b, loc, inClass, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    func::CallOp::create(b, loc, dispatch.programs[i], TypeRange{},
                         entry->getArguments());
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    emitFrom(i + 1);
  };
  emitFrom(0);
  func::ReturnOp::create(b, loc);
  fn.erase();
  return success();
}

} // namespace
