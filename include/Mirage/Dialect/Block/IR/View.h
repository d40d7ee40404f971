//===- View.h - Strided views of device tensors -----------------*- C++ -*-===//
//
// An input iterator may read, and an output saver write, its kernel-level
// tensor through a view of the device tensor (DESIGN §3.4): a permutation of
// dims, a split or merge of dims, a broadcast (stride 0), a static slice, or
// a composition of them. In the IR a view is an affine map from the view's
// (logical) index to the device tensor's index, e.g. a head split of
// Q[tokens, heads * 16] read as [heads, tokens, 16]:
//
//   affine_map<(h, t, d) -> (t, h * 16 + d)>
//
// and GQA's shared K/V heads (two query heads per KV head):
//
//   affine_map<(h, t, d) -> (t, (h floordiv 2) * 16 + d)>
//
// StridedView is the analysed form: every result of the map is a sum of
// *modes*, each a digit of one logical index, `(i_k floordiv radix) mod
// extent`, times a constant, plus a constant offset. So the device offset of
// a logical index is a sum of one function per logical dim (a view is
// separable), which the evaluators, the lowering and the cost model use.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_VIEW_H
#define MIRAGE_DIALECT_BLOCK_IR_VIEW_H

#include "mlir/IR/AffineMap.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace mirage::mb {
using llvm::ArrayRef;
using llvm::SmallVector;
using mlir::FailureOr;

/// The row-major strides (in elements) of a tensor of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

/// One digit of logical dim `dim`: `(i_dim floordiv radix) mod extent`,
/// moving `stride` elements in the device tensor's row-major order.
struct ViewMode {
  unsigned dim = 0;
  int64_t radix = 1;
  int64_t extent = 1;
  int64_t stride = 0;
  bool operator==(const ViewMode &o) const {
    return dim == o.dim && radix == o.radix && extent == o.extent &&
           stride == o.stride;
  }
};

/// A view of a device tensor of `deviceShape` as a tensor of `shape`.
class StridedView {
public:
  /// The identity view of a row-major tensor of `shape`.
  static StridedView identity(ArrayRef<int64_t> shape);

  /// Why `analyze` failed.
  enum class Error { Arity, Form, Bounds };
  /// Analyses `map` (logical index -> device index) over a logical tensor of
  /// `shape`; fails, with the reason in `why` (and `error`), when the map
  /// does not map the dims without symbols, is not a sum of modes with
  /// positive coefficients, or reaches outside the device tensor.
  static FailureOr<StridedView> analyze(mlir::AffineMap map,
                                        ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> deviceShape,
                                        std::string &why,
                                        Error *error = nullptr);

  ArrayRef<int64_t> getShape() const { return shape; }
  ArrayRef<int64_t> getDeviceShape() const { return deviceShape; }
  ArrayRef<ViewMode> getModes() const { return modes; }
  int64_t getOffset() const { return offset; }

  /// The device tensor's row-major offset of logical index `idx`.
  int64_t linearOffset(ArrayRef<int64_t> idx) const;
  /// The part of the offset that logical dim `dim` at index `i` contributes
  /// (linearOffset is the offset plus the sum over dims).
  int64_t dimOffset(unsigned dim, int64_t i) const;
  /// Offsets of every index of every dim (dimOffset tabulated).
  SmallVector<SmallVector<int64_t>> offsetTables() const;

  /// Whether every device element is reached by exactly one logical index
  /// (what an output saver writes through): the modes of every dim tile its
  /// index exactly and the modes' strides form a row-major cover of the
  /// device tensor.
  bool isOneToOne(std::string &why) const;
  /// Whether this is the identity of a tensor of the same shape.
  bool isIdentity() const;
  /// The widest run, at most `maxElems` elements and a power of two, that
  /// every tile of the view along its last dim reads as consecutive aligned
  /// device elements: the last dim's lowest digit has stride 1 and an extent
  /// the run divides, and every other stride and the offset are multiples.
  int64_t contiguousRun(int64_t maxElems) const;

  /// The affine map of the view in the form `analyze` reads back; fails when
  /// a mode straddles device dims (e.g. a merge of a sliced dim).
  FailureOr<mlir::AffineMap> toAffineMap(mlir::MLIRContext *ctx) const;

  // Composition: the view of this view's logical tensor after an op.
  /// mk.transpose: result dim k is dim perm[k].
  StridedView transposed(ArrayRef<int64_t> perm) const;
  /// mk.reshape (row-major order kept); fails when a dim of the new shape
  /// would cut a mode at a place its extent is not divisible by.
  FailureOr<StridedView> reshaped(ArrayRef<int64_t> newShape) const;
  /// `times` copies along `dim` (mk.concat of one value with itself).
  StridedView repeated(unsigned dim, int64_t times) const;

private:
  SmallVector<int64_t, 4> shape, deviceShape;
  /// By dim, then radix.
  SmallVector<ViewMode, 8> modes;
  int64_t offset = 0;

  void normalize();
};

/// For each result of `map` (a device dim), the logical dim it passes
/// through as it is: the result is that dim alone and no other result reads
/// it (a head split `(t, h, d) -> (t, h * 64 + d)` passes dim 0 through);
/// -1 otherwise.
SmallVector<int64_t> passedThroughDims(mlir::AffineMap map);

/// [K19] Whether a view of a device tensor of `device` shape as a logical
/// tensor of `logical` shape, either with dynamic dims, has strides that do
/// not depend on the sizes: the device tensor has at most one dynamic dim,
/// passed through from a dynamic logical dim (passedThroughDims), not its
/// last dim and after dims of extent 1 only; every dynamic logical dim is
/// passed through to it. Fails, saying why, otherwise.
mlir::LogicalResult checkDynamicView(mlir::AffineMap map,
                                     ArrayRef<int64_t> logical,
                                     ArrayRef<int64_t> device,
                                     std::string &why);

/// The device shape of such a view when its logical tensor has the static
/// shape `logical`: a dynamic device dim takes the extent of the logical
/// dim it passes through.
SmallVector<int64_t> staticDeviceShape(mlir::AffineMap map,
                                       ArrayRef<int64_t> logical,
                                       ArrayRef<int64_t> device);

} // namespace mirage::mb

#endif // MIRAGE_DIALECT_BLOCK_IR_VIEW_H
