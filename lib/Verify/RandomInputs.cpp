//===- RandomInputs.cpp - Inputs of the tests, and small helpers ----------===//
//
// Random inputs of the field tests and the float checks (one seeded stream
// per argument), running two evaluations at once, and index formatting.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Interpreter.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Interfaces/MirageInterfaces.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <atomic>
#include <thread>

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;

std::optional<std::vector<SmallVector<int64_t, 4>>>
mirage::verify::staticArgumentShapes(func::FuncOp func) {
  std::vector<SmallVector<int64_t, 4>> shapes;
  for (Type t : func.getFunctionType().getInputs()) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return std::nullopt;
    shapes.emplace_back(rt.getShape());
  }
  return shapes;
}

void mirage::verify::fillInputsInParallel(
    unsigned n, llvm::function_ref<void(unsigned)> fill) {
  std::atomic<unsigned> next{0};
  auto work = [&] {
    for (unsigned i; (i = next.fetch_add(1)) < n;)
      fill(i);
  };
  if (n < 2 || std::thread::hardware_concurrency() < 2)
    return work();
  std::thread other(work);
  work();
  other.join();
}

/// Whether every use of `v` reads it as a select's mask, through ops that
/// only move or convert its elements (see ArgumentLayout::masks).
static bool onlyMasks(Value v) {
  if (v.use_empty())
    return false;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    unsigned i = use.getOperandNumber();
    if (auto ew = dyn_cast<ElementwiseOpInterface>(user)) {
      ElementwiseKind kind = ew.getElementwiseKind();
      if (kind == ElementwiseKind::Where && i == 0)
        continue;
      // 1 - m (masked_fill keeps the value where the mask is false) and
      // the other ops that keep 0 and 1 apart and defined.
      bool keepsApart =
          kind == ElementwiseKind::Convert || kind == ElementwiseKind::Neg ||
          kind == ElementwiseKind::AddScalar ||
          kind == ElementwiseKind::MulScalar || kind == ElementwiseKind::Relu;
      if (keepsApart && onlyMasks(user->getResult(0)))
        continue;
      return false;
    }
    if (isa<mk::ReshapeOp, mk::TransposeOp, mb::TransposeOp, mb::InputIterOp>(
            user)) {
      if (onlyMasks(user->getResult(0)))
        continue;
      return false;
    }
    // A kernel or thread graph: operand i is the entry block's argument i.
    if (user->getNumRegions() == 1 && !user->getRegion(0).empty() &&
        i < user->getRegion(0).getNumArguments() &&
        onlyMasks(user->getRegion(0).getArgument(i)))
      continue;
    return false;
  }
  return true;
}

ArgumentLayout mirage::verify::argumentLayout(func::FuncOp func) {
  ArgumentLayout layout;
  layout.shapes = staticArgumentShapes(func);
  for (BlockArgument arg : func.getArguments())
    layout.masks.push_back(onlyMasks(arg));
  return layout;
}

std::vector<FloatTensor> mirage::verify::randomFloatInputs(func::FuncOp func,
                                                           uint64_t seed) {
  return argumentInputs<double>(
      argumentLayout(func), seed,
      [](SplitMix64 &rng) { return rng.uniform(-1.0, 1.0); }, 0.0, 1.0);
}

std::vector<FieldTensor>
mirage::verify::randomFieldInputs(func::FuncOp func, const FieldTest &test,
                                  uint64_t seed, Deadline deadline) {
  return argumentInputs<FieldValue>(
      argumentLayout(func), seed,
      [&](SplitMix64 &rng) { return test.randomValue(rng); }, FieldValue{0, 0},
      test.constant(1.0), deadline);
}

void mirage::verify::runBoth(llvm::function_ref<void()> first,
                             llvm::function_ref<void()> second, bool parallel) {
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
