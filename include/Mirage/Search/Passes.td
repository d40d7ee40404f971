//===- Passes.td - Superoptimizer pass ---------------------*- tablegen -*-===//
//
// The user-facing pass of the search library (lib/Search).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_PASSES_TD
#define MIRAGE_SEARCH_PASSES_TD

include "mlir/Pass/PassBase.td"

def MirageSuperoptimize : Pass<"mirage-superoptimize", "::mlir::ModuleOp"> {
  let summary = "replace functions of mk ops with the best verified uGraph";
  let description = [{
    For every `func.func` whose body consists of pre-defined `mk` ops,
    enumerates kernel graphs and the block graphs of their graph-defined
    kernels (docs/search.md), prunes every appended op with abstract
    expressions saturated in an e-graph, verifies complete candidates with a
    finite-field fingerprint at reduced shapes and then with the full
    equivalence check (and a float comparison) at the real shapes, and
    rewrites the function in place with the best verified program under the
    cost model of docs/cost-model.md: modelled time on `chip`, launches
    included (`rank=time`, the default), or kernel count, then modelled time
    (`rank=kernels`). `measured-times` replaces the modelled time of the
    candidates a GPU has timed. Programs with more kernel-level ops are
    searched when none with fewer was verified or, with `rank=time`, when a
    lower bound promises a large gain (`deepen-factor`).

    Each rewritten function gets a remark with the program summary, its
    modelled time and the search statistics; a function the search does not
    support (ops it does not know, dynamic shapes, a graph-defined kernel
    already present) gets a remark saying why and is left unchanged, as is a
    function for which nothing was verified within `time-budget`. The budget
    bounds the whole search of a function; when it runs out the best program
    verified so far is used and the remark says where the budget ran out.
    A function whose results are (or equal) its arguments becomes the
    trivial program that returns them.

    ```mlir
    func.func @f(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>)
        -> tensor<2x6144xf16> {
      %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x4096xf16>
      %o = mk.matmul %n, %w : tensor<2x4096xf16>, tensor<4096x6144xf16>
          -> tensor<2x6144xf16>
      return %o : tensor<2x6144xf16>
    }
    // becomes one mk.graph_kernel whose loop accumulates the matmul and
    // the rms of %x and divides after the loop.
    ```

    With `keep-reference`, the input function is kept as `@<name>_reference`
    and the result carries `mk.reference`, so `--mirage-check-equivalence`
    can check the rewrite.

    A function with one dynamic size (docs/dynamic.md) is searched once per
    class of the size's values (`size-classes`, cut to the size's facts):
    specialised at a power of two in the class's middle, searched as above
    (cached per class), generalised back to dynamic dims (`?` grid dims,
    tail tiles), checked against the input at sample sizes of the class
    (its bounds, 1, a multiple and a non-multiple of every tile) and ranked,
    with the input's own unfused form, by its modelled time over those
    samples. Equal programs of neighbouring classes merge; one program left
    becomes the body, several are kept as private functions that the
    function dispatches to on the run-time size (`mk.size_dispatch`, its
    body stays the input). A function with several dynamic sizes is
    searched per class of one of them (`dispatch-size`, by default the
    first), the others held at their largest value and generalised back;
    the checks and the ranking vary every size.

    A function of at least `partition-min-ops` ops is partitioned
    (docs/partitioning.md): every interval of at most that many ops of a few
    topological orders is outlined into a subprogram, identical subprograms
    are searched once, each with a share of `time-budget`, and the cover of
    the function by subprograms with the least total modelled time is
    spliced back; the unfused form of each subprogram (one kernel per op) is
    always a candidate, so the result is never modelled slower than the
    input. One remark per chosen subprogram gives its ops, its program, its
    modelled and unfused times and whether it was deduplicated; one remark
    on the function gives the totals. A smaller function whose whole search
    verifies nothing is partitioned with the rest of its budget. The
    subprograms' results are kept in the result cache of `cache-dir`
    (docs/cache.md).
  }];
  let options = [
    Option<"maxKernelOps", "max-kernel-ops", "unsigned", /*default=*/"3",
           "kernel-level ops of a candidate (pre-defined ops and "
           "graph-defined kernels)">,
    Option<"maxGraphKernels", "max-graph-kernels", "unsigned",
           /*default=*/"2", "graph-defined kernels of a candidate">,
    Option<"maxBlockOps", "max-block-ops", "unsigned", /*default=*/"0",
           "ops of one block graph (iterators and savers not counted); 0: "
           "8, or 9 for a program with a maximum (online softmax)">,
    Option<"maxKernelInputs", "max-kernel-inputs", "unsigned",
           /*default=*/"4", "inputs of one graph-defined kernel">,
    Option<"maxKernelOutputs", "max-kernel-outputs", "unsigned",
           /*default=*/"2", "outputs of one graph-defined kernel">,
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"65536",
           "thread blocks of one kernel">,
    Option<"maxBlockThreads", "max-block-threads", "int64_t",
           /*default=*/"128", "threads of one block">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "target of the cost model: a part (a100-40gb, a100-80gb, "
           "h100-sxm, h200, a10g, a40, l4, l40s, rtx4090, b200, rtx5090) or "
           "an architecture for its default part (sm_80, sm_86, sm_89, "
           "sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a)">,
    Option<"pruning", "pruning", "bool", /*default=*/"true",
           "prune with abstract expressions (off: only for small cases)">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "seed of the fingerprints and the final check">,
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "worker threads of the enumeration">,
    Option<"timeBudget", "time-budget", "double", /*default=*/"60.0",
           "seconds of search per function: saturation (at most 20 %), "
           "enumeration (until 60 %) and verification (the rest); a check "
           "already started is not interrupted">,
    Option<"verifyBudget", "verify-budget", "double", /*default=*/"0",
           "if > 0, seconds of verification per function as well (within "
           "time-budget)">,
    Option<"finalTests", "final-tests", "unsigned", /*default=*/"1",
           "finite-field tests of the final check at the real shapes">,
    Option<"numerics", "numerics", "bool", /*default=*/"true",
           "check a verified candidate in the kernels' precision (f16/bf16 "
           "storage, f32 accumulation) before accepting it; inaccurate ones "
           "are skipped">,
    Option<"rank", "rank", "std::string", /*default=*/"\"time\"",
           "ranking of programs: time (modelled time, launches included) or "
           "kernels (kernel count, then modelled time)">,
    Option<"measuredTimes", "measured-times", "std::string",
           /*default=*/"\"\"",
           "file of measured kernel times: lines '<function> <microseconds> "
           "<program summary>' (docs/cost-model.md); a candidate whose "
           "summary is listed for its function (or '*') ranks by that time">,
    Option<"deepenFactor", "deepen-factor", "double", /*default=*/"4.0",
           "with rank=time: search programs with one more kernel-level op "
           "only if a lower bound on their modelled time, times this factor, "
           "is below the best found (1: exact branch and bound, 0: never)">,
    Option<"auditFingerprints", "audit-fingerprints", "unsigned",
           /*default=*/"0",
           "run the reduced-shape fingerprint and the full check on this "
           "many candidates and report disagreements (testing aid)">,
    Option<"maxPartitionOps", "max-partition-ops", "unsigned",
           /*default=*/"6",
           "most ops of one subprogram of a partitioned function (1 to 16)">,
    Option<"partitionMinOps", "partition-min-ops", "unsigned",
           /*default=*/"8",
           "functions of at least this many ops are partitioned, smaller ones "
           "are searched whole (the programs of DESIGN section 8 have at most "
           "7)">,
    Option<"partitionJoins", "partition-joins", "bool",
           /*default=*/"true",
           "also search two adjacent chosen subprograms as one where their "
           "union is longer than max-partition-ops and its one-kernel form "
           "fits the block-op bound (docs/partitioning.md)">,
    Option<"partitionWave", "partition-wave", "unsigned",
           /*default=*/"16",
           "subprogram searches per wave of a partitioned function, run in "
           "parallel over `threads` and merged in a fixed order (the result "
           "does not depend on the thread count; docs/partitioning.md)">,
    Option<"partitionSearches", "partition-searches", "bool",
           /*default=*/"false",
           "a remark for every search of a subprogram of a partitioned "
           "function (ops, budget, time, outcome)">,
    Option<"cacheDir", "cache-dir", "std::string", /*default=*/"\"\"",
           "result cache of the subprograms of partitioned functions "
           "(docs/cache.md): a directory, '' for the default "
           "($XDG_CACHE_HOME/mirage or ~/.cache/mirage), 'none' for no cache">,
    Option<"keepReference", "keep-reference", "bool", /*default=*/"false",
           "keep the input as @<name>_reference and point mk.reference "
           "at it">,
    ListOption<"sizeClasses", "size-classes", "int64_t",
               "upper bounds of the classes of a dynamic size, ascending "
               "(default 1,16,64,256,4096; docs/dynamic.md)">,
    Option<"dispatchSizeName", "dispatch-size", "std::string",
           /*default=*/"\"\"",
           "of a function with several dynamic sizes, the one whose classes "
           "are searched and dispatched on (default: the first, in argument "
           "order); the others are searched at their largest value and "
           "generalised back (docs/dynamic.md)">,
  ];
  let statistics = [
    Statistic<"numStates", "states", "search states visited">,
    Statistic<"numPruned", "pruned", "ops pruned by abstract expressions">,
    Statistic<"numDuplicates", "duplicates", "ops equal to an existing value">,
    Statistic<"numCandidates", "candidates", "complete candidate programs">,
    Statistic<"numFingerprinted", "fingerprinted",
              "candidates fingerprinted at reduced shapes">,
    Statistic<"numVerified", "verified",
              "candidates verified at the real shapes">,
    Statistic<"searchMillis", "search-ms", "milliseconds of search">,
    Statistic<"numSubprograms", "subprograms",
              "subprograms of partitioned functions in the result">,
    Statistic<"numSubprogramSearches", "subprogram-searches",
              "searches of distinct subprograms">,
  ];
}

def MirageCostReport : Pass<"mirage-cost-report", "::mlir::ModuleOp"> {
  let summary = "report the modelled time of every kernel and the roofline floor";
  let description = [{
    For every `func.func` of `mk` ops (pre-defined ops, each its own kernel,
    and graph-defined kernels), emits a remark on each kernel with the cost
    model's breakdown on `chip` (docs/cost-model.md): the modelled time and
    which term sets it (memory, compute, latency), DRAM and L2 bytes, the
    arithmetic by unit (tensor-core FLOPs padded to the mma shape, CUDA-core
    and SFU instructions), blocks, threads, shared memory, resident blocks
    per SM and waves; and a remark on the function with the total and the
    roofline floor: its arguments and results moved once over the HBM
    bandwidth, and its (unpadded) arithmetic over the units' peaks. The IR
    is not changed.

    ```
    mirage-opt --mirage-cost-report="chip=h200" f.mlir -o /dev/null
    remark: cost on h200: kernel 0 mk.graph_kernel: 13.9 us = launch 3.0 +
      memory 10.9 (bound) | compute 0.2 | latency 2.0; ...
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "target of the cost model: a part (a100-40gb, a100-80gb, "
           "h100-sxm, h200, a10g, a40, l4, l40s, rtx4090, b200, rtx5090) or "
           "an architecture for its default part (sm_80, sm_86, sm_89, "
           "sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a)">,
  ];
}

#endif // MIRAGE_SEARCH_PASSES_TD
