//===- CostModel.h - Analytical GPU cost model ------------------*- C++ -*-===//
//
// The targets table and the time of one kernel (docs/cost-model.md). What a
// kernel does (bytes by level of the memory hierarchy, arithmetic by unit,
// grid, block, shared memory, loop) is a `KernelWork`; KernelCost.h derives
// it from mk ops or from the search's description of a kernel. The time is
//
//   launch + max(memory, compute, latency)
//
// with memory = DRAM bytes / achievable BW + L2 bytes / (L2 BW x memory
// share), achievable BW = min(HBM BW x memory share, busy SMs x bytes in
// flight per SM / DRAM latency) (Little's law, from the load width and
// pipeline depth of the generated code),
// compute = (tensor FLOPs / tensor peak + CUDA ops / CUDA rate + SFU ops /
// SFU rate) / share, share = min(1, blocks / SMs), memory share = min(1,
// kSmBandwidthHeadroom x blocks / SMs) (an SM with enough loads in flight
// draws more than its fair part of the HBM bandwidth), and latency = waves x
// (first tile load + F x the unhidden part of one loop iteration), where
// waves = ceil(blocks / (SMs x resident blocks per SM)) and the resident
// blocks follow from the threads, the shared memory and the registers of a
// block.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_COSTMODEL_H
#define MIRAGE_SEARCH_COSTMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mirage::search {

/// Figures of one GPU part (docs/cost-model.md gives the source of each).
struct DeviceModel {
  /// Part name accepted by the target options ("h100-sxm") and its
  /// architecture ("sm_90").
  const char *name;
  const char *arch;
  double sms;
  /// Boost clock (Hz); the CUDA-core and SFU rates below follow from it.
  double clockHz;
  /// DRAM (HBM or GDDR) bandwidth (bytes/s).
  double bytesPerSecond;
  /// L2 capacity (bytes) and bandwidth (bytes/s).
  double l2Bytes;
  double l2BytesPerSecond;
  /// Shared memory per SM and the most one block may use (bytes).
  double smemPerSM;
  double smemPerBlock;
  /// 32-bit registers per SM, resident threads and blocks per SM.
  double registersPerSM;
  double maxThreadsPerSM;
  double maxBlocksPerSM;
  /// Dense fp16/bf16 tensor-core peak (FLOP/s, an FMA counts 2).
  double tensorFlopsPerSecond;
  /// FP32 CUDA-core instruction rate (ops/s: FP32 lanes x clock; the peak
  /// in FLOP/s, counting an FMA as 2, is twice this).
  double cudaOpsPerSecond;
  /// Special-function unit rate (ex2, lg2, rcp, rsqrt, tanh: 16 per SM per
  /// clock on every supported architecture).
  double sfuOpsPerSecond;
  /// Launch overhead of one kernel, back to back without CUDA graphs (us).
  double launchMicros;
  /// Latency of the first tile load of a block (a dependent DRAM access and
  /// the barrier, paid once per wave) and the part of every further loop
  /// iteration that pipelined loads do not hide (wait, barrier,
  /// issue), in us.
  double firstLoadMicros;
  double iterationMicros;
  /// Latency of a DRAM load under load (us), for Little's law: the bytes a
  /// grid keeps in flight over it bound the bandwidth it can draw.
  double dramLatencyMicros;
};

/// Every part of the targets table, in a fixed order.
llvm::ArrayRef<DeviceModel> getDeviceModels();

/// The part named `target`: a part name ("a100-40gb", "h200", "l40s", ...)
/// or an architecture of GPUTargets.h, which selects its default part
/// ("sm_80" -> a100-80gb, "sm_86" -> a10g, "sm_89" -> l40s, "sm_90" and
/// "sm_90a" -> h100-sxm, "sm_100" -> b200, "sm_120" -> rtx5090). nullopt for
/// another string.
std::optional<DeviceModel> getDeviceModel(llvm::StringRef target);

/// The accepted target names, for diagnostics.
std::string getDeviceModelNames();

/// Registers per thread assumed by the occupancy (the generated code's
/// actual count is not known before ptxas).
constexpr double kRegistersPerThread = 64;
/// Shared memory the CUDA runtime reserves per block on sm_80 and newer.
constexpr double kReservedSmemPerBlock = 1024;
/// How many times its fair part (HBM bandwidth / SMs) of the bandwidth one
/// busy SM can draw when others are idle: a grid on half the SMs still
/// streams at nearly the full bandwidth. An assumption of the model
/// (docs/cost-model.md), not a measured constant of each part.
constexpr double kSmBandwidthHeadroom = 2.0;

/// What the model needs to know about one kernel.
struct KernelWork {
  /// Thread blocks and threads per block, shared memory per block (bytes).
  int64_t blocks = 1;
  int64_t threads = 128;
  double smemBytes = 0;
  /// A pre-defined op: modelled as a library kernel that fills the device
  /// (share 1, one wave, one iteration).
  bool fullyParallel = false;
  /// Device-memory bytes read and written by the whole kernel, and bytes
  /// read again from L2.
  double bytes = 0;
  double l2Bytes = 0;
  /// Arithmetic of the whole kernel by unit: tensor-core FLOPs (as issued:
  /// padded to the mma shape), CUDA-core instructions, SFU instructions.
  double tensorFlops = 0;
  double cudaOps = 0;
  double sfuOps = 0;
  /// For-loop iterations of a block.
  int64_t loopIterations = 1;
  /// Bytes of global loads one block keeps in flight, from the code the
  /// lowering emits for it (KernelCost.h); 0: not known (a library kernel),
  /// the full bandwidth.
  double bytesInFlight = 0;
  /// Buffers per walked tile of its cp.async pipeline (1: none).
  int64_t pipelineStages = 1;
  /// Shared-memory wavefronts of the whole kernel's tensor-core operand
  /// loads and tile copies under the lowering's layouts (CodePlan.h, the
  /// static bank rule), and the part of them bank conflicts add.
  double smemWavefronts = 0;
  double bankConflictWavefronts = 0;
  /// Thread-level load/store instructions of the tile copies (one per chunk
  /// of each copy: a cp.async moves its chunk from global to shared memory
  /// in one; a synchronous copy loads it and stores it to shared memory).
  double memoryInstructions = 0;
};

/// The modelled time of one kernel and its parts.
struct KernelTime {
  /// Resident blocks per SM, waves of blocks, and the share of the SMs the
  /// grid occupies.
  double residentBlocks = 1;
  double waves = 1;
  double share = 1;
  /// The share of the HBM and L2 bandwidth the grid can draw.
  double memoryShare = 1;
  /// Global-load bytes in flight per busy SM, and the DRAM bandwidth the
  /// grid can draw: min(HBM x memoryShare, busy SMs x in flight / DRAM
  /// latency).
  double bytesInFlightPerSM = 0;
  double achievableBytesPerSecond = 0;
  /// Microseconds: launch overhead, memory, compute, load/store issue, loop
  /// latency, total.
  double launch = 0, memory = 0, compute = 0, issue = 0, latency = 0,
         total = 0;
  /// The part of `compute` that bank conflicts add: their extra wavefronts
  /// at one wavefront per SM and clock.
  double bankConflicts = 0;
  /// The term that sets the time: "memory", "compute", "issue" or
  /// "latency".
  const char *bound = "memory";
};

/// Resident blocks per SM of `threads` threads and `smemBytes` bytes of
/// shared memory each (at least 1).
double residentBlocksPerSM(const DeviceModel &device, int64_t threads,
                           double smemBytes);

/// The modelled time of one kernel.
KernelTime modelKernel(const DeviceModel &device, const KernelWork &work);

/// modelKernel(device, work).total, in microseconds.
double modelledMicros(const DeviceModel &device, const KernelWork &work);

/// The roofline floor of a program: its compulsory bytes (every argument
/// read and every result written once) over the HBM bandwidth, and its
/// arithmetic over the peaks of the units.
struct RooflineFloor {
  double bytes = 0;
  double tensorFlops = 0, cudaOps = 0, sfuOps = 0;
  /// Microseconds: bytes / bandwidth, arithmetic / peaks, their maximum.
  double memory = 0, compute = 0, floor = 0;
};
RooflineFloor rooflineFloor(const DeviceModel &device, double bytes,
                            double tensorFlops, double cudaOps,
                            double sfuOps);

} // namespace mirage::search

#endif // MIRAGE_SEARCH_COSTMODEL_H
