//===- Mutations.h - Single mutations of a candidate program ----*- C++ -*-===//
//
// The mutations of mirage-mutation-bench (MutationBench.cpp): enumerated on a
// candidate function, applied with the C++ API to a clone of it, after which
// the clone's result types are re-inferred so that the MLIR verifier decides
// whether the mutant is a valid program.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_BENCH_VERIFY_MUTATIONS_H
#define MIRAGE_BENCH_VERIFY_MUTATIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace mirage::mutation {

/// The kinds of mutation, in the order of the report's table.
enum class MutKind {
  Imap,
  Fmap,
  Omap,
  Accum,
  Unary,
  Binary,
  Swap,
  Reduce,
  Const,
  Grid,
  Forloop,
  Operand,
  MapSwap
};
constexpr unsigned kNumKinds = 13;
/// "imap", "fmap", ...: the name of a kind in the report.
const char *kindName(MutKind k);

/// One single mutation of the op at position `opIndex` of the candidate's
/// pre-order walk (the same position in a clone).
struct Mutation {
  MutKind kind = MutKind::Imap;
  unsigned opIndex = 0;
  /// imap/omap/grid entry, or which constant (attribute name in `attr`).
  int entry = 0;
  /// New map entry, dim, dimx, grid or forloop value.
  int64_t value = 0;
  /// New constant.
  double constant = 0;
  /// Replacement op name (accum, unary, binary, reduce).
  std::string newOp;
  std::string attr;
  std::string description;
  /// Operand: which operand gets which value (result `srcNumber` of the op
  /// at `srcOp`, or its region's block argument `srcNumber`).
  unsigned operandNumber = 0, srcOp = 0, srcNumber = 0;
  bool srcIsArgument = false;
};

/// Every single mutation of `func`, in the order of its pre-order walk.
std::vector<Mutation> enumerateMutations(mlir::func::FuncOp func);

/// Applies `m` to `func`, a clone of the function `m` was enumerated on.
/// Returns false with `why` when the mutation cannot be built.
bool applyMutation(mlir::func::FuncOp func, const Mutation &m,
                   std::string &why);

/// Recomputes the result types of the ops of `func` in order (tile shapes
/// from grid, forloop, imap and fmap; accumulator, thread-graph and
/// output-saver shapes; the shape rules of the other ops). Kernel and
/// function results stay as written: the verifier compares them. Returns
/// false with `why` if a tile shape or a shape rule fails.
bool retypeFunction(mlir::func::FuncOp func, std::string &why);

/// `d` with 9 significant digits.
std::string formatDouble(double d);

} // namespace mirage::mutation

#endif // MIRAGE_BENCH_VERIFY_MUTATIONS_H
