//===- CudaRuntime.cpp - mgpu* ABI on the CUDA driver API -----------------===//
//
// The functions that host code lowered by upstream `gpu-to-llvm` calls
// (MLIR 22 ABI): module load from the embedded binary, kernel launch,
// streams, events, device memory, memcpy and memset. One primary context of
// device 0 (or the one set by mgpuSetDefaultDevice), retained on first use and
// made current around every driver call: mirage-run calls mgpuMemcpy and
// mgpuStreamSynchronize on the null stream, which has no context of its own.
// Driver errors are reported on stderr with the failing call, as the host
// code has no error channel.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>

namespace {

int defaultDevice = 0;
int errorCount = 0;

void report(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return;
  ++errorCount;
  const char *name = nullptr;
  cuGetErrorName(r, &name);
  std::fprintf(stderr, "mirage-cuda-runtime: %s failed: %s\n", what,
               name ? name : "unknown error");
}
#define CHECK(call) report(call, #call)

/// Makes the primary context of the default device current on this thread.
struct ScopedContext {
  ScopedContext() {
    static CUcontext context = [] {
      CUcontext ctx = nullptr;
      CHECK(cuInit(0));
      CUdevice dev;
      CHECK(cuDeviceGet(&dev, defaultDevice));
      CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
      return ctx;
    }();
    CHECK(cuCtxPushCurrent(context));
  }
  ~ScopedContext() { CHECK(cuCtxPopCurrent(nullptr)); }
};

/// One driver call with the context current, for the entry points that only
/// forward their arguments.
#define IN_CONTEXT(call)                                                       \
  do {                                                                         \
    ScopedContext scoped;                                                      \
    CHECK(call);                                                               \
  } while (false)

} // namespace

extern "C" {

/// Number of CUDA devices, 0 when there is no driver or no GPU (mirage-run
/// asks before it lowers for the GPU).
int mgpuMirageDeviceCount() {
  if (cuInit(0) != CUDA_SUCCESS)
    return 0;
  int n = 0;
  if (cuDeviceGetCount(&n) != CUDA_SUCCESS)
    return 0;
  return n;
}

/// Compute capability of the default device as major * 10 + minor (90 for
/// sm_90), 0 when there is none; mirage-run picks the PTX target from it.
int mgpuMirageComputeCapability() {
  if (cuInit(0) != CUDA_SUCCESS)
    return 0;
  CUdevice dev;
  int major = 0, minor = 0;
  if (cuDeviceGet(&dev, defaultDevice) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           dev) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           dev) != CUDA_SUCCESS)
    return 0;
  return major * 10 + minor;
}

/// Driver calls that failed so far (each is reported on stderr): the host
/// code has no error channel, so mirage-run asks after every step.
int mgpuMirageErrorCount() { return errorCount; }

void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  ScopedContext scoped;
  CUmodule module = nullptr;
  CHECK(cuModuleLoadData(&module, data));
  return module;
}

CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ScopedContext scoped;
  CUmodule module = nullptr;
  CUjit_option opts[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *vals[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CHECK(cuModuleLoadDataEx(&module, data, 1, opts, vals));
  return module;
}

void mgpuModuleUnload(CUmodule module) { IN_CONTEXT(cuModuleUnload(module)); }

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  ScopedContext scoped;
  CUfunction function = nullptr;
  CHECK(cuModuleGetFunction(&function, module, name));
  return function;
}

/// Grid and block extents come as intptr_t (MLIR's index type).
void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, CUstream stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  ScopedContext scoped;
  if (smem > 48 * 1024)
    // Dynamic shared memory beyond 48 KiB must be opted into per kernel.
    CHECK(cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
  CHECK(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                       smem, stream, params, extra));
}

CUstream mgpuStreamCreate() {
  ScopedContext scoped;
  CUstream stream = nullptr;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

void mgpuStreamDestroy(CUstream stream) { IN_CONTEXT(cuStreamDestroy(stream)); }

void mgpuStreamSynchronize(CUstream stream) {
  IN_CONTEXT(cuStreamSynchronize(stream));
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  IN_CONTEXT(cuStreamWaitEvent(stream, event, 0));
}

CUevent mgpuEventCreate() {
  ScopedContext scoped;
  CUevent event = nullptr;
  CHECK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

void mgpuEventDestroy(CUevent event) { IN_CONTEXT(cuEventDestroy(event)); }

void mgpuEventSynchronize(CUevent event) {
  IN_CONTEXT(cuEventSynchronize(event));
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  IN_CONTEXT(cuEventRecord(event, stream));
}

void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/, bool isHostShared) {
  ScopedContext scoped;
  if (sizeBytes == 0)
    return nullptr;
  CUdeviceptr ptr = 0;
  if (isHostShared)
    CHECK(cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL));
  else
    CHECK(cuMemAlloc(&ptr, sizeBytes));
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  ScopedContext scoped;
  if (ptr)
    CHECK(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, CUstream stream) {
  IN_CONTEXT(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                           reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                           stream));
}

void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  CUstream stream) {
  IN_CONTEXT(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                              stream));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  IN_CONTEXT(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                              stream));
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  IN_CONTEXT(cuMemHostRegister(ptr, sizeBytes, 0));
}

void mgpuMemHostUnregister(void *ptr) { IN_CONTEXT(cuMemHostUnregister(ptr)); }

} // extern "C"
