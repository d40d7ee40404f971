//===- UpstreamRun.h - Upstream MLIR's CPU path for linalg/tosa -----------===//
//
// What the differential check of the import (--import-check) runs through
// upstream MLIR rather than the interpreter: the original function (the
// reference) and the ops the import leaves outside mk. Both are widened to
// f32, lowered the way upstream runs linalg/tosa on a CPU (tosa to linalg,
// aggregated ops decomposed, one-shot bufferization with results as
// out-parameters, loops, LLVM) and JIT-compiled by the ExecutionEngine.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_MIRAGE_RUN_UPSTREAMRUN_H
#define MIRAGE_TOOLS_MIRAGE_RUN_UPSTREAMRUN_H

#include "Buffers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mirage::run {

/// Erases every function of `module` but `root` and those it calls.
void keepOnly(mlir::ModuleOp module, mlir::func::FuncOp root);

/// `t` with every float type narrower than `to` (as a scalar, a shaped
/// element type or in a function type) made `to`.
mlir::Type widenType(mlir::Type t, mlir::FloatType to);

/// Makes every float value, constant and type of `module` narrower than `to`
/// (f32 or f64) `to`: the check compares real-valued functions, not
/// linalg's f16 accumulation (a 4096-long f16 dot product is off by several
/// per cent, where mk.matmul accumulates in f32). Extensions and truncations
/// that become no-ops go.
mlir::LogicalResult widenFloats(mlir::ModuleOp module, mlir::FloatType to);

/// A module of linalg/tosa/tensor/arith functions on static tensors, lowered
/// by upstream's CPU path and JIT-compiled. Each function takes its inputs
/// and then one destination per result (buffer-results-to-out-params).
class UpstreamProgram {
public:
  /// Lowers `module` in place and JIT-compiles it; the reason in `why` on
  /// failure.
  static std::unique_ptr<UpstreamProgram> create(mlir::ModuleOp module,
                                                 std::string &why);
  ~UpstreamProgram();

  /// Calls `name` on `inputs` (copied: the lowered code may write into its
  /// arguments) and `outputs` (allocated by the caller with the result
  /// shapes and element types). Adds the run time to `ms`.
  mlir::LogicalResult invoke(llvm::StringRef name,
                             llvm::ArrayRef<const Buffer *> inputs,
                             llvm::MutableArrayRef<Buffer> outputs,
                             std::string &why, double &ms);

private:
  UpstreamProgram() = default;
  std::unique_ptr<mlir::ExecutionEngine> engine;
};

} // namespace mirage::run

#endif // MIRAGE_TOOLS_MIRAGE_RUN_UPSTREAMRUN_H
