//===- ReferencePairs.h - Candidates and their references -------*- C++ -*-===//
//
// The pairs the verification benchmarks check: every function of a module
// that names its reference with `mk.reference`.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_BENCH_VERIFY_REFERENCEPAIRS_H
#define MIRAGE_BENCH_VERIFY_REFERENCEPAIRS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace mirage::bench {

/// (reference, candidate) for every candidate of `module`, in module order.
/// A candidate whose reference does not exist is left out and passed to
/// `missing` with the name it gives.
llvm::SmallVector<std::pair<mlir::func::FuncOp, mlir::func::FuncOp>>
findReferencePairs(
    mlir::ModuleOp module,
    llvm::function_ref<void(mlir::func::FuncOp, mlir::FlatSymbolRefAttr)>
        missing);

} // namespace mirage::bench

#endif // MIRAGE_BENCH_VERIFY_REFERENCEPAIRS_H
