//===- MirageOptMain.cpp - The mirage-opt driver ----------------*- C++ -*-===//
//
// See MirageOptMain.h. The input is screened for result numbers the
// upstream parser aborts on (InputGuard.h) before it is parsed.
//
//===----------------------------------------------------------------------===//

#include "MirageOptMain.h"
#include "InputGuard.h"
#include "Mirage/InitMirage.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

void mirage::registerMirageOptDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR to produce PTX.
  mlir::registerAllToLLVMIRTranslations(registry);
  mirage::registerAllMirageDialects(registry);
}

int mirage::mirageOptMain(int argc, char **argv) {
  mlir::registerAllPasses();
  mirage::registerAllMiragePasses();
  mlir::DialectRegistry registry;
  registerMirageOptDialects(registry);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Mirage multi-level superoptimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // A pass-option value that the option's parser rejects ('time-budget=abc')
  // is reported by that parser itself on stderr; Pass::initializeOptions then
  // hands the pipeline parser's error handler an empty message, which would
  // print as a bare "error: " line after it (and, in --pass-pipeline, as one
  // before the line that names the pass). While the pipeline is built, empty
  // errors are dropped and the others re-emitted without the leading blank
  // (the failure still ends the run with 1).
  config.setPassPipelineSetupFn(
      [parsed = mlir::MlirOptMainConfig(config)](mlir::PassManager &pm) {
        mlir::MLIRContext *ctx = pm.getContext();
        mlir::ScopedDiagnosticHandler trimErrors(ctx, [&](mlir::Diagnostic &d) {
          if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
            return mlir::failure();
          std::string text = d.str();
          llvm::StringRef trimmed = llvm::StringRef(text).trim();
          if (trimmed.empty())
            return mlir::success();
          if (trimmed.size() == text.size())
            return mlir::failure();
          mlir::emitError(d.getLocation()) << trimmed;
          return mlir::success();
        });
        return parsed.setupPassPipeline(pm);
      });
  if (config.shouldShowDialects())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (std::optional<mirage::AbsurdResultNumber> bad =
          mirage::findAbsurdResultNumber(file->getBuffer())) {
    llvm::SourceMgr sm;
    const char *at = file->getBufferStart() + bad->offset;
    sm.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    sm.PrintMessage(llvm::SMLoc::getFromPointer(at), llvm::SourceMgr::DK_Error,
                    bad->message);
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
