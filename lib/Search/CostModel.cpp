//===- CostModel.cpp - Analytical GPU cost model ----------------*- C++ -*-===//
//
// The targets table and the time of one kernel; docs/cost-model.md gives the
// formulas and the sources of the figures.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CostModel.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace mirage::search;

namespace {

// SMs, clock, HBM, L2 size and bandwidth, shared memory per SM and per block,
// registers, threads and blocks per SM, tensor-core peak, CUDA-core rate
// (FP32 lanes x clock), SFU rate (16 per SM per clock), launch, first tile
// load, unhidden part of an iteration.
constexpr double kA100Clock = 1.41e9, kHopperClock = 1.98e9;
const DeviceModel kDevices[] = {
    {"a100-40gb", "sm_80", 108, kA100Clock, 1.555e12, 40e6, 5.0e12, 167936,
     166912, 65536, 2048, 32, 312e12, 108 * 64 * kA100Clock,
     108 * 16 * kA100Clock, 3.0, 0.5, 0.1},
    {"a100-80gb", "sm_80", 108, kA100Clock, 2.039e12, 40e6, 5.0e12, 167936,
     166912, 65536, 2048, 32, 312e12, 108 * 64 * kA100Clock,
     108 * 16 * kA100Clock, 3.0, 0.5, 0.1},
    {"h100-sxm", "sm_90", 132, kHopperClock, 3.35e12, 50e6, 8.0e12, 233472,
     232448, 65536, 2048, 32, 989e12, 132 * 128 * kHopperClock,
     132 * 16 * kHopperClock, 3.0, 0.5, 0.1},
    {"h200", "sm_90", 132, kHopperClock, 4.8e12, 50e6, 8.0e12, 233472, 232448,
     65536, 2048, 32, 989e12, 132 * 128 * kHopperClock,
     132 * 16 * kHopperClock, 3.0, 0.5, 0.1},
};

} // namespace

llvm::ArrayRef<DeviceModel> mirage::search::getDeviceModels() {
  return kDevices;
}

std::optional<DeviceModel> mirage::search::getDeviceModel(llvm::StringRef target) {
  // The architectures select their default part.
  if (target == "sm_80")
    target = "a100-80gb";
  else if (target == "sm_90")
    target = "h100-sxm";
  for (const DeviceModel &d : kDevices)
    if (target == d.name)
      return d;
  return std::nullopt;
}

std::string mirage::search::getDeviceModelNames() {
  std::string s;
  for (const DeviceModel &d : kDevices)
    s += std::string(d.name) + ", ";
  return s + "sm_80 (a100-80gb) or sm_90 (h100-sxm)";
}

double mirage::search::residentBlocksPerSM(const DeviceModel &device,
                                           int64_t threads, double smemBytes) {
  double t = static_cast<double>(std::max<int64_t>(threads, 1));
  double r = std::min(device.maxBlocksPerSM,
                      std::floor(device.maxThreadsPerSM / t));
  r = std::min(r, std::floor(device.registersPerSM / (t * kRegistersPerThread)));
  if (smemBytes > 0)
    r = std::min(r, std::floor(device.smemPerSM /
                               (smemBytes + kReservedSmemPerBlock)));
  return std::max(r, 1.0);
}

KernelTime mirage::search::modelKernel(const DeviceModel &device,
                                       const KernelWork &work) {
  KernelTime t;
  t.launch = device.launchMicros;
  if (!work.fullyParallel) {
    double blocks = static_cast<double>(std::max<int64_t>(work.blocks, 1));
    t.residentBlocks = residentBlocksPerSM(device, work.threads, work.smemBytes);
    t.share = std::min(1.0, blocks / device.sms);
    t.memoryShare = std::min(1.0, kSmBandwidthHeadroom * blocks / device.sms);
    t.waves = std::ceil(blocks / (device.sms * t.residentBlocks));
  }
  t.memory = (work.bytes / device.bytesPerSecond +
              work.l2Bytes / device.l2BytesPerSecond) /
             t.memoryShare * 1e6;
  t.compute = (work.tensorFlops / device.tensorFlopsPerSecond +
               work.cudaOps / device.cudaOpsPerSecond +
               work.sfuOps / device.sfuOpsPerSecond) /
              t.share * 1e6;
  t.latency = t.waves * (device.firstLoadMicros +
                         static_cast<double>(work.loopIterations) *
                             device.iterationMicros);
  double body = t.memory;
  if (t.compute > body) {
    body = t.compute;
    t.bound = "compute";
  }
  if (t.latency > body) {
    body = t.latency;
    t.bound = "latency";
  }
  t.total = t.launch + body;
  return t;
}

double mirage::search::modelledMicros(const DeviceModel &device,
                                      const KernelWork &work) {
  return modelKernel(device, work).total;
}

RooflineFloor mirage::search::rooflineFloor(const DeviceModel &device,
                                            double bytes, double tensorFlops,
                                            double cudaOps, double sfuOps) {
  RooflineFloor f;
  f.bytes = bytes;
  f.tensorFlops = tensorFlops;
  f.cudaOps = cudaOps;
  f.sfuOps = sfuOps;
  f.memory = bytes / device.bytesPerSecond * 1e6;
  f.compute = (tensorFlops / device.tensorFlopsPerSecond +
               cudaOps / device.cudaOpsPerSecond +
               sfuOps / device.sfuOpsPerSecond) *
              1e6;
  f.floor = std::max(f.memory, f.compute);
  return f;
}
