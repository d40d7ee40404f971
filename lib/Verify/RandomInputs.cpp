//===- RandomInputs.cpp - Inputs of the tests, and small helpers ----------===//
//
// Random inputs of the field tests and the float checks (one seeded stream
// per argument), running two evaluations at once, and index formatting.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <thread>

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;

static uint64_t argSeed(uint64_t seed, unsigned i) {
  return mix64(seed * 0x9E3779B97F4A7C15ULL + i + 1);
}

std::vector<FloatTensor> mirage::verify::sampledFloatInputs(
    func::FuncOp func, uint64_t seed,
    llvm::function_ref<double(SplitMix64 &)> draw) {
  std::vector<FloatTensor> inputs;
  inputs.reserve(func.getFunctionType().getNumInputs());
  for (auto [i, t] : llvm::enumerate(func.getFunctionType().getInputs())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return {};
    SplitMix64 rng(argSeed(seed, i));
    FloatTensor x(rt.getShape());
    for (double &v : x.data)
      v = draw(rng);
    inputs.push_back(std::move(x));
  }
  return inputs;
}

std::vector<FloatTensor> mirage::verify::randomFloatInputs(func::FuncOp func,
                                                           uint64_t seed) {
  return sampledFloatInputs(
      func, seed, [](SplitMix64 &rng) { return rng.uniform(-1.0, 1.0); });
}

std::vector<FieldTensor>
mirage::verify::randomFieldInputs(func::FuncOp func, const FieldTest &test,
                                  uint64_t seed) {
  std::vector<FieldTensor> inputs;
  // Tensor's move is not noexcept (SmallVector): growing the vector would
  // copy the storage.
  inputs.reserve(func.getFunctionType().getNumInputs());
  for (auto [i, t] : llvm::enumerate(func.getFunctionType().getInputs())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return {};
    SplitMix64 rng(argSeed(seed, i));
    FieldTensor x(rt.getShape());
    for (FieldValue &v : x.data)
      v = test.randomValue(rng);
    inputs.push_back(std::move(x));
  }
  return inputs;
}

void mirage::verify::runBoth(llvm::function_ref<void()> first,
                             llvm::function_ref<void()> second,
                             bool parallel) {
  if (!parallel || std::thread::hardware_concurrency() < 2) {
    first();
    second();
    return;
  }
  std::thread other([&] { second(); });
  first();
  other.join();
}

std::string mirage::verify::formatIndex(ArrayRef<int64_t> index) {
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(index)) {
    if (i)
      s += ", ";
    s += std::to_string(v);
  }
  return s + "]";
}

SmallVector<int64_t, 4> mirage::verify::delinearize(int64_t linear,
                                                    ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> idx(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = linear % shape[d];
    linear /= shape[d];
  }
  return idx;
}
