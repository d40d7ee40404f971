//===- InitMirage.h - Register Mirage dialects and passes -------*- C++ -*-===//
//
// Entry points for tools and downstream compilers that embed Mirage
// (docs/embedding.md): call both before parsing, e.g.
//
//   mlir::DialectRegistry registry;
//   mirage::registerAllMirageDialects(registry);
//   mirage::registerAllMiragePasses();
//   mlir::MLIRContext context(registry);
//
// Link Mirage::Mirage from the installed CMake package (in this build, the
// Mirage* libraries, as tools/mirage-opt does). The C API is include/mirage-c/.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INITMIRAGE_H
#define MIRAGE_INITMIRAGE_H

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "Mirage/Import/Passes.h"
#include "Mirage/Search/Passes.h"
#include "Mirage/Verify/Passes.h"
#include "Mirage/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"

namespace mirage {

/// Adds the mk, mb and mt dialects to `registry`.
inline void registerAllMirageDialects(mlir::DialectRegistry &registry) {
  registry.insert<mk::MKDialect, mb::MBDialect, mt::MTDialect>();
}

/// Registers every Mirage pass and pass pipeline with the global registry,
/// the import of linalg/tosa (`--mirage-import`) included.
inline void registerAllMiragePasses() {
  registerMirageImportPasses();
  registerMirageTransformsPasses();
  registerMirageConversionPasses();
  registerMiragePipelines();
  verify::registerMirageVerifyPasses();
  search::registerMirageSearchPasses();
}

} // namespace mirage

#endif // MIRAGE_INITMIRAGE_H
