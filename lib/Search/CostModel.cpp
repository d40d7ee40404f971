//===- CostModel.cpp - Analytical GPU cost model ----------------*- C++ -*-===//
//
// The targets table and the time of one kernel; docs/cost-model.md gives the
// formulas and the sources of the figures.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/GPUTargets.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace mirage::search;

namespace {

// SMs, clock, HBM, L2 size and bandwidth, shared memory per SM and per block,
// registers, threads and blocks per SM, tensor-core peak, CUDA-core rate
// (FP32 lanes x clock), SFU rate (16 per SM per clock), launch, first tile
// load, unhidden part of an iteration, DRAM latency under load.
constexpr double kA100Clock = 1.41e9, kHopperClock = 1.98e9;

// The parts added for sm_86, sm_89, sm_100 and sm_120 (docs/cost-model.md
// gives the source of each figure). Tensor peaks are the vendors' dense
// (not 2:4 sparse) fp16 figures with FP32 accumulation, the mma the
// generated code issues: on the GeForce parts (RTX 4090, RTX 5090) that is
// half their fp16-accumulate figure. All have 128 FP32 lanes per SM. Shared
// memory, resident threads and blocks per SM follow the compute capability
// (CUDA programming guide): sm_86, sm_89 and sm_120 have 100 KB per SM (99 KB
// per block) and 1536 threads, sm_100 as sm_90.
constexpr double kA10GClock = 1.71e9, kA40Clock = 1.74e9, kL4Clock = 2.04e9,
                 kAdaClock = 2.52e9, kB200Clock = 1.98e9,
                 kRtx5090Clock = 2.407e9;
constexpr double kSmallSmemPerSM = 102400, kSmallSmemPerBlock = 101376;
/// L2 bandwidth is no vendor figure for these parts; it is estimated as 32
/// bytes per SM per clock, what the A100 (5 TB/s) and H100 (8 TB/s)
/// estimates above amount to.
constexpr double l2Rate(double sms, double clock) { return 32 * sms * clock; }

/// The latency a load waits for DRAM under load, for Little's law: about
/// 0.7 us on the HBM parts of sm_80 to sm_100 (twice or more the idle
/// latency of ~0.5 us once the memory system is busy), and taken as the
/// same for the GDDR parts. An assumption of the model (docs/cost-model.md)
/// until a GPU calibrates it.
constexpr double kDramLatencyMicros = 0.7;
/// Load/store lanes per SM: the load/store units issue 32 thread-level
/// memory instructions (one warp instruction) per SM and clock on every
/// architecture from sm_80 to sm_120.
constexpr double kLsuLanesPerSM = 32;

const DeviceModel kDevices[] = {
    {"a100-40gb", "sm_80", 108, kA100Clock, 1.555e12, 40e6, 5.0e12, 167936,
     166912, 65536, 2048, 32, 312e12, 108 * 64 * kA100Clock,
     108 * 16 * kA100Clock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"a100-80gb", "sm_80", 108, kA100Clock, 2.039e12, 40e6, 5.0e12, 167936,
     166912, 65536, 2048, 32, 312e12, 108 * 64 * kA100Clock,
     108 * 16 * kA100Clock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"h100-sxm", "sm_90", 132, kHopperClock, 3.35e12, 50e6, 8.0e12, 233472,
     232448, 65536, 2048, 32, 989e12, 132 * 128 * kHopperClock,
     132 * 16 * kHopperClock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"h200", "sm_90", 132, kHopperClock, 4.8e12, 50e6, 8.0e12, 233472, 232448,
     65536, 2048, 32, 989e12, 132 * 128 * kHopperClock,
     132 * 16 * kHopperClock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"a10g", "sm_86", 80, kA10GClock, 600e9, 6e6, l2Rate(80, kA10GClock),
     kSmallSmemPerSM, kSmallSmemPerBlock, 65536, 1536, 16, 70e12,
     80 * 128 * kA10GClock, 80 * 16 * kA10GClock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"a40", "sm_86", 84, kA40Clock, 696e9, 6e6, l2Rate(84, kA40Clock),
     kSmallSmemPerSM, kSmallSmemPerBlock, 65536, 1536, 16, 149.7e12,
     84 * 128 * kA40Clock, 84 * 16 * kA40Clock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"l4", "sm_89", 58, kL4Clock, 300e9, 48e6, l2Rate(58, kL4Clock),
     kSmallSmemPerSM, kSmallSmemPerBlock, 65536, 1536, 24, 121e12,
     58 * 128 * kL4Clock, 58 * 16 * kL4Clock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"l40s", "sm_89", 142, kAdaClock, 864e9, 96e6, l2Rate(142, kAdaClock),
     kSmallSmemPerSM, kSmallSmemPerBlock, 65536, 1536, 24, 362e12,
     142 * 128 * kAdaClock, 142 * 16 * kAdaClock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"rtx4090", "sm_89", 128, kAdaClock, 1008e9, 72e6, l2Rate(128, kAdaClock),
     kSmallSmemPerSM, kSmallSmemPerBlock, 65536, 1536, 24, 165.2e12,
     128 * 128 * kAdaClock, 128 * 16 * kAdaClock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"b200", "sm_100", 148, kB200Clock, 7.7e12, 126e6, l2Rate(148, kB200Clock),
     233472, 232448, 65536, 2048, 32, 2.25e15, 148 * 128 * kB200Clock,
     148 * 16 * kB200Clock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
    {"rtx5090", "sm_120", 170, kRtx5090Clock, 1792e9, 96e6,
     l2Rate(170, kRtx5090Clock), kSmallSmemPerSM, kSmallSmemPerBlock, 65536,
     1536, 24, 209.5e12, 170 * 128 * kRtx5090Clock,
     170 * 16 * kRtx5090Clock, 3.0, 0.5, 0.1,
     kDramLatencyMicros},
};

} // namespace

llvm::ArrayRef<DeviceModel> mirage::search::getDeviceModels() {
  return kDevices;
}

std::optional<DeviceModel> mirage::search::getDeviceModel(llvm::StringRef target) {
  // An architecture selects its default part (GPUTargets.cpp).
  if (const GpuArch *arch = getGpuArch(target))
    target = arch->defaultPart;
  for (const DeviceModel &d : kDevices)
    if (target == d.name)
      return d;
  return std::nullopt;
}

std::string mirage::search::getDeviceModelNames() {
  std::string s;
  for (const DeviceModel &d : kDevices)
    s += std::string(d.name) + ", ";
  llvm::ArrayRef<GpuArch> archs = getGpuArchs();
  for (const GpuArch &a : archs.drop_back())
    s += std::string(a.name) + " (" + a.defaultPart + "), ";
  return s.substr(0, s.size() - 2) + " or " + archs.back().name + " (" +
         archs.back().defaultPart + ")";
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
  // Little's law: a grid keeps bytesInFlight per resident block in flight,
  // so it cannot draw more than (in flight on its SMs) / DRAM latency.
  t.achievableBytesPerSecond = device.bytesPerSecond * t.memoryShare;
  if (!work.fullyParallel && work.bytesInFlight > 0) {
    double blocks = static_cast<double>(std::max<int64_t>(work.blocks, 1));
    double activeSMs = std::min(device.sms, blocks);
    double blocksPerSM = std::min(t.residentBlocks, std::ceil(blocks / device.sms));
    t.bytesInFlightPerSM = blocksPerSM * work.bytesInFlight;
    t.achievableBytesPerSecond =
        std::min(t.achievableBytesPerSecond,
                 activeSMs * t.bytesInFlightPerSM /
                     (device.dramLatencyMicros * 1e-6));
  }
  t.memory = (work.bytes / t.achievableBytesPerSecond +
              work.l2Bytes / (device.l2BytesPerSecond * t.memoryShare)) *
             1e6;
  // A shared-memory wavefront takes an SM's shared memory for a clock; the
  // replays of bank conflicts stall the warps that issue them.
  t.bankConflicts = work.bankConflictWavefronts /
                    (device.sms * device.clockHz) / t.share * 1e6;
  t.compute = (work.tensorFlops / device.tensorFlopsPerSecond +
               work.cudaOps / device.cudaOpsPerSecond +
               work.sfuOps / device.sfuOpsPerSecond) /
                  t.share * 1e6 +
              t.bankConflicts;
  // The load/store units issue one warp instruction per SM and clock: a
  // kernel that copies its tiles in 2-byte chunks issues 8 times the
  // instructions of one that copies them in 16-byte chunks.
  t.issue = work.memoryInstructions /
            (device.sms * kLsuLanesPerSM * device.clockHz) / t.share * 1e6;
  t.latency = t.waves * (device.firstLoadMicros +
                         static_cast<double>(work.loopIterations) *
                             device.iterationMicros);
  double body = t.memory;
  if (t.compute > body) {
    body = t.compute;
    t.bound = "compute";
  }
  if (t.issue > body) {
    body = t.issue;
    t.bound = "issue";
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
