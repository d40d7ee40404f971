//===- Passes.h - Equivalence checking and evaluation passes ----*- C++ -*-===//

#ifndef MIRAGE_VERIFY_PASSES_H
#define MIRAGE_VERIFY_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mirage::verify {

#define GEN_PASS_DECL
#include "Mirage/Verify/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Verify/Passes.h.inc"

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_PASSES_H
