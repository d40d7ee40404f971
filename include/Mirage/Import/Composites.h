//===- Composites.h - Fuse imported parts into composite mk ops -*- C++ -*-===//
//
// Exporters write norms and activations in pieces. After import these are
// mk ops; the patterns here rebuild the composite mk op (silu, rms_norm) when
// the pieces match it exactly and no intermediate value has another user.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_IMPORT_COMPOSITES_H
#define MIRAGE_IMPORT_COMPOSITES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mirage {

/// Replaces exact silu and rms_norm patterns of mk ops in `func`; returns the
/// number of composite ops created.
unsigned fuseComposites(mlir::func::FuncOp func);

} // namespace mirage

#endif // MIRAGE_IMPORT_COMPOSITES_H
