//===- GPUTargets.h - The NVIDIA architectures Mirage targets ---*- C++ -*-===//
//
// The one table of the architectures that `mirage-to-ptx` lowers to: for
// each, the PTX ISA version LLVM 22's NVPTX backend needs for it and the one
// the pipeline asks for, and the cost model's part that stands for it. A
// `chip=` option anywhere (the PTX pipeline, the search, the cost report,
// mirage-run) is an architecture of this table or a part of the cost model's
// table (CostModel.h), which names its architecture. docs/lowering.md lists
// them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_GPUTARGETS_H
#define MIRAGE_SEARCH_GPUTARGETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mirage::search {

/// One NVIDIA architecture the PTX lowering supports.
struct GpuArch {
  /// The target name LLVM and ptxas take ("sm_90a").
  const char *name;
  /// Compute capability as major * 10 + minor (90 for sm_90 and sm_90a).
  unsigned computeCapability;
  /// True for an architecture-specific target ("a" suffix): its PTX runs
  /// only on GPUs of exactly this compute capability.
  bool archSpecific;
  /// The lowest PTX ISA version (major * 10 + minor) that LLVM 22's NVPTX
  /// backend accepts for the target; below it, it aborts ("PTX version 7.0
  /// does not support target 'sm_86'").
  unsigned minPtxVersion;
  /// The PTX ISA version `mirage-to-ptx` asks for unless `features=` says
  /// otherwise: the minimum, at least 7.0 (cp.async, mma.sync m16n8k16,
  /// max.NaN), and 8.0 for sm_90 as before.
  unsigned ptxVersion;
  /// The cost model's part that the architecture name stands for.
  const char *defaultPart;
};

/// Every supported architecture, oldest first.
llvm::ArrayRef<GpuArch> getGpuArchs();

/// The architecture named `name` ("sm_86"), or nullptr.
const GpuArch *getGpuArch(llvm::StringRef name);

/// The architecture that `chip` targets: an architecture of getGpuArchs(),
/// or a part of the cost model's table (getDeviceModels()), which gives its
/// architecture. nullptr for anything else (sm_70, a typo, "").
const GpuArch *resolveGpuChip(llvm::StringRef chip);

/// The newest non-architecture-specific architecture whose PTX a GPU of
/// compute capability `capability` (major * 10 + minor) runs (PTX is
/// compiled forward to newer GPUs by the driver), or nullptr below sm_80.
const GpuArch *getGpuArchForCapability(unsigned capability);

/// The LLVM NVPTX feature string of `arch`'s default PTX version ("+ptx80").
std::string getPtxFeatures(const GpuArch &arch);

/// The PTX version a feature string asks for ("+ptx86" -> 86; the last one
/// if several), 0 if it names none.
unsigned getRequestedPtxVersion(llvm::StringRef features);

/// The accepted `chip=` values for a diagnostic: the architectures, then the
/// parts.
std::string getGpuChipNames();

} // namespace mirage::search

#endif // MIRAGE_SEARCH_GPUTARGETS_H
