//===- WrapKernels.h - One mk op as a graph-defined kernel ------*- C++ -*-===//
//
// What --mirage-wrap-kernels does to each mk op outside a graph-defined
// kernel (DESIGN §6), as a function: the cost model costs a pre-defined op
// as the kernel the lowering will run for it.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_WRAPKERNELS_H
#define MIRAGE_TRANSFORMS_WRAPKERNELS_H

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include <cstdint>
#include <string>

namespace mirage {

/// The defaults of --mirage-wrap-kernels' `max-tile` and `block-threads`.
constexpr int64_t kWrapMaxTile = 64;
constexpr int64_t kWrapBlockThreads = 128;

/// The graph-defined kernel that --mirage-wrap-kernels makes of the mk op
/// `op` (not a graph-defined kernel or a reshape): tiles of at most
/// `maxTile` elements along partitioned and walked dims, halved until the
/// block graph fits the shared-memory limit in force, inserted before `op`
/// on its operands; `op` is left as it is. Null, with `why`, when `op`
/// cannot be wrapped.
mk::GraphKernelOp wrapInKernel(mlir::Operation *op, int64_t maxTile,
                               int64_t blockThreads, std::string &why);

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_WRAPKERNELS_H
