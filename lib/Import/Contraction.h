//===- Contraction.h - Import of contractions as mk.matmul ------*- C++ -*-===//
//
// Every contraction that is a (batched) matmul after a permutation of its
// dims: linalg.matmul and linalg.batch_matmul with any indexing maps
// (transposed or broadcast operands), linalg.contract, and linalg.generic
// whose body is `out + a * b`. Private to lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_CONTRACTION_H
#define MIRAGE_LIB_IMPORT_CONTRACTION_H

#include "Common.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mirage::import {

/// Whether `op`'s body is a contraction, `out + a * b` (either operand order
/// of both ops), a and b its two inputs.
bool hasContractionBody(mlir::linalg::GenericOp op);

/// A contraction with two inputs and projected-permutation maps: each loop
/// dim is a batch dim (in A, B and C), an M dim (A and C), an N dim (B and
/// C) or a K dim (A and B, reduced). A is transposed to (batch, M, K) and B
/// to (batch, K, N), the groups of several dims reshaped to one (views),
/// mk.matmul, then the result reshaped back and transposed to C's order. A
/// batch dim that B lacks (a weight shared by the batch) is an M dim. An
/// init that is not zero is added (C = init + A B); one that is a copy
/// broadcasting size-1 dims is added unbroadcast.
Reason importContraction(mlir::linalg::LinalgOp op, mlir::OpBuilder &b);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_CONTRACTION_H
