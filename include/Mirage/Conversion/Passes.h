//===- Passes.h - Mirage conversion passes ----------------------*- C++ -*-===//

#ifndef MIRAGE_CONVERSION_PASSES_H
#define MIRAGE_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL
#include "Mirage/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Conversion/Passes.h.inc"

/// Registers the named pipelines `mirage-to-gpu`, `mirage-to-ptx` and
/// `mirage-to-cpu`.
void registerMiragePipelines();

} // namespace mirage

#endif // MIRAGE_CONVERSION_PASSES_H
