//===- SizedRun.h - One run of a lowered function ---------------*- C++ -*-===//
//
// mirage-run compiles a function once and runs it one or more times: once
// for a static function, once per size of a --sizes sweep for a function
// with dynamic dims (docs/dynamic.md). A SizedRun holds what one run needs
// (the seeded inputs and the interpreter's reference at its size) and what
// it measured.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_MIRAGE_RUN_SIZEDRUN_H
#define MIRAGE_TOOLS_MIRAGE_RUN_SIZEDRUN_H

#include "Buffers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"

#include <optional>
#include <string>
#include <vector>

namespace mirage::run {

/// The functions of libMirageCudaRuntime.so that mirage-run calls itself (the
/// lowered host code calls the others). The JIT resolves the host code's
/// mgpu* calls in the same loaded library, so both share its context.
struct GpuRuntime {
  int (*deviceCount)() = nullptr;
  int (*computeCapability)() = nullptr;
  void *(*memAlloc)(uint64_t, void *, bool) = nullptr;
  void (*memFree)(void *, void *) = nullptr;
  void (*memcpy)(void *, void *, size_t, void *) = nullptr;
  void (*streamSynchronize)(void *) = nullptr;
  int (*errorCount)() = nullptr;
};

/// How the runs feed and judge the lowered function (mirage-run's options).
struct RunOptions {
  uint64_t seed = 1;
  double inputScale = 1.0, tolScale = 1.0;
  /// Timed runs after the first one.
  unsigned repeat = 1;
};

struct SizedRun {
  /// The sizes of this run (`tokens=7`), empty for a static function.
  std::string label;
  /// The function at this run's sizes (static), in mk form: where the inputs
  /// and the reference come from. Not used after prepareRun.
  mlir::func::FuncOp func;
  std::vector<Buffer> argBufs, outBufs;
  std::vector<verify::FloatTensor> reference;
  /// Per output, the narrowest storage its computation rounds to.
  llvm::SmallVector<mlir::Type> storage;
  double interpMs = 0, firstMs = 0, perRunMs = 0, maxAbs = 0, maxRel = 0;
  bool passed = false;

  /// Frees the buffers and the reference (the measurements stay).
  void release() {
    argBufs = {};
    outBufs = {};
    reference = {};
  }
};

/// Checks that `run.func` can be run and, `withReference`, makes its seeded
/// inputs (rounded to the argument types), zeroed outputs and the
/// interpreter's reference. Returns why not.
std::optional<std::string> prepareRun(SizedRun &run, bool withReference,
                                      const RunOptions &options);

/// Invokes `name` in `engine` on the buffers of `run` (copies on the GPU
/// when `rt` is given), checks the red zones and compares the outputs with
/// the reference into `run`. Returns whether they match, or nothing after
/// reporting an error (a failed invocation, a CUDA error, a write past a
/// tensor's end).
std::optional<bool> execute(mlir::ExecutionEngine &engine, llvm::StringRef name,
                            SizedRun &run, GpuRuntime *rt,
                            const RunOptions &options);

} // namespace mirage::run

#endif // MIRAGE_TOOLS_MIRAGE_RUN_SIZEDRUN_H
