//===- Passes.h - Superoptimizer pass ---------------------------*- C++ -*-===//

#ifndef MIRAGE_SEARCH_PASSES_H
#define MIRAGE_SEARCH_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mirage::search {

#define GEN_PASS_DECL
#include "Mirage/Search/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Search/Passes.h.inc"

} // namespace mirage::search

#endif // MIRAGE_SEARCH_PASSES_H
