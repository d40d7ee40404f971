//===- GPUTargetsTest.cpp - Unit tests of the architectures and parts -----===//
//
// The architectures table (GPUTargets.h) and the parts of the cost model
// (CostModel.h) agree: every architecture's default part exists and has its
// compute capability, every part's architecture is supported, unsupported
// names resolve to nothing, and the parts added for sm_86, sm_89, sm_100 and
// sm_120 carry the vendors' figures and model as their bandwidth and shared
// memory say.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/GPUTargets.h"

#include "gtest/gtest.h"

#include <string>

using namespace mirage::search;

namespace {

TEST(GPUTargetsTest, ArchitecturesHaveTheirDefaultParts) {
  std::vector<std::string> names;
  for (const GpuArch &a : getGpuArchs())
    names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"sm_80", "sm_86", "sm_89",
                                             "sm_90", "sm_90a", "sm_100",
                                             "sm_100a", "sm_120", "sm_120a"}));
  for (const GpuArch &a : getGpuArchs()) {
    SCOPED_TRACE(a.name);
    EXPECT_EQ(getGpuArch(a.name), &a);
    EXPECT_EQ(resolveGpuChip(a.name), &a);
    // The generated code needs PTX 7.0 (cp.async, mma.sync m16n8k16).
    EXPECT_GE(a.ptxVersion, a.minPtxVersion);
    EXPECT_GE(a.ptxVersion, 70u);
    std::optional<DeviceModel> part = getDeviceModel(a.name);
    ASSERT_TRUE(part);
    EXPECT_STREQ(part->name, a.defaultPart);
    // sm_90a's part is an sm_90 part: same compute capability.
    const GpuArch *partArch = getGpuArch(part->arch);
    ASSERT_TRUE(partArch);
    EXPECT_EQ(partArch->computeCapability, a.computeCapability);
  }
  EXPECT_EQ(getPtxFeatures(*getGpuArch("sm_80")), "+ptx70");
  EXPECT_EQ(getPtxFeatures(*getGpuArch("sm_86")), "+ptx71");
  EXPECT_EQ(getPtxFeatures(*getGpuArch("sm_89")), "+ptx78");
  EXPECT_EQ(getPtxFeatures(*getGpuArch("sm_90")), "+ptx80");
  EXPECT_EQ(getPtxFeatures(*getGpuArch("sm_90a")), "+ptx80");
  EXPECT_EQ(getPtxFeatures(*getGpuArch("sm_100")), "+ptx86");
  EXPECT_EQ(getPtxFeatures(*getGpuArch("sm_120")), "+ptx87");
}

TEST(GPUTargetsTest, PartsResolveToTheirArchitecture) {
  for (const DeviceModel &d : getDeviceModels()) {
    SCOPED_TRACE(d.name);
    const GpuArch *arch = resolveGpuChip(d.name);
    ASSERT_TRUE(arch);
    EXPECT_STREQ(arch->name, d.arch);
    std::optional<DeviceModel> same = getDeviceModel(d.name);
    ASSERT_TRUE(same);
    EXPECT_STREQ(same->name, d.name);
    EXPECT_LE(d.smemPerBlock, d.smemPerSM);
  }
  EXPECT_STREQ(resolveGpuChip("a10g")->name, "sm_86");
  EXPECT_STREQ(resolveGpuChip("a40")->name, "sm_86");
  EXPECT_STREQ(resolveGpuChip("l4")->name, "sm_89");
  EXPECT_STREQ(resolveGpuChip("l40s")->name, "sm_89");
  EXPECT_STREQ(resolveGpuChip("rtx4090")->name, "sm_89");
  EXPECT_STREQ(resolveGpuChip("b200")->name, "sm_100");
  EXPECT_STREQ(resolveGpuChip("rtx5090")->name, "sm_120");
  EXPECT_STREQ(resolveGpuChip("h200")->name, "sm_90");
}

TEST(GPUTargetsTest, UnsupportedNamesResolveToNothing) {
  for (const char *bad : {"sm_70", "sm_75", "sm_61", "sm_87", "sm_103",
                          "sm_121", "SM_80", "sm_80 ", "foo", "", "h300"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(resolveGpuChip(bad));
    EXPECT_FALSE(getDeviceModel(bad));
  }
  std::string names = getGpuChipNames();
  for (const GpuArch &a : getGpuArchs())
    EXPECT_NE(names.find(a.name), std::string::npos) << a.name;
  for (const DeviceModel &d : getDeviceModels())
    EXPECT_NE(names.find(d.name), std::string::npos) << d.name;
  std::string parts = getDeviceModelNames();
  EXPECT_NE(parts.find("sm_86 (a10g)"), std::string::npos) << parts;
  EXPECT_NE(parts.find("or sm_120a (rtx5090)"), std::string::npos) << parts;
}

TEST(GPUTargetsTest, CapabilityPicksTheNewestPortableArchitecture) {
  auto arch = [](unsigned cc) -> std::string {
    const GpuArch *a = getGpuArchForCapability(cc);
    return a ? a->name : "none";
  };
  EXPECT_EQ(arch(75), "none");
  EXPECT_EQ(arch(80), "sm_80");
  EXPECT_EQ(arch(86), "sm_86");
  EXPECT_EQ(arch(87), "sm_86");
  EXPECT_EQ(arch(89), "sm_89");
  EXPECT_EQ(arch(90), "sm_90");
  EXPECT_EQ(arch(100), "sm_100");
  EXPECT_EQ(arch(103), "sm_100");
  EXPECT_EQ(arch(120), "sm_120");
  EXPECT_EQ(arch(121), "sm_120");
}

TEST(GPUTargetsTest, RequestedPtxVersion) {
  EXPECT_EQ(getRequestedPtxVersion("+ptx80"), 80u);
  EXPECT_EQ(getRequestedPtxVersion("+ptx70,+ptx86"), 86u);
  EXPECT_EQ(getRequestedPtxVersion(" +ptx71 "), 71u);
  EXPECT_EQ(getRequestedPtxVersion(""), 0u);
  EXPECT_EQ(getRequestedPtxVersion("+sm_90"), 0u);
}

TEST(GPUTargetsTest, NewPartsCarryTheVendorsFigures) {
  // FP32 peak (2 x the CUDA-core rate) against the vendors' FP32 TFLOP/s:
  // the SM counts and boost clocks are consistent with them.
  struct Figure {
    const char *part;
    double fp32Tflops, dramTBs, tensorTflops;
  };
  for (Figure f : {Figure{"a10g", 35.0, 0.6, 70},
                   Figure{"a40", 37.4, 0.696, 149.7},
                   Figure{"l4", 30.3, 0.3, 121},
                   Figure{"l40s", 91.6, 0.864, 362},
                   Figure{"rtx4090", 82.6, 1.008, 165.2},
                   Figure{"b200", 75.0, 7.7, 2250},
                   Figure{"rtx5090", 104.8, 1.792, 209.5}}) {
    SCOPED_TRACE(f.part);
    std::optional<DeviceModel> d = getDeviceModel(f.part);
    ASSERT_TRUE(d);
    EXPECT_NEAR(2 * d->cudaOpsPerSecond / 1e12, f.fp32Tflops,
                0.01 * f.fp32Tflops);
    EXPECT_DOUBLE_EQ(d->bytesPerSecond, f.dramTBs * 1e12);
    EXPECT_DOUBLE_EQ(d->tensorFlopsPerSecond, f.tensorTflops * 1e12);
    EXPECT_DOUBLE_EQ(d->sfuOpsPerSecond, d->sms * 16 * d->clockHz);
  }
  // The rows of A100 and H100/H200 are unchanged.
  EXPECT_DOUBLE_EQ(getDeviceModel("a100-40gb")->bytesPerSecond, 1.555e12);
  EXPECT_DOUBLE_EQ(getDeviceModel("h100-sxm")->tensorFlopsPerSecond, 989e12);
  EXPECT_DOUBLE_EQ(getDeviceModel("h200")->l2BytesPerSecond, 8.0e12);
}

TEST(GPUTargetsTest, NewPartsModelTheirBandwidthAndSharedMemory) {
  // A streaming kernel over 256 MB that fills every part: the modelled time
  // follows the DRAM bandwidth.
  KernelWork w;
  w.blocks = 4096;
  w.threads = 256;
  w.bytes = 256e6;
  double previous = 1e30;
  for (const char *part :
       {"l4", "a10g", "a40", "l40s", "rtx4090", "rtx5090", "h100-sxm",
        "b200"}) {
    SCOPED_TRACE(part);
    std::optional<DeviceModel> d = getDeviceModel(part);
    ASSERT_TRUE(d);
    KernelTime t = modelKernel(*d, w);
    EXPECT_STREQ(t.bound, "memory");
    EXPECT_NEAR(t.memory, w.bytes / d->bytesPerSecond * 1e6, 1e-9);
    EXPECT_LT(t.total, previous);
    previous = t.total;
  }
  // 60 KB of shared memory per block: one block per SM on the 100 KB parts
  // (sm_86, sm_89, sm_120), three on the 228 KB ones (sm_90, sm_100).
  for (const char *part : {"a10g", "a40", "l4", "l40s", "rtx4090", "rtx5090"})
    EXPECT_EQ(residentBlocksPerSM(*getDeviceModel(part), 128, 60 * 1024), 1)
        << part;
  for (const char *part : {"h100-sxm", "b200"})
    EXPECT_EQ(residentBlocksPerSM(*getDeviceModel(part), 128, 60 * 1024), 3)
        << part;
  // 32-thread blocks: the resident-block limit of the architecture binds
  // (16 on sm_86, 24 on sm_89 and sm_120, 32 on sm_90 and sm_100; the
  // registers would allow 32).
  EXPECT_EQ(residentBlocksPerSM(*getDeviceModel("a10g"), 32, 0), 16);
  EXPECT_EQ(residentBlocksPerSM(*getDeviceModel("l40s"), 32, 0), 24);
  EXPECT_EQ(residentBlocksPerSM(*getDeviceModel("rtx5090"), 32, 0), 24);
  EXPECT_EQ(residentBlocksPerSM(*getDeviceModel("b200"), 32, 0), 32);
}

} // namespace
