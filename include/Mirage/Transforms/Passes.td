//===- Passes.td - Mirage transformation passes ------------*- tablegen -*-===//

#ifndef MIRAGE_TRANSFORMS_PASSES_TD
#define MIRAGE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FormThreadGraphs : Pass<"mirage-form-thread-graphs"> {
  let summary = "Fuse element-wise chains of block graphs into mt.thread_graph";
  let description = [{
    Thread-graph formation (DESIGN §3.3) is rule-based, not searched: inside
    every graph-defined kernel, maximal groups of connected block-level
    element-wise ops (`mb.exp`, `mb.div`, ...) that produce tiles of the same
    shape are replaced by one `mt.thread_graph` whose body holds the
    corresponding scalar `mt` ops. Values used outside a group become results
    of its thread graph; groups stay convex (no value leaves a group and comes
    back), so no cycle can form. The loop body and the post-loop part are
    fused separately. Semantics are unchanged; the generated code keeps the
    fused chains in registers.

    Example:

    ```mlir
    %e = mb.exp %s : tensor<1x256x64xf16>
    %m = mb.mul_scalar %e, 0.5 : tensor<1x256x64xf16>
    ```
    becomes
    ```mlir
    %m = mt.thread_graph (%s) : (tensor<1x256x64xf16>) -> tensor<1x256x64xf16> {
    ^bb0(%a: f16):
      %0 = mt.exp %a : f16
      %1 = mt.mul_scalar %0, 5.000000e-01 : f16
      mt.yield %1 : f16
    }
    ```
  }];
  let options = [
    Option<"minOps", "min-ops", "unsigned", /*default=*/"2",
           "Smallest number of element-wise ops worth a thread graph">,
  ];
  let statistics = [
    Statistic<"numThreadGraphs", "thread-graphs", "Thread graphs formed">,
    Statistic<"numFusedOps", "fused-ops", "Block-level ops fused">,
  ];
  let dependentDialects = ["::mirage::mt::MTDialect"];
}

def WrapKernels : Pass<"mirage-wrap-kernels"> {
  let summary = "Wrap every mk op outside a graph-defined kernel into a trivial one";
  let description = [{
    So that all code goes through one lowering path (DESIGN §6), each `mk` op
    that is not a `mk.graph_kernel` becomes a graph-defined kernel computing
    the same op on tiles:

    - the grid partitions up to three output dims (leading dims fully, the
      last two into tiles of at most `max-tile` elements); dims an op needs
      whole (the normalised dim of `rms_norm`, the `concat` dim) stay whole;
    - `matmul` walks its contracted dim and `reduce_*` its reduced dim with
      the for-loop (`accum_sum`, `accum_max`), in chunks of at most
      `max-tile`; other ops run one iteration;
    - broadcast operand dims are replicated (`imap` -1).

    Tiles shrink until the block graph fits the shared-memory limit; an op
    that cannot be tiled (a rank-4 matmul, a row too long for shared memory)
    gets a diagnostic naming it.
  }];
  let options = [
    Option<"maxTile", "max-tile", "int64_t", /*default=*/"64",
           "Largest tile extent along a partitioned or walked dim">,
    Option<"blockThreads", "block-threads", "int64_t", /*default=*/"128",
           "Threads per block of the wrapped kernels">,
  ];
  let statistics = [
    Statistic<"numWrapped", "wrapped-ops", "mk ops wrapped into kernels">,
  ];
  let dependentDialects = ["::mirage::mb::MBDialect"];
}

#endif // MIRAGE_TRANSFORMS_PASSES_TD
