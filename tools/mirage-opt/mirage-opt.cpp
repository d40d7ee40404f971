//===- mirage-opt.cpp - Mirage optimizer driver -----------------*- C++ -*-===//
//
// mlir-opt with every upstream dialect, extension and pass, plus the Mirage
// dialects and passes.
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitMirage.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mirage::registerAllMiragePasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR to produce PTX.
  mlir::registerAllToLLVMIRTranslations(registry);
  mirage::registerAllMirageDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Mirage multi-level superoptimizer driver\n", registry));
}
