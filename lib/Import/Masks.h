//===- Masks.h - Masks from index compares in linalg bodies ----*- C++ -*-===//
//
// Causal, sliding-window and length masks as frontends write them: an i1
// from arith.cmpi of linalg.index expressions (in the body that selects, or
// in a generic of its own whose i1 or 0/-inf tensor another generic reads).
// Each is a band of loop indices, `lower <= i[c] - i[r] <= upper`, and
// imports as mk.band_mask (DESIGN 3.4, "Masks and selects"). Private to
// lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_MASKS_H
#define MIRAGE_LIB_IMPORT_MASKS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mirage::import {

/// Loop indices `i` with `lower <= i[dims[1]] - i[dims[0]] <= upper` (with
/// one dim, `lower <= i[dims[0]] <= upper`); a missing bound is no bound.
/// Two dims are in increasing order.
struct Band {
  llvm::SmallVector<int64_t, 2> dims;
  std::optional<int64_t> lower, upper;
};

/// The band where the i1 `cond`, computed in a linalg body from
/// linalg.index, integer constants, index casts, addi and subi by
/// arith.cmpi (and arith.andi of such compares on the same dims), holds;
/// with `negate`, where it fails. Failure with the reason in `why`.
mlir::FailureOr<Band> bandOfCondition(mlir::Value cond, bool negate,
                                      std::string &why);

/// The complement of a one-sided band, or failure (the complement of a
/// two-sided band is no band).
mlir::FailureOr<Band> complementOf(const Band &band);

/// A tensor that an all-parallel linalg.generic computes from its indices
/// alone: an i1 condition, true in `band` (`inside`, `outside` empty), or
/// `select(cond, inside, outside)` of two float constants, `band` where cond
/// holds. `band` is in the tensor's dims.
struct BandTensor {
  Band band;
  std::optional<double> inside, outside;
};
std::optional<BandTensor> bandTensorOf(mlir::Value tensor);

/// `band` (in a tensor's dims) in the loop dims of a generic that reads the
/// tensor through `map`, or nullopt when a masked dim is not read by a loop
/// dim.
std::optional<Band> bandThroughMap(const Band &band, mlir::AffineMap map);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_MASKS_H
