//===- NamedOps.h - Import of matmuls, layout ops and softmax ---*- C++ -*-===//
//
// The importers of ops that are not element-wise bodies: matmuls (with
// transposed operands), transposes and copies (named or written as
// linalg.generic), concatenation, linalg.softmax, and reductions that drop
// the reduced dim and re-insert it with tensor.expand_shape. Private to
// lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_NAMEDOPS_H
#define MIRAGE_LIB_IMPORT_NAMEDOPS_H

#include "Common.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <optional>

namespace mirage::import {

/// linalg.transpose: mk.transpose (createTranspose).
Reason importTranspose(mlir::linalg::TransposeOp op, mlir::OpBuilder &b);
/// A linalg.generic whose body only yields its one input: the input itself
/// (identity maps) or an mk.transpose (permutation maps). nullopt when `op`
/// is not such a copy.
std::optional<Reason> importCopyGeneric(mlir::linalg::GenericOp op,
                                        mlir::OpBuilder &b);
/// tosa.concat: mk.concat (a single input is forwarded).
Reason importConcat(mlir::tosa::ConcatOp op, mlir::OpBuilder &b);
/// Why a tosa.tile is not imported, or empty: its static multiples, its
/// dims of size > 1 (at most 4), its source and users in mk's rank (looking
/// through a reshape in, and reshapes out, for repeat_kv's rank-5 form).
Reason tileReason(mlir::tosa::TileOp op);
/// Every tosa.tile of `func` that tileReason accepts: mk.concat of copies
/// along each repeated dim, between mk.reshape ops (repeat_kv's
/// reshape-tile-reshape becomes mk.reshape, mk.concat, mk.reshape). Runs
/// before the other ops are imported, as it replaces the reshapes around
/// the tile.
void importTiles(mlir::func::FuncOp func, mlir::OpBuilder &b);
/// A copy that repeats its input (a generic yielding it, or linalg.broadcast;
/// torch-mlir's repeat_kv: a rank-5 broadcast between reshapes) that was not
/// folded into its users: mk.concat of copies along each repeated dim,
/// between mk.reshape ops, as importTiles does. Empty when imported.
Reason importRepeatCopy(mlir::linalg::LinalgOp op, mlir::OpBuilder &b);
/// The reshapes of `func` (tensor.expand_shape/collapse_shape, tosa.reshape)
/// next to mk ops, whose operand an mk op produces or whose users are all mk
/// ops: mk.reshape (a view), so that the mk runs around them join up. Returns
/// the tosa.reshape ops left (between ops that stay outside). A reshape with
/// dynamic dims becomes one only with `keepDynamic` and in the form [K16]
/// allows.
llvm::SmallVector<mlir::Operation *>
importReshapes(mlir::func::FuncOp func, mlir::OpBuilder &b, bool keepDynamic);
/// linalg.softmax over dim d: reduce_max, sub, exp, reduce_sum, div (the
/// max-subtracted form every framework lowers to).
Reason importSoftmax(mlir::linalg::SoftmaxOp op, mlir::OpBuilder &b);
/// linalg.reduce of one dim (addf into a zero init, or maximumf into -inf or
/// the lowest value) whose result is re-expanded to the kept-dim shape.
Reason importLinalgReduce(mlir::linalg::ReduceOp op, mlir::OpBuilder &b);

/// linalg.broadcast that only adds size-1 dims: tensor.expand_shape (a
/// broadcast adding larger dims folds into its consumers instead).
Reason importBroadcast(mlir::linalg::BroadcastOp op, mlir::OpBuilder &b);

/// The input of a copy (a generic yielding its input, or linalg.broadcast)
/// that only broadcasts size-1 dims (input map a broadcast map, output map
/// the identity), or null. A matmul accumulating into such a copy adds the
/// input instead.
mlir::Value broadcastCopySource(mlir::linalg::LinalgOp op);

/// The input of a copy (generic or linalg.broadcast) that broadcasts by
/// dropping loop dims, in order, at least one of size > 1 (torch-mlir's
/// broadcast of a row statistic, 1x8 to 1x8x64 through (d0, d1, d2) -> (d0,
/// d1)), or null. An element-wise generic reading such a copy reads the input
/// instead, through the composed map.
mlir::Value rankRaisingCopySource(mlir::linalg::LinalgOp op);

/// Gives the users of `reduced`, a reduction result without its reduced dim
/// `dim`, the mk reduction result `kept` that keeps it with size 1: a
/// tensor.expand_shape back to the kept shape reads `kept` itself, the other
/// users a tensor.collapse_shape of it (which importReshapes turns into an
/// mk.reshape between mk ops). Inserting size-1 dims moves no data.
void replaceDroppedDimResult(mlir::OpBuilder &b, mlir::Value reduced,
                             mlir::Value kept, int64_t dim);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_NAMEDOPS_H
