//===- mirage-opt.cpp - Mirage optimizer driver -----------------*- C++ -*-===//
//
// mlir-opt with every upstream dialect, extension and pass, plus the Mirage
// dialects and passes (MirageOptMain.h).
//
//===----------------------------------------------------------------------===//

#include "MirageOptMain.h"

#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  return mirage::mirageOptMain(argc, argv);
}
