//===- Pipelines.cpp - Named Mirage pass pipelines --------------*- C++ -*-===//
//
// `mirage-to-gpu`, `mirage-to-ptx` and `mirage-to-cpu`: the lowering of a
// uGraph to GPU-structured IR, then to PTX or to code that runs on the CPU.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

struct PtxOptions : public PassPipelineOptions<PtxOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip: sm_80 or sm_90"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features; default +ptx70 for sm_80, +ptx80 for "
                     "sm_90 (LLVM aborts without one)"),
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
      llvm::cl::desc("Double-buffer loop-walked input tiles with cp.async"),
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
      llvm::cl::desc("Emit the double-buffered cp.async input loads (run as "
                     "synchronous copies)"),
      llvm::cl::init(true)};
};

void buildMirageToGpu(OpPassManager &pm, bool tensorCores, bool asyncCopies,
                      bool registerAccumulators) {
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

} // namespace

void mirage::registerMiragePipelines() {
  PassPipelineRegistration<>(
      "mirage-to-gpu",
      "Lower uGraph functions to gpu.launch over memrefs (host + kernels)",
      [](OpPassManager &pm) {
        buildMirageToGpu(pm, /*tensorCores=*/true, /*asyncCopies=*/true,
                         /*registerAccumulators=*/true);
      });

  PassPipelineRegistration<PtxOptions>(
      "mirage-to-ptx",
      "Lower uGraph functions to PTX through gpu/nvvm (gpu.binary, isa)",
      [](OpPassManager &pm, const PtxOptions &opts) {
        buildMirageToGpu(pm, opts.tensorCores, opts.asyncCopies,
                         opts.registerAccumulators);
        // Constants hoisted out of the launch by canonicalization go back in,
        // so kernels take only buffers as arguments.
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
        nvvm.cubinChip = opts.chip;
        std::string features = opts.features;
        if (features.empty())
          features = StringRef(opts.chip).starts_with("sm_8") ? "+ptx70"
                                                              : "+ptx80";
        nvvm.cubinFeatures = features;
        nvvm.cubinFormat = "isa";
        nvvm.optLevel = opts.optLevel;
        gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
        if (!opts.dumpDir.empty()) {
          mirage::WritePTXOptions ptx;
          ptx.dir = opts.dumpDir;
          pm.addPass(mirage::createWritePTX(ptx));
        }
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
        pm.addPass(createConvertToLLVMPass());
        pm.addPass(createReconcileUnrealizedCastsPass());
      });
}
