//===- SpecializeSizes.h - Static sizes for dynamic dims -------*- C++ -*-===//

#ifndef MIRAGE_TRANSFORMS_SPECIALIZESIZES_H
#define MIRAGE_TRANSFORMS_SPECIALIZESIZES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mirage {

/// Parses `name=value` entries (value a positive integer, each name once).
/// Emits a diagnostic at `loc` and fails on a malformed entry.
mlir::FailureOr<llvm::StringMap<int64_t>>
parseSizeValues(mlir::Location loc, llvm::ArrayRef<std::string> entries);

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

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_SPECIALIZESIZES_H
