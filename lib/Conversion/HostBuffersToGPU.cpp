//===- HostBuffersToGPU.cpp - Host temporaries in device memory -*- C++ -*-===//
//
// convert-mirage-to-gpu allocates the buffers that pass one kernel's result to
// the next with memref.alloc in the host function. Lowered for the CPU that is
// host memory, which is right; lowered for a GPU the kernels would be handed
// host pointers. This pass moves them to device memory.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mirage {
#define GEN_PASS_DEF_HOSTBUFFERSTOGPU
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;

namespace {

struct HostBuffersToGPUPass
    : public mirage::impl::HostBuffersToGPUBase<HostBuffersToGPUPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    WalkResult walk = WalkResult::advance();
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      walk = fn.walk([&](Operation *op) {
        if (isa<gpu::LaunchOp>(op)) {
          op->emitOpError("is not outlined: mirage-host-buffers-to-gpu runs "
                          "after gpu-kernel-outlining");
          return WalkResult::interrupt();
        }
        if (isa<memref::AllocaOp>(op)) {
          op->emitOpError("in a host function cannot be moved to device "
                          "memory by mirage-host-buffers-to-gpu");
          return WalkResult::interrupt();
        }
        if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp>(op))
          ops.push_back(op);
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }

    // Each op runs on a stream of its own that is waited for, like the
    // synchronous gpu.launch_func around it: gpu-to-llvm lowers gpu.alloc
    // (not host-shared), gpu.dealloc and gpu.memcpy only in their async form.
    Type token = gpu::AsyncTokenType::get(&getContext());
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value start =
          gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
      Value done;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto dev = gpu::AllocOp::create(
            b, loc, alloc.getType(), token, ValueRange{start},
            alloc.getDynamicSizes(), alloc.getSymbolOperands(),
            /*hostShared=*/false);
        alloc.replaceAllUsesWith(dev.getMemref());
        done = dev.getAsyncToken();
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        done = gpu::DeallocOp::create(b, loc, token, ValueRange{start},
                                      dealloc.getMemref())
                   .getAsyncToken();
      } else {
        auto copy = cast<memref::CopyOp>(op);
        done = gpu::MemcpyOp::create(b, loc, token, ValueRange{start},
                                     copy.getTarget(), copy.getSource())
                   .getAsyncToken();
      }
      gpu::WaitOp::create(b, loc, Type(), ValueRange{done});
      op->erase();
      ++numMoved;
    }
  }
};

} // namespace
