//===- SizedRun.cpp - One run of a lowered function -----------------------===//
//
// See SizedRun.h.
//
//===----------------------------------------------------------------------===//

#include "SizedRun.h"

#include "Mirage/Verify/Interpreter.h"

#include <chrono>

using namespace mlir;

namespace mirage::run {

std::optional<std::string> prepareRun(SizedRun &run, bool withReference,
                                      const RunOptions &options) {
  func::FuncOp func = run.func;
  run.release();
  // Values stored in bf16 or f16 on the way to an f32 result round there.
  run.storage.clear();
  for (Value r : func.getBody().front().getTerminator()->getOperands())
    run.storage.push_back(narrowestStorage(r));
  // The interpreter's needs (static shapes among them) matter only where
  // it computes a reference.
  if (auto msg = withReference ? verify::checkSignature(func) : std::nullopt)
    return *msg;
  for (Type t : llvm::concat<const Type>(func.getArgumentTypes(),
                                         func.getResultTypes())) {
    Type e = cast<RankedTensorType>(t).getElementType();
    if (!e.isF16() && !e.isBF16() && !e.isF32())
      return "element type " + typeName(e) +
             " is not supported (f16, bf16, f32)";
  }
  if (!withReference)
    return std::nullopt;

  // Seeded inputs, rounded to the argument element types: both runs see the
  // same values.
  std::vector<verify::FloatTensor> inputs =
      verify::randomFloatInputs(func, options.seed);
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    Type elem = cast<RankedTensorType>(t).getElementType();
    for (double &v : inputs[i].data)
      v = verify::roundToElementType(static_cast<float>(v * options.inputScale),
                                     elem);
    run.argBufs.push_back(makeBuffer(inputs[i], elem));
  }
  verify::EvalError evalError;
  auto t0 = std::chrono::steady_clock::now();
  std::optional<std::vector<verify::FloatTensor>> reference =
      verify::evaluateFloat(func, inputs, evalError);
  run.interpMs = msSince(t0);
  if (!reference) {
    if (evalError.op)
      evalError.op->emitError() << "interpreter: " << evalError.message;
    return "the interpreter cannot evaluate it: " + evalError.message;
  }
  run.reference = std::move(*reference);
  for (Type t : func.getResultTypes()) {
    auto rt = cast<RankedTensorType>(t);
    verify::FloatTensor zero(rt.getShape(), 0.0);
    run.outBufs.push_back(makeBuffer(zero, rt.getElementType()));
  }
  return std::nullopt;
}

std::optional<bool> execute(ExecutionEngine &engine, llvm::StringRef name,
                            SizedRun &run, GpuRuntime *rt,
                            const RunOptions &options) {
  bool gpu = rt != nullptr;
  // Where the lowered code reads and writes: the host buffers on the CPU,
  // device copies of them on the GPU.
  std::vector<void *> ptrs;
  auto freeDevice = [&]() {
    if (gpu)
      for (void *p : ptrs)
        rt->memFree(p, nullptr);
  };
  // The host code has no error channel: the runtime reports each failed
  // driver call on stderr and counts it.
  auto gpuFailed = [&](const char *stage) {
    if (!gpu || !rt->errorCount())
      return false;
    fail("--device=gpu: " + std::to_string(rt->errorCount()) +
         " CUDA driver call(s) failed " + stage + " (reported above)");
    freeDevice();
    return true;
  };
  std::vector<Buffer *> all;
  for (Buffer &b : run.argBufs)
    all.push_back(&b);
  for (Buffer &b : run.outBufs)
    all.push_back(&b);
  for (Buffer *b : all) {
    if (!gpu) {
      ptrs.push_back(b->bytes.data());
      continue;
    }
    ptrs.push_back(rt->memAlloc(b->bytes.size(), nullptr, false));
    if (gpuFailed("allocating the device buffers"))
      return std::nullopt;
    rt->memcpy(ptrs.back(), b->bytes.data(), b->bytes.size(), nullptr);
  }
  if (gpu) {
    rt->streamSynchronize(nullptr);
    if (gpuFailed("copying the inputs"))
      return std::nullopt;
  }

  // The lowered host function takes every memref (inputs, then one
  // destination per result) as an expanded descriptor: the sizes of this
  // run's buffers are its dynamic dims.
  std::vector<std::vector<int64_t>> descs;
  std::vector<void *> args;
  for (auto [p, b] : llvm::zip_equal(ptrs, all))
    descs.push_back(descriptor(p, b->shape));
  for (auto &d : descs)
    for (int64_t &w : d)
      args.push_back(&w);

  // Each gpu.launch_func of the host code synchronises its stream, so the
  // host clock measures finished kernels on the GPU too.
  auto invoke = [&]() -> bool {
    if (llvm::Error e = engine.invokePacked(name, args)) {
      fail("@" + name + ": invocation failed: " + llvm::toString(std::move(e)));
      freeDevice();
      return false;
    }
    return !gpuFailed("running the kernels");
  };
  auto t0 = std::chrono::steady_clock::now();
  if (!invoke())
    return std::nullopt;
  run.firstMs = msSince(t0);
  auto t1 = std::chrono::steady_clock::now();
  for (unsigned r = 0; r < options.repeat; ++r)
    if (!invoke())
      return std::nullopt;
  run.perRunMs = options.repeat ? msSince(t1) / options.repeat : run.firstMs;
  if (gpu) {
    for (auto [i, b] : llvm::enumerate(run.outBufs))
      rt->memcpy(b.bytes.data(), ptrs[run.argBufs.size() + i], b.bytes.size(),
                 nullptr);
    rt->streamSynchronize(nullptr);
    if (gpuFailed("copying the outputs back"))
      return std::nullopt;
    freeDevice();
  }

  // A write past the end of a tensor (into a buffer's red zone) is a wrong
  // program whatever the outputs hold.
  std::string at = run.label.empty() ? "" : " at " + run.label;
  for (auto [i, b] : llvm::enumerate(run.outBufs))
    if (writesPastTheEnd(b)) {
      fail("@" + name + at + ": output #" + std::to_string(i) +
           " was written past its end");
      return std::nullopt;
    }
  if (!gpu)
    for (auto [i, b] : llvm::enumerate(run.argBufs))
      if (writesPastTheEnd(b)) {
        fail("@" + name + at + ": argument #" + std::to_string(i) +
             " was written past its end");
        return std::nullopt;
      }

  // Compare the outputs of the last run.
  ComparisonAids aids;
  aids.storage = run.storage;
  run.passed = compareOutputs(run.outBufs, run.reference, options.tolScale,
                              run.maxAbs, run.maxRel, aids);
  return run.passed;
}

} // namespace mirage::run
