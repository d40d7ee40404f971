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

#endif // MIRAGE_TRANSFORMS_PASSES_TD
