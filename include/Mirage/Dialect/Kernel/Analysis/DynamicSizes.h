//===- DynamicSizes.h - Sizes of a function's dynamic dims ----*- C++ -*-===//
//
// A kernel-level function may have dynamic dims (`?`). The ops relate them:
// an element-wise op's operands and result have the same token count, a
// matmul's result has its lhs's rows. DynamicSizes groups the dynamic dims of
// a function into sizes (the classes of that relation), merges the facts the
// arguments' `mk.sizes` attributes state about them, and gives each size a
// name. A size is read at run time from an argument's dim; `specialize`
// replaces every dynamic dim by a given value of its size.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_KERNEL_ANALYSIS_DYNAMICSIZES_H
#define MIRAGE_DIALECT_KERNEL_ANALYSIS_DYNAMICSIZES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mirage::mk {

/// One size: the dynamic dims of a function the ops make equal.
struct DynamicSize {
  std::string name;
  int64_t min = 1;
  std::optional<int64_t> max;
  int64_t divisor = 1;
  /// The first argument dim of this size (where it is read at run time).
  unsigned argument = 0, dim = 0;

  /// True when `value` satisfies the facts (bounds, divisor).
  bool admits(int64_t value) const;
  /// "tokens (1 <= tokens <= 4096, a multiple of 8)".
  std::string describe() const;
};

class DynamicSizes {
public:
  /// Groups the dynamic dims of `function` into sizes. Emits a diagnostic and
  /// fails when an op's dynamic dims cannot be related to its operands', two
  /// names meet in one size, or the merged facts admit no value.
  static mlir::FailureOr<DynamicSizes>
  analyze(mlir::FunctionOpInterface function);

  llvm::ArrayRef<DynamicSize> getSizes() const { return sizes; }
  bool empty() const { return sizes.empty(); }
  /// The index of the size of dynamic dim `dim` of `value`, if it has one.
  std::optional<unsigned> findSize(mlir::Value value, unsigned dim) const;
  /// The index of the size called `name`, if there is one.
  std::optional<unsigned> lookup(llvm::StringRef name) const;

  /// Rewrites `function` with every dynamic dim replaced by the value of its
  /// size (`values` has one entry per size) and drops the `mk.sizes`
  /// attributes. Emits a diagnostic and fails, leaving `function` unchanged,
  /// when a value breaks its size's facts.
  mlir::LogicalResult specialize(mlir::FunctionOpInterface function,
                                 llvm::ArrayRef<int64_t> values) const;

private:
  std::vector<DynamicSize> sizes;
  llvm::DenseMap<std::pair<mlir::Value, unsigned>, unsigned> sizeOfDim;
};

/// [K20] `mk.size_dispatch` on a function with a dynamic size: one program
/// per class of the size's values (docs/dynamic.md). The function's body is
/// a program valid at every size (what the interpreter and the checks run);
/// the lowering runs `programs[i]` for a size at most `bounds[i]` (and
/// above every bound the last program). Written
/// `{size = "tokens", bounds = array<i64: 16, 64>, programs = [@a, @b, @c]}`.
struct SizeDispatch {
  std::string size;
  llvm::SmallVector<int64_t> bounds;
  llvm::SmallVector<mlir::FlatSymbolRefAttr> programs;

  /// The dispatch of `op` (a function), if it has one. Fails with the reason
  /// in `why` on a malformed attribute (bounds not positive and ascending,
  /// not one program more than bounds) or a program that is not a function
  /// of the same type next to `op`.
  static mlir::FailureOr<std::optional<SizeDispatch>>
  read(mlir::Operation *op, std::string *why = nullptr);
  /// The program for size `value`.
  mlir::FlatSymbolRefAttr programFor(int64_t value) const;
  /// The attribute.
  mlir::DictionaryAttr toAttr(mlir::MLIRContext *context) const;
};

/// True when a type in `function` (signature or body) has a dynamic dim.
bool hasDynamicDims(mlir::FunctionOpInterface function);

/// Emits "<consumer> needs static shapes ..." on the first function under
/// `root` with an mk op on dynamic dims and fails; succeeds when there is
/// none (other ops with dynamic dims are not the consumer's business).
mlir::LogicalResult rejectDynamicDims(mlir::Operation *root,
                                      llvm::StringRef consumer);

} // namespace mirage::mk

#endif // MIRAGE_DIALECT_KERNEL_ANALYSIS_DYNAMICSIZES_H
