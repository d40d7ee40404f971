//===- BenchSupport.h - What the benchmark tools share ----------*- C++ -*-===//
//
// Set-up and output of the bench/ tools (mirage-search-bench,
// mirage-layer-bench, mirage-verify-bench, mirage-mutation-bench).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_BENCH_BENCHSUPPORT_H
#define MIRAGE_BENCH_BENCHSUPPORT_H

#include "Mirage/InitMirage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mirage::bench {

/// Loads what benchmark programs use into `ctx`: func, arith and the Mirage
/// dialects.
inline void loadBenchDialects(mlir::MLIRContext &ctx) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  registerAllMirageDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
}

/// Writes `value` to `path`, indented; false, with a message on stderr, if
/// the file cannot be written.
inline bool writeJsonFile(llvm::StringRef path, llvm::json::Value value) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "error: cannot write " << path << ": " << ec.message()
                 << "\n";
    return false;
  }
  os << llvm::formatv("{0:2}", std::move(value)) << "\n";
  return true;
}

} // namespace mirage::bench

#endif // MIRAGE_BENCH_BENCHSUPPORT_H
