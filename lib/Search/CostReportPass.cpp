//===- CostReportPass.cpp - The cost model's report -----------------------===//
//
// --mirage-cost-report: the cost model's breakdown (KernelCost.h) of every
// kernel of every function, and each function's total against its
// roofline floor, as remarks.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Passes.h"

#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Search/KernelCost.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mirage::search {
#define GEN_PASS_DEF_MIRAGECOSTREPORT
#include "Mirage/Search/Passes.h.inc"
} // namespace mirage::search

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

struct CostReportPass
    : mirage::search::impl::MirageCostReportBase<CostReportPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(mk::rejectDynamicDims(getOperation(), "--mirage-cost-report")))
      return signalPassFailure();
    ModuleOp module = getOperation();
    std::optional<DeviceModel> device = getDeviceModel(chip);
    if (!device) {
      emitError(module.getLoc(), "mirage-cost-report: unknown chip '")
          << chip << "' (expected " << getDeviceModelNames() << ")";
      return signalPassFailure();
    }
    auto fmt = [](double v, const char *spec = "%.1f") {
      std::string s;
      llvm::raw_string_ostream(s) << llvm::format(spec, v);
      return s;
    };
    auto mega = [&](double v) { return fmt(v / 1e6, "%.3f"); };
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      std::string error;
      FailureOr<ProgramCost> p = analyzeProgram(func, *device, error);
      if (failed(p)) {
        emitRemark(func.getLoc(), "cost: not modelled: ") << error;
        continue;
      }
      for (auto [i, k] : llvm::enumerate(p->kernels)) {
        const KernelTime &t = k.time;
        const KernelWork &w = k.work;
        std::string line;
        llvm::raw_string_ostream os(line);
        auto term = [&](const char *name, double v) {
          os << name << " " << fmt(v)
             << (StringRef(t.bound) == name ? " (bound)" : "");
        };
        os << "cost on " << device->name << ": kernel " << i << " "
           << k.op->getName().getStringRef() << ": " << fmt(t.total)
           << " us = launch " << fmt(t.launch) << " + max(";
        term("memory", t.memory);
        os << ", ";
        term("compute", t.compute);
        os << ", ";
        term("issue", t.issue);
        os << ", ";
        term("latency", t.latency);
        os << "); DRAM " << mega(w.bytes) << " MB, L2 " << mega(w.l2Bytes)
           << " MB; tensor " << mega(w.tensorFlops) << " MFLOP, CUDA "
           << mega(w.cudaOps) << " Mop, SFU " << mega(w.sfuOps) << " Mop; ";
        if (w.fullyParallel)
          os << "pre-defined op (fills the device)";
        else
          os << w.blocks << " blocks x " << w.threads << " threads, forloop "
             << w.loopIterations << ", smem " << fmt(w.smemBytes, "%.0f")
             << " B, " << fmt(t.residentBlocks, "%.0f") << " blocks/SM, "
             << fmt(t.waves, "%.0f") << " wave(s), SM share "
             << fmt(t.share, "%.2f") << ", memory share "
             << fmt(t.memoryShare, "%.2f") << "; loads in flight "
             << fmt(w.bytesInFlight, "%.0f") << " B/block, "
             << fmt(t.bytesInFlightPerSM, "%.0f") << " B/SM, "
             << w.pipelineStages << " stage(s), achievable DRAM "
             << fmt(t.achievableBytesPerSecond / 1e9, "%.0f") << " GB/s ("
             << fmt(100.0 * t.achievableBytesPerSecond / device->bytesPerSecond,
                    "%.0f")
             << " % of HBM); load/store instructions "
             << mega(w.memoryInstructions) << " M; shared memory "
             << mega(w.smemWavefronts) << " M wavefronts, bank conflicts "
             << mega(w.bankConflictWavefronts) << " M ("
             << fmt(t.bankConflicts, "%.2f") << " us)";
        emitRemark(k.op->getLoc(), line);
      }
      const RooflineFloor &f = p->floor;
      emitRemark(func.getLoc(), "cost on ")
          << device->name << ": @" << func.getName() << ": "
          << p->kernels.size() << " kernel(s), modelled " << fmt(p->totalMicros)
          << " us; roofline floor " << fmt(f.floor, "%.2f") << " us (memory "
          << mega(f.bytes) << " MB in " << fmt(f.memory, "%.2f")
          << " us, compute " << fmt(f.compute, "%.2f")
          << " us), floor/modelled "
          << fmt(p->totalMicros > 0 ? 100.0 * f.floor / p->totalMicros : 100.0)
          << " %";
    }
  }
};

} // namespace
