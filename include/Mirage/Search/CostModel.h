//===- CostModel.h - The search's cost proxy --------------------*- C++ -*-===//
//
// A deliberately simple analytical proxy (docs/search.md, "Cost proxy"):
// programs compare by the sum over their kernels of a roofline time
// (device-memory plus L2 time against tensor-core plus CUDA-core time, and a
// latency floor per loop iteration and wave of blocks) in which a grid with
// fewer blocks than the device has SMs only gets its share of the bandwidths
// and of the arithmetic rates.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_COSTMODEL_H
#define MIRAGE_SEARCH_COSTMODEL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mirage::search {

/// Figures of one GPU.
struct DeviceModel {
  const char *name;
  double sms;
  double bytesPerSecond;
  /// L2 capacity and bandwidth: re-reads of a tensor that fits in L2 are
  /// served from it.
  double l2Bytes;
  double l2BytesPerSecond;
  /// Dense fp16 tensor-core rate (matmuls).
  double tensorFlopsPerSecond;
  /// Rate of element-wise and reduction arithmetic on the CUDA cores.
  double vectorFlopsPerSecond;
  double launchMicros;
};

/// Cost of one element of a transcendental function (exp, sqrt, silu, ...)
/// in vector operations: the special-function units run at a quarter of the
/// FMA rate.
constexpr double kTranscendentalCost = 4.0;

/// The model of `chip` ("sm_80" or "sm_90"), nullopt for another string.
std::optional<DeviceModel> getDeviceModel(llvm::StringRef chip);

/// What the proxy needs to know about one kernel.
struct KernelWork {
  /// Thread blocks (1 for a pre-defined op: it is modelled as fully
  /// parallel, see `fullyParallel`).
  int64_t blocks = 1;
  bool fullyParallel = false;
  /// Device-memory bytes read and written by the whole kernel, and bytes
  /// read again from L2.
  double bytes = 0;
  double l2Bytes = 0;
  /// Arithmetic of the whole kernel: matmuls on tensor cores, the rest
  /// (weighted by kTranscendentalCost where it applies) on the CUDA cores.
  double tensorFlops = 0;
  double vectorFlops = 0;
  /// For-loop iterations of a block: each waits for its tile loads, so a
  /// wave of blocks takes at least kIterationMicros per iteration.
  int64_t loopIterations = 1;
};

/// Latency floor of one loop iteration (a dependent device-memory load and a
/// barrier), in microseconds.
constexpr double kIterationMicros = 0.5;
/// Blocks resident per SM assumed by the latency floor.
constexpr double kResidentBlocksPerSM = 4.0;

/// Adds to `work` the loads of an input of `tensorBytes` bytes from which
/// the blocks load `loadedBytes` in all: the first read of each byte comes
/// from device memory, re-reads from L2 if the tensor fits there.
void addInputLoads(const DeviceModel &device, KernelWork &work,
                   double tensorBytes, double loadedBytes);

/// Modelled time of one kernel in microseconds.
double modelledMicros(const DeviceModel &device, const KernelWork &work);

} // namespace mirage::search

#endif // MIRAGE_SEARCH_COSTMODEL_H
