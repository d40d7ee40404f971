//===- ReferencePairs.cpp - Candidates and their references ---------------===//

#include "ReferencePairs.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;

SmallVector<std::pair<func::FuncOp, func::FuncOp>>
mirage::bench::findReferencePairs(
    ModuleOp module,
    llvm::function_ref<void(func::FuncOp, FlatSymbolRefAttr)> missing) {
  SmallVector<std::pair<func::FuncOp, func::FuncOp>> pairs;
  module->walk([&](func::FuncOp f) {
    auto sym =
        f->getAttrOfType<FlatSymbolRefAttr>(mk::MKDialect::kReferenceAttrName);
    if (!sym)
      return;
    if (auto ref = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(f, sym))
      pairs.push_back({ref, f});
    else
      missing(f, sym);
  });
  return pairs;
}
