//===- Passes.td - Mirage conversion passes ----------------*- tablegen -*-===//

#ifndef MIRAGE_CONVERSION_PASSES_TD
#define MIRAGE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMirageToGPU : Pass<"convert-mirage-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower uGraph functions (mk/mb/mt) to gpu.launch over memrefs";
  let description = [{
    Rewrites every function whose body is a DAG of `mk.graph_kernel` ops into
    a host function over memrefs in destination-passing style: the tensor
    arguments become memref arguments, each tensor result becomes a trailing
    memref argument the function writes, intermediate device tensors become
    `memref.alloc`s. Each graph-defined kernel becomes one `gpu.launch` with
    its grid and block:

    - tiles live in dynamic workgroup (shared) memory, one `memref.view` per
      tile; accumulators are kept in f32;
    - every stage is a thread-strided loop over the elements of the tile it
      writes (`for e = tid; e < n; e += nthreads`), so consecutive threads
      touch consecutive addresses (coalesced input iterators and output
      savers) and the code is correct for any number of threads;
    - the for-loop becomes an `scf.for` of `forloop` iterations; input
      iterators copy this block's tile of the iteration, accumulators are
      initialised before the loop, updated in it and finalised after it
      (mean, rms);
    - `mt.thread_graph` bodies are evaluated per element in registers;
    - row reductions (`rms_norm`, `reduce_sum`, `reduce_max`, the row sums
      of `sum_last`, `mean_last`, `rms_last`, `sum_to`) are cooperative:
      strided partial sums per thread, a `gpu.shuffle xor` butterfly over a
      segment of a warp per row, or for fewer rows than warps over every
      warp with one shared-memory step across them;
    - `gpu.barrier` is placed only between stages with a read-after-write or
      write-after-read dependence through shared memory, and at the end of
      every loop iteration;
    - dynamic dims (`?`, docs/dynamic.md) are read from the arguments at run
      time: a kernel launches ceil(size / tile) blocks along each `?` grid
      dim, its last tile's loads are clamped and its stores past the end
      skipped, intermediate buffers are allocated at the run-time size. One
      compiled function serves every size.

    With `tensor-cores`, an f16 matmul tile whose shape is a multiple of
    16x8x16 is computed by `nvgpu.mma.sync` (m16n8k16, f32 accumulation):
    each warp takes 16x8 output tiles in turn and builds its fragments from
    shared memory with the lane layout of the PTX mma instruction. With
    `swizzle-shared` (the default), the operand tiles of those matmuls are
    laid out so that the 8 rows of an ldmatrix phase hit 8 different bank
    groups (CodePlan.h): rows of a multiple of 128 bytes padded by 16
    bytes, rows of 32 or 64 bytes with an XOR swizzle of their 16-byte
    units (the column's unit XOR a function of the row); every access to
    shared memory addresses it through the same layout. The statistics count the
    ldmatrix, fragment and tile-copy sites the static bank rule checked and
    those it found conflicted.

    Tiles move in 16-, 8- or 4-byte chunks (the widest that divides the
    tile's and the device tensor's contiguous rows; trailing dims a tile spans
    whole are one row): `vector.load`/`vector.store` with that alignment, or
    with `async-copies`, `nvgpu.device_async_copy` (`cp.async`, `.cg` for 16
    bytes). A tile without a walked dim (or of a loop of one iteration) is
    loaded once, before the loop. With `async-copies`, a walked tile is
    loaded by a pipeline of up to 4 buffers (fewer where shared memory is
    short): the first `stages - 1` iterations are requested before the loop,
    and iteration i requests iteration i + stages - 1, closes a group and
    waits for all but the newest `stages - 1` (`cp.async.wait_group`). A tile
    whose rows allow no chunk is copied element by element, with a remark
    that says why.

    Element-wise arithmetic is done in f32. Functions with `mk` ops outside a
    graph-defined kernel are rejected with a diagnostic naming the op.

    Calls to a converted function are rewritten to pass buffers
    (`bufferization.to_buffer` of the tensor operands, `memref.alloc` for the
    results, which are handed back as `bufferization.to_tensor`), so callers
    that work on buffers fold to plain memref code.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::bufferization::BufferizationDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"false",
           "Compute f16 matmul tiles whose shape fits m16n8k16 with "
           "nvgpu.mma.sync">,
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"false",
           "Load input tiles with cp.async: walked tiles through a pipeline "
           "of up to 4 buffers, loop-invariant tiles once before the loop">,
    Option<"registerAccumulators", "register-accumulators", "bool",
           /*default=*/"false",
           "Keep for-loop accumulators in registers (loop-carried values) "
           "when each thread owns at most 16 of their elements (row sums: "
           "its parts of at most 16 rows, reduced after the loop); needs "
           "the code to run with the block's full thread count">,
    Option<"swizzleShared", "swizzle-shared", "bool", /*default=*/"true",
           "Lay out the shared-memory operands of tensor-core matmuls with "
           "padded rows (multiples of 128 bytes) or the XOR swizzle of "
           "16-byte units (32- and 64-byte rows) that keeps ldmatrix free of "
           "bank conflicts (off: row-major, to measure what it removes)">,
    Option<"unmaskedVariants", "unmasked-variants", "bool",
           /*default=*/"true",
           "Launch a kernel with tails along dynamic dims (docs/dynamic.md) "
           "as two variants: one without masks where every such size is a "
           "multiple of its tile at run time, the masked one otherwise">,
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Graph-defined kernels lowered">,
    Statistic<"numUnmaskedVariants", "unmasked-variants",
              "Kernels with a second, unmasked variant for sizes that are "
              "multiples of their tiles">,
    Statistic<"numMmaTiles", "mma-matmuls", "Matmul tiles on tensor cores">,
    Statistic<"numBarriers", "barriers", "Barriers emitted">,
    Statistic<"numSharedChecked", "shared-accesses-checked",
              "ldmatrix, mma fragment and tile-copy sites whose shared-memory "
              "bank conflicts the static rule checked">,
    Statistic<"numBankConflicted", "bank-conflicted-accesses",
              "Checked sites that take more wavefronts than a "
              "conflict-free access">,
  ];
}

def GpuLaunchToOpenMP : Pass<"mirage-gpu-launch-to-omp", "::mlir::ModuleOp"> {
  let summary = "Run gpu.launch on the CPU: blocks as loops, threads as OpenMP threads";
  let description = [{
    Rewrites each `gpu.launch` (pre-outlining form, no async tokens) into a
    loop nest over the grid; each thread block is one `omp.parallel` region
    whose threads run the block's code, with `gpu.barrier` as `omp.barrier`.
    Workgroup memory (attributions and `gpu.dynamic_shared_memory`) becomes a
    stack buffer shared by the team.

    Warp-level `nvgpu.mma.sync` (m16n8k16, f16 x f16 -> f32) is emulated with
    `threads = 0`: each thread publishes its fragments in a team-wide buffer,
    the team synchronises, and each thread computes its own result elements
    from the fragments of its warp's lanes (PTX fragment layout). This needs
    every thread of the block to reach each mma the same number of times,
    as the kernels of `convert-mirage-to-gpu` do. `cp.async` copies
    (`nvgpu.device_async_copy`) become synchronous copies, and their groups
    and waits disappear. `gpu.shuffle xor` of an f32 (the butterflies of the
    row reductions) is emulated with the semantics of its NVVM lowering
    (`shfl.sync.bfly` clamped to `width`), with any `threads`: each thread
    writes its value to its slot of a team-wide buffer, the team
    synchronises, each thread reads the slot of lane `lane ^ offset` of its
    warp of 32 consecutive threads if that lane is below `width` (else its
    own value, with `valid` false), and the team synchronises again. Every
    thread must reach each shuffle the same number of times. Other
    warp-level ops are rejected.

    With `threads = 0` each GPU thread is one OpenMP thread, which is correct
    for every kernel. With `threads = N > 0` the team has N threads and
    `gpu.block_dim x` reads N: correct for kernels written for any number of
    threads, like every kernel produced by `convert-mirage-to-gpu`, and much
    faster on a machine with few cores.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"0",
           "OpenMP threads per block (0: one per GPU thread)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::omp::OpenMPDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect", "::mlir::vector::VectorDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
}

def HostBuffersToGPU : Pass<"mirage-host-buffers-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Keep the host function's temporary buffers in device memory";
  let description = [{
    Runs after `gpu-kernel-outlining`, before `gpu-to-llvm`, on every
    `func.func` of the module (the host functions). `convert-mirage-to-gpu`
    allocates the buffers that carry one kernel's result to the next with
    `memref.alloc`, and a result that is not written by a kernel (an argument
    returned as it is) is copied with `memref.copy`; on the CPU that is right,
    on a GPU the kernels would get host pointers. Each `memref.alloc` becomes
    `gpu.alloc`, `memref.dealloc` `gpu.dealloc` and `memref.copy`
    `gpu.memcpy`, each on a stream of its own that is waited for:

    ```mlir
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] () : memref<8x64xf16>
    gpu.wait [%t1]
    ```

    so the lowered host code calls `mgpuMemAlloc`, `mgpuMemFree` and
    `mgpuMemcpy`. The function's arguments must be device buffers already
    (`mirage-run --device=gpu` allocates them). A `gpu.launch` left in a host
    function or a `memref.alloca` there is an error.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numMoved", "moved", "allocations, deallocations and copies "
              "moved to the GPU">,
  ];
}

def WriteKernelManifest : Pass<"mirage-write-kernel-manifest",
                               "::mlir::ModuleOp"> {
  let summary = "Write a JSON manifest of the outlined kernels for a GPU runner";
  let description = [{
    Runs after `gpu-kernel-outlining`. For every `gpu.launch_func` in a host
    function it records, in launch order: the kernel (`module::function`),
    grid, block, dynamic shared memory bytes, and the arguments in order with
    their shapes and element types, each tied to the host function's argument
    index it comes from (or marked as a temporary buffer). A GPU runner loads
    the PTX, allocates the buffers and launches the kernels from it.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write (- for stdout)">,
  ];
}

def WritePTX : Pass<"mirage-write-ptx", "::mlir::ModuleOp"> {
  let summary = "Write the PTX of every gpu.binary to <dir>/<name>.ptx";
  let description = [{
    Runs after `gpu-module-to-binary` with format `isa`: writes each PTX
    assembly object to a file named after its binary.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\".\"",
           "Output directory">,
  ];
}

#endif // MIRAGE_CONVERSION_PASSES_TD
