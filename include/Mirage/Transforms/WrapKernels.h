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
/// Below this many blocks (about half the SMs of a data-center GPU) the
/// last output dim is tiled finer, down to tiles of kWrapMinTile elements.
/// Chosen on the modelled unfused times of bench/programs and bench/layers
/// (docs/cost-model.md): 128 made the 96-block matmuls of rmsnorm_matmul
/// slower; finer tiles than 16 spill or copy in narrower chunks.
constexpr int64_t kWrapMinBlocks = 64;
constexpr int64_t kWrapMinTile = 16;
/// A matmul's contracted dim is walked in chunks of up to this many times
/// the tile cap (fewer loop steps, each with more loads in flight; 4 made
/// ptxas spill registers in attention's second matmul on sm_80); other
/// walked dims in chunks of the cap.
constexpr int64_t kWrapWalkFactor = 2;

/// The graph-defined kernel that --mirage-wrap-kernels makes of the mk op
/// `op` (not a graph-defined kernel or a reshape): tiles of at most
/// `maxTile` elements along partitioned dims (the last output dim's finer
/// while the grid has fewer than kWrapMinBlocks blocks) and walked dims (a
/// matmul's contracted dim: kWrapWalkFactor times more), halved until the
/// block graph fits the shared-memory limit in force, inserted before `op`
/// on its operands; `op` is left as it is. Null, with `why`, when `op`
/// cannot be wrapped.
mk::GraphKernelOp wrapInKernel(mlir::Operation *op, int64_t maxTile,
                               int64_t blockThreads, std::string &why);

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_WRAPKERNELS_H
