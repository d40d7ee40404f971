//===- GPUTargets.cpp - The NVIDIA architectures Mirage targets -*- C++ -*-===//
//
// The architectures table. The minimum PTX versions are LLVM 22's (the
// lowest `+ptxNN` with which `llc -mtriple=nvptx64 -mcpu=<arch>` compiles);
// docs/lowering.md lists them with the parts.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/GPUTargets.h"
#include "Mirage/Search/CostModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace mirage::search;

namespace {

// The generated code needs sm_80 and PTX 7.0 at least: cp.async,
// ldmatrix, mma.sync m16n8k16 and max.NaN.f32. Older architectures (sm_70,
// sm_75) are refused rather than sent to the backend, which aborts on
// cp.async. sm_90 keeps +ptx80, what the pipeline always used for it (the
// backend's minimum is 7.8).
const GpuArch kArchs[] = {
    {"sm_80", 80, false, 70, 70, "a100-80gb"},
    {"sm_86", 86, false, 71, 71, "a10g"},
    {"sm_89", 89, false, 78, 78, "l40s"},
    {"sm_90", 90, false, 78, 80, "h100-sxm"},
    {"sm_90a", 90, true, 80, 80, "h100-sxm"},
    {"sm_100", 100, false, 86, 86, "b200"},
    {"sm_100a", 100, true, 86, 86, "b200"},
    {"sm_120", 120, false, 87, 87, "rtx5090"},
    {"sm_120a", 120, true, 87, 87, "rtx5090"},
};

} // namespace

llvm::ArrayRef<GpuArch> mirage::search::getGpuArchs() { return kArchs; }

const GpuArch *mirage::search::getGpuArch(llvm::StringRef name) {
  for (const GpuArch &a : kArchs)
    if (name == a.name)
      return &a;
  return nullptr;
}

const GpuArch *mirage::search::resolveGpuChip(llvm::StringRef chip) {
  if (const GpuArch *a = getGpuArch(chip))
    return a;
  for (const DeviceModel &d : getDeviceModels())
    if (chip == d.name)
      return getGpuArch(d.arch);
  return nullptr;
}

const GpuArch *mirage::search::getGpuArchForCapability(unsigned capability) {
  const GpuArch *best = nullptr;
  for (const GpuArch &a : kArchs)
    if (!a.archSpecific && a.computeCapability <= capability)
      best = &a;
  return best;
}

std::string mirage::search::getPtxFeatures(const GpuArch &arch) {
  return "+ptx" + std::to_string(arch.ptxVersion);
}

unsigned mirage::search::getRequestedPtxVersion(llvm::StringRef features) {
  unsigned version = 0;
  llvm::SmallVector<llvm::StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef f : parts) {
    f = f.trim();
    unsigned v = 0;
    if (f.consume_front("+ptx") && !f.getAsInteger(10, v))
      version = v;
  }
  return version;
}

std::string mirage::search::getGpuChipNames() {
  std::string s = "an architecture (";
  llvm::interleave(
      kArchs, [&](const GpuArch &a) { s += a.name; }, [&] { s += ", "; });
  s += ") or a part (";
  llvm::interleave(
      getDeviceModels(), [&](const DeviceModel &d) { s += d.name; },
      [&] { s += ", "; });
  return s + ")";
}
