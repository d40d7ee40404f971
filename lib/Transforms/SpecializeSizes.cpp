//===- SpecializeSizes.cpp - Static sizes for dynamic dims -----*- C++ -*-===//

#include "Mirage/Transforms/SpecializeSizes.h"
#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSet.h"

namespace mirage {
#define GEN_PASS_DEF_SPECIALIZESIZES
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

FailureOr<llvm::StringMap<int64_t>>
mirage::parseSizeValues(Location loc, ArrayRef<std::string> entries) {
  llvm::StringMap<int64_t> values;
  for (StringRef entry : entries) {
    auto [name, text] = entry.split('=');
    int64_t value = 0;
    if (name.empty() || !entry.contains('=') || text.getAsInteger(10, value) ||
        value < 1)
      return emitError(loc, "size entry '")
             << entry << "' is not name=value with a positive integer value";
    if (!values.try_emplace(name, value).second)
      return emitError(loc, "size '") << name << "' is given twice";
  }
  return values;
}

LogicalResult mirage::specializeSizes(ModuleOp module,
                                      const llvm::StringMap<int64_t> &values) {
  SmallVector<FunctionOpInterface> functions(
      module.getOps<FunctionOpInterface>());
  return specializeSizes(functions, values, module.getLoc());
}

LogicalResult mirage::specializeSizes(ArrayRef<FunctionOpInterface> functions,
                                      const llvm::StringMap<int64_t> &values,
                                      Location loc) {
  llvm::StringSet<> used;
  for (FunctionOpInterface function : functions) {
    if (!mk::hasDynamicDims(function))
      continue;
    FailureOr<mk::DynamicSizes> sizes = mk::DynamicSizes::analyze(function);
    if (failed(sizes))
      return failure();
    SmallVector<int64_t> chosen;
    for (const mk::DynamicSize &size : sizes->getSizes()) {
      auto it = values.find(size.name);
      if (it == values.end())
        return function.emitError("no value given for size ")
               << size.describe() << " of @" << function.getName();
      used.insert(size.name);
      chosen.push_back(it->second);
    }
    if (failed(sizes->specialize(function, chosen)))
      return failure();
  }
  for (const auto &entry : values)
    if (!used.contains(entry.getKey()))
      return emitError(loc, "no function has a dynamic size named '")
             << entry.getKey() << "'";
  return success();
}

namespace {
struct SpecializeSizesPass
    : public mirage::impl::SpecializeSizesBase<SpecializeSizesPass> {
  using SpecializeSizesBase::SpecializeSizesBase;
  void runOnOperation() override {
    FailureOr<llvm::StringMap<int64_t>> values =
        parseSizeValues(getOperation().getLoc(), sizes);
    if (failed(values) || failed(specializeSizes(getOperation(), *values)))
      signalPassFailure();
  }
};
} // namespace
