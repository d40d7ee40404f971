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
      while the grid has fewer than 64 blocks (a decode matmul of a few
      rows), the last dim's tile halves, down to 16 elements;
    - `matmul` walks its contracted dim in chunks of at most twice
      `max-tile`, `reduce_*` its reduced dim in chunks of at most `max-tile`,
      with the for-loop (`accum_sum`, `accum_max`); other ops run one
      iteration;
    - broadcast operand dims are replicated (`imap` -1).

    Layout ops (`mk.transpose`, a concat of one value with itself) next to
    the wrapped kernels become views of their input iterators or output
    savers (`--mirage-absorb-views`) instead of kernels of their own; the
    others are wrapped last, like conversions.

    Tiles shrink until the block graph fits the shared-memory limit; an op
    that cannot be tiled (a rank-4 matmul, a row too long for shared memory)
    gets a diagnostic naming it.
  }];
  let options = [
    Option<"maxTile", "max-tile", "int64_t", /*default=*/"::mirage::kWrapMaxTile",
           "Largest tile extent along a partitioned or walked dim">,
    Option<"blockThreads", "block-threads", "int64_t",
           /*default=*/"::mirage::kWrapBlockThreads",
           "Threads per block of the wrapped kernels">,
  ];
  let statistics = [
    Statistic<"numWrapped", "wrapped-ops", "mk ops wrapped into kernels">,
  ];
  let dependentDialects = ["::mirage::mb::MBDialect"];
}

def AbsorbViews : Pass<"mirage-absorb-views"> {
  let summary = "Fold layout ops next to graph-defined kernels into their views";
  let description = [{
    Chains of `mk.transpose`, `mk.reshape` and `mk.concat` of one value with
    itself (a repeat) that feed an operand of a `mk.graph_kernel` become a
    `view` of the operand's input iterators, which then read the chain's
    source in place; a kernel result whose only users are a chain of
    transposes and reshapes is written through its output saver's view
    directly into the chain's result (DESIGN §3.4). Layout ops left without
    users are erased. A chain whose composition is not a strided view is
    left as it is. `--mirage-superoptimize` runs this on its result.

    ```mlir
    %k1 = mk.reshape %k : tensor<8x32xf16> -> tensor<8x2x16xf16>
    %kh = mk.transpose %k1 perm = [1, 0, 2] : tensor<8x2x16xf16> -> tensor<2x8x16xf16>
    %y = mk.graph_kernel (%kh) ... {
    ^bb0(%K: tensor<2x8x16xf16>):
      %t = mb.input_iter %K imap = [0, -1, -1] fmap = -1 : tensor<2x8x16xf16> -> tensor<1x8x16xf16>
    // becomes
    %y = mk.graph_kernel (%k) ... {
    ^bb0(%K: tensor<8x32xf16>):
      %t = mb.input_iter %K imap = [0, -1, -1] fmap = -1
          view = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
          : tensor<8x32xf16> -> tensor<1x8x16xf16>
    ```
  }];
  let statistics = [
    Statistic<"numInputs", "view-inputs", "Kernel operands read through a view">,
    Statistic<"numOutputs", "view-outputs", "Kernel results written through a view">,
    Statistic<"numErased", "erased-ops", "Layout ops erased">,
  ];
  let dependentDialects = ["::mirage::mb::MBDialect"];
}

def SpecializeSizes : Pass<"mirage-specialize-sizes", "::mlir::ModuleOp"> {
  let summary = "Give the dynamic dims of kernel-level functions static sizes";
  let description = [{
    Every function with dynamic dims (`?`) becomes the function at the sizes
    given by `sizes`, a list of `name=value` entries: the names are those of
    the functions' sizes (`#mk.size<name = ...>` on an argument, else `s0`,
    `s1`, ... by order of appearance; docs/dynamic.md). Every dynamic dim
    the ops make the same size takes the same value. A function's size that
    is not given, a value that breaks the size's facts (bounds, divisor), a
    name no function has, or a malformed entry is a diagnostic.

    ```mlir
    // --mirage-specialize-sizes="sizes=tokens=100"
    func.func @f(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens">]})
        -> tensor<?x64xf16>
    // becomes
    func.func @f(%x: tensor<100x64xf16>) -> tensor<100x64xf16>
    ```
  }];
  let options = [
    ListOption<"sizes", "sizes", "std::string",
               "Values of the dynamic sizes, as name=value">,
  ];
}

#endif // MIRAGE_TRANSFORMS_PASSES_TD
