//===- CostModel.h - The search's cost proxy --------------------*- C++ -*-===//
//
// A deliberately simple analytical proxy (docs/search.md, "Cost proxy"):
// programs compare by kernel count first, then by a roofline time per kernel
// in which a grid with fewer blocks than the device has SMs only gets its
// share of the bandwidth and of the FLOP rate. Device-memory bytes count
// every tile load of every block (no cache), so re-reading a replicated input
// from many blocks costs what it costs on a GPU without L2 hits.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_COSTMODEL_H
#define MIRAGE_LIB_SEARCH_COSTMODEL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mirage::search {

/// Figures of one GPU.
struct DeviceModel {
  const char *name;
  double sms;
  double bytesPerSecond;
  double flopsPerSecond;
  double launchMicros;
};

/// The model of `chip` ("sm_80" or "sm_90"), nullopt for another string.
std::optional<DeviceModel> getDeviceModel(llvm::StringRef chip);

/// What the proxy needs to know about one kernel.
struct KernelWork {
  /// Thread blocks (1 for a pre-defined op: it is modelled as fully
  /// parallel, see `fullyParallel`).
  int64_t blocks = 1;
  bool fullyParallel = false;
  /// Device-memory bytes read and written by the whole kernel.
  double bytes = 0;
  /// Arithmetic of the whole kernel.
  double flops = 0;
};

/// Modelled time of one kernel in microseconds.
double modelledMicros(const DeviceModel &device, const KernelWork &work);

} // namespace mirage::search

#endif // MIRAGE_LIB_SEARCH_COSTMODEL_H
