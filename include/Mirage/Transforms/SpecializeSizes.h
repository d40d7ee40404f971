//===- SpecializeSizes.h - Static sizes for dynamic dims -------*- C++ -*-===//

#ifndef MIRAGE_TRANSFORMS_SPECIALIZESIZES_H
#define MIRAGE_TRANSFORMS_SPECIALIZESIZES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mirage {

/// Parses `name=value` entries (value a positive integer, each name once).
/// Emits a diagnostic at `loc` and fails on a malformed entry.
mlir::FailureOr<llvm::StringMap<int64_t>>
parseSizeValues(mlir::Location loc, llvm::ArrayRef<std::string> entries);

/// Values of sizes to run or check a dynamic program at: every combination
/// of the values listed per size.
struct SizeSweep {
  llvm::SmallVector<std::pair<std::string, llvm::SmallVector<int64_t>>> axes;
  /// How many combinations there are.
  unsigned size() const;
  /// Combination `index` (< size()), and its label (`tokens=7, kv=100`).
  llvm::StringMap<int64_t> at(unsigned index, std::string *label) const;
};

/// Parses `name=v1:v2:...` entries, where a value is a positive integer or
/// an inclusive range `a..b` (each name once). Emits a diagnostic at `loc`
/// and fails on a malformed entry or more than `maxCombinations`
/// combinations.
mlir::FailureOr<SizeSweep> parseSizeSweep(mlir::Location loc,
                                          llvm::ArrayRef<std::string> entries,
                                          unsigned maxCombinations);

/// Specialises every function of `module` with dynamic dims at `values`
/// (by size name, docs/dynamic.md). Fails with a diagnostic when a
/// function's size is not given or breaks its facts, or a given name is
/// the size of no function.
mlir::LogicalResult specializeSizes(mlir::ModuleOp module,
                                    const llvm::StringMap<int64_t> &values);
/// The same for the given functions only (diagnostics about unused names
/// at `loc`).
mlir::LogicalResult
specializeSizes(llvm::ArrayRef<mlir::FunctionOpInterface> functions,
                const llvm::StringMap<int64_t> &values, mlir::Location loc);

/// A copy of `function` appended to `into` (renamed `name` if not empty)
/// and specialised at `values`: the function's own body at those sizes, for
/// an interpreter or a check, without the attributes that name other
/// functions (`mk.size_dispatch`, `mk.reference`). Fails with a diagnostic
/// as specializeSizes does.
mlir::FailureOr<mlir::func::FuncOp>
specializedCopy(mlir::func::FuncOp function,
                const llvm::StringMap<int64_t> &values, mlir::ModuleOp into,
                llvm::StringRef name = "");

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_SPECIALIZESIZES_H
