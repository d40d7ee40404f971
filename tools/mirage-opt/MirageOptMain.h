//===- MirageOptMain.h - The mirage-opt driver ------------------*- C++ -*-===//
//
// mlir-opt with every upstream dialect, extension and pass, plus the Mirage
// dialects and passes: the body of mirage-opt and of mirage-opt-mpi's
// coordinator rank.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_MIRAGEOPTMAIN_H
#define MIRAGE_TOOLS_MIRAGEOPTMAIN_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mirage {

/// Every dialect, extension and LLVM IR translation mirage-opt can read.
void registerMirageOptDialects(mlir::DialectRegistry &registry);

/// Parses the command line, runs the pipeline on the input and writes the
/// output: mirage-opt's main after llvm::InitLLVM. Returns the exit code.
int mirageOptMain(int argc, char **argv);

} // namespace mirage

#endif // MIRAGE_TOOLS_MIRAGEOPTMAIN_H
