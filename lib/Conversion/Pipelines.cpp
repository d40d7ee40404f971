//===- Pipelines.cpp - Named Mirage pass pipelines --------------*- C++ -*-===//
//
// `mirage-to-gpu`, `mirage-to-ptx` and `mirage-to-cpu`: the lowering of a
// uGraph to GPU-structured IR, then to PTX or to code that runs on the CPU.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Search/GPUTargets.h"
#include "Mirage/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

struct PtxOptions : public PassPipelineOptions<PtxOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target: an architecture (sm_80, sm_86, sm_89, sm_90, "
                     "sm_90a, sm_100, sm_100a, sm_120, sm_120a) or a part of "
                     "the cost model (a100-80gb, a10g, l40s, h200, b200, "
                     "rtx5090, ...), which selects its architecture"),
      llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("LLVM NVPTX features; default the architecture's PTX "
                     "version (+ptx70 for sm_80, +ptx71 sm_86, +ptx78 sm_89, "
                     "+ptx80 sm_90(a), +ptx86 sm_100(a), +ptx87 sm_120(a))"),
      llvm::cl::init("")};
  Option<std::string> dumpDir{
      *this, "dump-dir",
      llvm::cl::desc("If set, write <dir>/manifest.json and one .ptx file per "
                     "kernel module"),
      llvm::cl::init("")};
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Compute fitting f16 matmul tiles with nvgpu.mma.sync"),
      llvm::cl::init(true)};
  Option<bool> asyncCopies{
      *this, "async-copies",
      llvm::cl::desc("Load input tiles with cp.async (walked tiles through a "
                     "pipeline of up to 4 buffers)"),
      llvm::cl::init(true)};
  Option<bool> registerAccumulators{
      *this, "register-accumulators",
      llvm::cl::desc("Keep for-loop accumulators in registers where each "
                     "thread owns at most 16 elements"),
      llvm::cl::init(true)};
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("LLVM optimisation level"),
                       llvm::cl::init(3)};
  Option<bool> deviceBuffers{
      *this, "device-buffers",
      llvm::cl::desc("Allocate the host function's temporaries in device "
                     "memory (mirage-host-buffers-to-gpu), so that the "
                     "lowered host code runs on a GPU (mirage-run "
                     "--device=gpu); off: host memref.alloc, as the kernel "
                     "manifest describes them"),
      llvm::cl::init(false)};
};

struct CpuOptions : public PassPipelineOptions<CpuOptions> {
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("OpenMP threads per thread block (0: one per GPU "
                     "thread)"),
      llvm::cl::init(2)};
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Emit the tensor-core (nvgpu.mma.sync) matmul code and "
                     "emulate it; needs threads=0"),
      llvm::cl::init(false)};
  Option<bool> asyncCopies{
      *this, "async-copies",
      llvm::cl::desc("Emit the pipelined cp.async input loads (run as "
                     "synchronous copies)"),
      llvm::cl::init(true)};
};

void buildMirageToGpu(OpPassManager &pm, bool tensorCores, bool asyncCopies,
                      bool registerAccumulators) {
  // Ops the import left outside mk stay in the output for upstream to lower.
  // The LLVM conversions below run over the whole module, bodies of those
  // ops included: a named linalg op (matmul, batch_matmul, ...) whose
  // arith.mulf/addf became llvm.fmul/fadd no longer verifies ("expected
  // add/mul op in the body"), so named ops are generalized first; a
  // linalg.generic with LLVM ops in its body is still valid, and upstream's
  // linalg lowering still takes it.
  pm.addPass(createLinalgGeneralizeNamedOpsPass());
  // Every mk op outside a graph-defined kernel goes through the same path.
  pm.addPass(mirage::createWrapKernels());
  mirage::ConvertMirageToGPUOptions options;
  options.tensorCores = tensorCores;
  options.asyncCopies = asyncCopies;
  options.registerAccumulators = registerAccumulators;
  pm.addPass(mirage::createConvertMirageToGPU(options));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// The PTX pipeline on the architecture `opts.chip` names, or an error
/// through `errorHandler` when it names none the lowering supports or when
/// `features` ask for a PTX version the architecture does not have.
LogicalResult
buildMirageToPtx(OpPassManager &pm, const PtxOptions &opts,
                 function_ref<LogicalResult(const Twine &)> errorHandler) {
  const mirage::search::GpuArch *arch =
      mirage::search::resolveGpuChip(opts.chip);
  if (!arch)
    return errorHandler("mirage-to-ptx: unsupported chip '" + opts.chip +
                        "' (expected " + mirage::search::getGpuChipNames() +
                        ")");
  std::string features = opts.features;
  if (features.empty())
    features = mirage::search::getPtxFeatures(*arch);
  unsigned ptx = mirage::search::getRequestedPtxVersion(features);
  if (ptx && ptx < arch->minPtxVersion)
    return errorHandler("mirage-to-ptx: features '" + features +
                        "' ask for PTX " + Twine(ptx / 10) + "." +
                        Twine(ptx % 10) + ", but " + arch->name +
                        " needs PTX " + Twine(arch->minPtxVersion / 10) + "." +
                        Twine(arch->minPtxVersion % 10) + " or newer");

  buildMirageToGpu(pm, opts.tensorCores, opts.asyncCopies,
                   opts.registerAccumulators);
  // Constants hoisted out of the launch by canonicalization go back in, so
  // kernels take only buffers as arguments.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  if (!opts.dumpDir.empty()) {
    mirage::WriteKernelManifestOptions manifest;
    manifest.output = opts.dumpDir + "/manifest.json";
    pm.addPass(mirage::createWriteKernelManifest(manifest));
  }
  if (opts.deviceBuffers)
    pm.addPass(mirage::createHostBuffersToGPU());
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = arch->name;
  nvvm.cubinFeatures = features;
  nvvm.cubinFormat = "isa";
  nvvm.optLevel = opts.optLevel;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
  if (!opts.dumpDir.empty()) {
    mirage::WritePTXOptions ptxOptions;
    ptxOptions.dir = opts.dumpDir;
    pm.addPass(mirage::createWritePTX(ptxOptions));
  }
  return success();
}

} // namespace

void mirage::registerMiragePipelines() {
  PassPipelineRegistration<>(
      "mirage-to-gpu",
      "Lower uGraph functions to gpu.launch over memrefs (host + kernels)",
      [](OpPassManager &pm) {
        buildMirageToGpu(pm, /*tensorCores=*/true, /*asyncCopies=*/true,
                         /*registerAccumulators=*/true);
      });

  // Registered with a builder that can fail: a chip the backend does not
  // support (sm_70, where it aborts on cp.async; sm_86 with PTX 7.0, where it
  // aborts on the target) is a diagnostic and a failed pipeline, never a
  // crash inside LLVM.
  registerPassPipeline(
      "mirage-to-ptx",
      "Lower uGraph functions to PTX through gpu/nvvm (gpu.binary, isa)",
      [](OpPassManager &pm, StringRef optionsText,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        PtxOptions opts;
        if (failed(opts.parseFromString(optionsText)))
          return failure();
        return buildMirageToPtx(pm, opts, errorHandler);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(PtxOptions());
      });

  PassPipelineRegistration<CpuOptions>(
      "mirage-to-cpu",
      "Lower uGraph functions to LLVM code that runs the kernels on the CPU "
      "(blocks as loops, threads as OpenMP threads)",
      [](OpPassManager &pm, const CpuOptions &opts) {
        // The mma emulation needs one OpenMP thread per GPU thread; so do
        // accumulators in registers (each thread owns fixed elements of the
        // block's thread count).
        buildMirageToGpu(pm, opts.tensorCores, opts.asyncCopies,
                         /*registerAccumulators=*/opts.threads == 0);
        GpuLaunchToOpenMPOptions omp;
        omp.threads = opts.threads;
        pm.addPass(createGpuLaunchToOpenMP(omp));
        // Folds the fragment vectors of emulated mma ops into scalars; the
        // loop-carried accumulators stay vectors and lower here.
        pm.addPass(createCanonicalizerPass());
        pm.addPass(createConvertVectorToLLVMPass());
        pm.addPass(createSCFToControlFlowPass());
        pm.addPass(memref::createExpandStridedMetadataPass());
        // Dynamic dims: the views' sizes and strides are affine.apply ops
        // once expanded, and the grids divide with arith.ceildivui.
        pm.addPass(createLowerAffinePass());
        pm.addPass(arith::createArithExpandOpsPass());
        pm.addPass(createConvertToLLVMPass());
        pm.addPass(createReconcileUnrealizedCastsPass());
      });
}
