//===- SpecializeSizes.cpp - Static sizes for dynamic dims -----*- C++ -*-===//

#include "Mirage/Transforms/SpecializeSizes.h"
#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
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

unsigned SizeSweep::size() const {
  unsigned n = 1;
  for (const auto &axis : axes)
    n *= axis.second.size();
  return n;
}

llvm::StringMap<int64_t> SizeSweep::at(unsigned index,
                                       std::string *label) const {
  llvm::StringMap<int64_t> values;
  if (label)
    label->clear();
  for (const auto &[name, list] : axes) {
    int64_t v = list[index % list.size()];
    index /= list.size();
    values[name] = v;
    if (label)
      *label += (label->empty() ? "" : ", ") + name + "=" + std::to_string(v);
  }
  return values;
}

FailureOr<SizeSweep> mirage::parseSizeSweep(Location loc,
                                            ArrayRef<std::string> entries,
                                            unsigned maxCombinations) {
  SizeSweep sweep;
  uint64_t combinations = 1;
  for (StringRef entry : entries) {
    auto malformed = [&]() {
      return emitError(loc, "sizes entry '")
             << entry
             << "' is not name=v1:v2:... with positive integers or ranges "
                "a..b";
    };
    auto [nameText, list] = entry.split('=');
    StringRef name = nameText;
    if (name.empty() || !entry.contains('='))
      return malformed();
    SmallVector<StringRef> texts;
    list.split(texts, ':');
    SmallVector<int64_t> values;
    for (StringRef text : texts) {
      auto [first, last] = text.split("..");
      int64_t a = 0, z = 0;
      if (first.getAsInteger(10, a) || a < 1)
        return malformed();
      z = a;
      if (text.contains("..") && (last.getAsInteger(10, z) || z < a))
        return malformed();
      if (static_cast<uint64_t>(z - a) >= maxCombinations)
        return emitError(loc, "sizes give more than ")
               << maxCombinations << " combinations";
      for (int64_t v = a; v <= z; ++v)
        values.push_back(v);
    }
    if (llvm::any_of(sweep.axes,
                     [&](const auto &axis) { return axis.first == name; }))
      return emitError(loc, "size '") << name << "' is given twice";
    combinations *= values.size();
    if (combinations > maxCombinations)
      return emitError(loc, "sizes give more than ")
             << maxCombinations << " combinations";
    sweep.axes.push_back({name.str(), std::move(values)});
  }
  return sweep;
}

FailureOr<func::FuncOp>
mirage::specializedCopy(func::FuncOp function,
                        const llvm::StringMap<int64_t> &values, ModuleOp into,
                        StringRef name) {
  OpBuilder b = OpBuilder::atBlockEnd(into.getBody());
  auto copy = cast<func::FuncOp>(b.clone(*function));
  if (!name.empty())
    copy.setSymName(name);
  copy->removeAttr(mk::MKDialect::kSizeDispatchAttrName);
  copy->removeAttr(mk::MKDialect::kReferenceAttrName);
  if (failed(specializeSizes({cast<FunctionOpInterface>(copy.getOperation())},
                             values, function.getLoc())))
    return failure();
  return copy;
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
    // [K20] At one size, a function that dispatches on it is the program
    // of that size's class.
    FailureOr<std::optional<mk::SizeDispatch>> dispatch =
        mk::SizeDispatch::read(function);
    if (succeeded(dispatch) && *dispatch) {
      auto it = values.find((*dispatch)->size);
      auto program = SymbolTable::lookupNearestSymbolFrom<FunctionOpInterface>(
          function,
          (*dispatch)->programFor(it == values.end() ? 1 : it->second));
      if (it != values.end() && program) {
        Operation *copy = program->clone();
        function.getFunctionBody().takeBody(
            cast<FunctionOpInterface>(copy).getFunctionBody());
        copy->destroy();
        function->removeAttr(mk::MKDialect::kSizeDispatchAttrName);
      }
    }
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
