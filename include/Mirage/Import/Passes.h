//===- Passes.h - Import of linalg/tosa into mk -----------------*- C++ -*-===//
//
// The import pass rewrites the linalg and tosa ops of a function that have an
// exact mk counterpart into mk ops, in place; everything else is left
// untouched and named in a remark.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_IMPORT_PASSES_H
#define MIRAGE_IMPORT_PASSES_H

#include "mlir/Pass/Pass.h"
#include <memory>

namespace mirage {

/// Creates the `--mirage-import` pass.
std::unique_ptr<mlir::Pass> createMirageImportPass();

/// Registers `--mirage-import` with the global pass registry.
void registerMirageImportPasses();

} // namespace mirage

#endif // MIRAGE_IMPORT_PASSES_H
