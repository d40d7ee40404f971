//===- ProgramModule.cpp - A verified program as IR -------------*- C++ -*-===//
//
// The module a search returns (Superoptimizer.h), and its text form at the
// cache and process boundaries.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Superoptimizer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mirage::search;

ProgramModule::ProgramModule(OwningOpRef<ModuleOp> module)
    : owned(module ? std::make_shared<OwningOpRef<ModuleOp>>(std::move(module))
                   : nullptr) {}

ModuleOp ProgramModule::module() const {
  return owned ? owned->get() : ModuleOp();
}

func::FuncOp ProgramModule::func() const {
  if (!owned)
    return {};
  auto funcs = owned->get().getBody()->getOps<func::FuncOp>();
  return funcs.empty() ? func::FuncOp() : *funcs.begin();
}

std::string ProgramModule::print() const {
  std::string text;
  if (owned) {
    llvm::raw_string_ostream os(text);
    owned->get().print(os);
  }
  return text;
}

FailureOr<ProgramModule> ProgramModule::parse(StringRef text, MLIRContext *ctx,
                                              std::string &error) {
  if (text.empty())
    return ProgramModule();
  std::string diagnostics;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler collect(ctx, [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        diagnostics += (diagnostics.empty() ? "" : "; ") + d.str();
      return success();
    });
    module = parseSourceString<ModuleOp>(text, ParserConfig(ctx));
  }
  if (!module) {
    error = "does not parse" +
            (diagnostics.empty() ? std::string() : ": " + diagnostics);
    return failure();
  }
  Block *body = module->getBody();
  if (!llvm::hasSingleElement(*body) || !isa<func::FuncOp>(body->front())) {
    error = "is not a module of one function";
    return failure();
  }
  return ProgramModule(std::move(module));
}
