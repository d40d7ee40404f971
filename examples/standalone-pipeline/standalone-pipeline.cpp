//===- standalone-pipeline.cpp - A tool built on the Mirage package -------===//
//
// Reads a module of linalg/tosa functions, imports them into mk
// (`--mirage-import`), superoptimizes the result (`--mirage-superoptimize`)
// in a PassManager of its own and prints it, remarks on stderr. With
// --pipeline=<text> it runs that textual pipeline instead, which may name
// any upstream or Mirage pass.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Import/Passes.h"
#include "Mirage/InitMirage.h"
#include "Mirage/Search/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<input file>"), cl::init("-"));
static cl::opt<std::string>
    pipeline("pipeline",
             cl::desc("Pass pipeline to run instead of mirage-import + "
                      "mirage-superoptimize, e.g. 'builtin.module("
                      "mirage-import,func.func(mirage-wrap-kernels))'; a "
                      "bare list of passes runs on the module"),
             cl::init(""));
static cl::opt<unsigned>
    searchThreads("search-threads",
                  cl::desc("Search threads of the superoptimizer"),
                  cl::init(2));

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  // Every Mirage pass by name, for --pipeline.
  mirage::registerAllMiragePasses();
  cl::ParseCommandLineOptions(argc, argv, "Mirage standalone pipeline\n");

  // Upstream dialects (what the input is written in) plus mk/mb/mt.
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mirage::registerAllMirageDialects(registry);
  mlir::MLIRContext context(registry);

  // Diagnostics (remarks of the passes included) with their source lines.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(inputFilename, sourceMgr, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  if (!pipeline.empty()) {
    // Parsed as a whole and assigned, as mlirParsePassPipeline does: parsing
    // "builtin.module(...)" into `pm` would nest it under a second module.
    std::string text = pipeline;
    if (!llvm::StringRef(text).starts_with("builtin.module("))
      text = "builtin.module(" + text + ")";
    llvm::FailureOr<mlir::OpPassManager> parsed =
        mlir::parsePassPipeline(text, llvm::errs());
    if (mlir::failed(parsed))
      return 1;
    static_cast<mlir::OpPassManager &>(pm) = std::move(*parsed);
  } else {
    pm.addPass(mirage::createMirageImportPass());
    mirage::search::MirageSuperoptimizeOptions options;
    options.threads = searchThreads;
    options.cacheDir = "none"; // no result cache outside this run
    pm.addPass(mirage::search::createMirageSuperoptimize(options));
  }
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
