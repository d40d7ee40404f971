//===- CostModel.cpp - The search's cost proxy ------------------*- C++ -*-===//

#include "CostModel.h"

#include <algorithm>

namespace mirage::search {

std::optional<DeviceModel> getDeviceModel(llvm::StringRef chip) {
  // Dense fp16 tensor-core rates and HBM bandwidths of the SXM parts; the
  // launch overhead is a typical back-to-back kernel launch.
  if (chip == "sm_80")
    return DeviceModel{"A100", 108, 2.0e12, 312e12, 3.0};
  if (chip == "sm_90")
    return DeviceModel{"H100", 132, 3.35e12, 989e12, 3.0};
  return std::nullopt;
}

double modelledMicros(const DeviceModel &device, const KernelWork &work) {
  double share =
      work.fullyParallel
          ? 1.0
          : std::min(1.0, static_cast<double>(work.blocks) / device.sms);
  double memory = work.bytes / (device.bytesPerSecond * share);
  double compute = work.flops / (device.flopsPerSecond * share);
  return device.launchMicros + std::max(memory, compute) * 1e6;
}

} // namespace mirage::search
