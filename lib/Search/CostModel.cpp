//===- CostModel.cpp - The search's cost proxy ------------------*- C++ -*-===//

#include "Mirage/Search/CostModel.h"

#include <algorithm>
#include <cmath>

namespace mirage::search {

std::optional<DeviceModel> getDeviceModel(llvm::StringRef chip) {
  // SXM parts: SMs, HBM bandwidth, L2 size and bandwidth, dense fp16 tensor-core rate, fp16 rate of
  // the CUDA cores; the launch overhead is a typical back-to-back launch.
  if (chip == "sm_80")
    return DeviceModel{"A100", 108, 2.0e12, 40e6, 5.0e12, 312e12, 39e12, 3.0};
  if (chip == "sm_90")
    return DeviceModel{"H100", 132, 3.35e12, 50e6, 8.0e12, 989e12, 134e12,
                       3.0};
  return std::nullopt;
}

void addInputLoads(const DeviceModel &device, KernelWork &work,
                   double tensorBytes, double loadedBytes) {
  if (loadedBytes > tensorBytes && tensorBytes <= device.l2Bytes) {
    work.bytes += tensorBytes;
    work.l2Bytes += loadedBytes - tensorBytes;
    return;
  }
  work.bytes += loadedBytes;
}

double modelledMicros(const DeviceModel &device, const KernelWork &work) {
  double share =
      work.fullyParallel
          ? 1.0
          : std::min(1.0, static_cast<double>(work.blocks) / device.sms);
  double memory = (work.bytes / device.bytesPerSecond +
                   work.l2Bytes / device.l2BytesPerSecond) /
                  share;
  double compute = (work.tensorFlops / device.tensorFlopsPerSecond +
                    work.vectorFlops / device.vectorFlopsPerSecond) /
                   share;
  double waves =
      work.fullyParallel
          ? 1.0
          : std::ceil(static_cast<double>(work.blocks) /
                      (device.sms * kResidentBlocksPerSM));
  double latency =
      static_cast<double>(work.loopIterations) * waves * kIterationMicros;
  return device.launchMicros +
         std::max(std::max(memory, compute) * 1e6, latency);
}

} // namespace mirage::search
