//===- AbsorbConversions.h - Conversions folded into kernels ----*- C++ -*-===//
//
// A frontend's casts between storage types (bf16 activations normalised in
// f32, say) are mk.convert ops between kernels: each a kernel of its own that
// reads and writes a whole tensor. absorbConversions moves every conversion
// next to a graph-defined kernel into it, as an mb.convert after an input
// iterator (the kernel reads the unconverted tensor) or before an output
// saver (the kernel writes the converted storage type), DESIGN §3.4. The
// partitioned search runs it after its splice, --mirage-wrap-kernels after
// wrapping the compute ops.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_ABSORBCONVERSIONS_H
#define MIRAGE_TRANSFORMS_ABSORBCONVERSIONS_H

namespace mlir {
class Operation;
} // namespace mlir

namespace mirage {

/// Folds every mk.convert under `root` whose operand is the only use of a
/// graph-defined kernel's result into that kernel, or else whose users are
/// all graph-defined kernels into them, unless a kernel would then exceed
/// its shared memory or fail to verify; returns how many it folded.
unsigned absorbConversions(mlir::Operation *root);

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_ABSORBCONVERSIONS_H
