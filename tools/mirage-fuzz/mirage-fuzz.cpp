//===- mirage-fuzz.cpp - libFuzzer target for the Mirage tools --*- C++ -*-===//
//
// Each input is MLIR text. It is screened like mirage-opt screens its input
// (InputGuard.h), parsed and verified in a context with every upstream
// dialect and ours, and, if MIRAGE_FUZZ_PIPELINE names a pass pipeline
// (textual, as for mirage-opt --pass-pipeline, e.g.
// "builtin.module(mirage-superoptimize{time-budget=0.2})"), run through it
// and printed. Diagnostics are the expected outcome for bad input; only a
// crash, a sanitizer report or a timeout is a finding. The mutator is in
// Mutator.cpp. Built by scripts/fuzz (docs/fuzzing.md).
//
//===----------------------------------------------------------------------===//

#include "../mirage-opt/InputGuard.h"
#include "Mutator.h"

#include "Mirage/InitMirage.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>
#include <string>

using namespace mlir;

namespace {

struct FuzzState {
  DialectRegistry registry;
  std::string pipeline;
  std::unique_ptr<MLIRContext> context;
  unsigned uses = 0;

  FuzzState() {
    registerAllPasses();
    mirage::registerAllMiragePasses();
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllToLLVMIRTranslations(registry);
    mirage::registerAllMirageDialects(registry);
    if (const char *p = std::getenv("MIRAGE_FUZZ_PIPELINE"))
      pipeline = p;
  }

  /// A context shared by a bounded number of inputs: creating one per input
  /// would dominate the run time, and one for ever would grow without bound
  /// (types and attributes are never freed).
  MLIRContext &getContext() {
    if (!context || ++uses > 2000) {
      context = std::make_unique<MLIRContext>(registry,
                                              MLIRContext::Threading::DISABLED);
      context->allowUnregisteredDialects(false);
      uses = 0;
    }
    return *context;
  }
};

FuzzState &state() {
  static FuzzState s;
  return s;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  FuzzState &s = state();
  mirage::fuzz::initMutator(s.getContext());
  if (!s.pipeline.empty()) {
    // A pipeline that does not parse is a usage error, not a finding.
    PassManager pm(&s.getContext());
    std::string error;
    llvm::raw_string_ostream os(error);
    if (failed(parsePassPipeline(s.pipeline, pm, os))) {
      llvm::errs() << "mirage-fuzz: MIRAGE_FUZZ_PIPELINE does not parse: "
                   << error << "\n";
      std::exit(2);
    }
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzState &s = state();
  // The MLIR lexer reads up to a NUL terminator; libFuzzer's buffer has
  // none (reading it as is overflows the buffer: a harness bug, not a
  // finding), so parse a NUL-terminated copy, as mirage-opt parses a file.
  std::string copy(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(copy);
  if (mirage::findAbsurdResultNumber(text))
    return 0;
  MLIRContext &ctx = s.getContext();
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&ctx));
  if (!module)
    return 0;
  if (s.pipeline.empty()) {
    // Printing exercises the custom printers of what parsed.
    llvm::raw_null_ostream null;
    module->print(null);
    return 0;
  }
  PassManager pm(&ctx, module.get()->getName().getStringRef());
  if (failed(parsePassPipeline(s.pipeline, pm)))
    return 0;
  if (succeeded(pm.run(*module)) && succeeded(verify(*module))) {
    llvm::raw_null_ostream null;
    module->print(null);
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return mirage::fuzz::mutate(data, size, maxSize, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1,
                                            size_t size1, const uint8_t *data2,
                                            size_t size2, uint8_t *out,
                                            size_t maxOutSize, unsigned seed) {
  return mirage::fuzz::crossOver(data1, size1, data2, size2, out, maxOutSize,
                                 seed);
}
