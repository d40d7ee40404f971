//===- KernelExport.cpp - PTX files and a kernel manifest -------*- C++ -*-===//
//
// What a GPU runner needs besides the PTX: which kernels to launch, in which
// order, with which grid, block, shared memory and buffers.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mirage {
#define GEN_PASS_DEF_WRITEKERNELMANIFEST
#define GEN_PASS_DEF_WRITEPTX
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;

namespace {

std::optional<int64_t> constantIndex(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantIndexOp>())
    return c.value();
  if (auto c = v.getDefiningOp<arith::ConstantIntOp>())
    return c.value();
  return std::nullopt;
}

/// The argument of `fn` and its dim whose size `size` is: a memref.dim of
/// the argument, or of a host buffer or reshape whose size there is one
/// (an unfused program's intermediate, docs/dynamic.md).
std::optional<std::pair<unsigned, int64_t>> argumentDim(func::FuncOp fn,
                                                        Value size) {
  auto dim = size.getDefiningOp<memref::DimOp>();
  std::optional<int64_t> d = dim ? dim.getConstantIndex() : std::nullopt;
  if (!d)
    return std::nullopt;
  Value source = dim.getSource();
  if (auto arg = dyn_cast<BlockArgument>(source)) {
    if (arg.getOwner()->getParentOp() != fn.getOperation())
      return std::nullopt;
    return std::make_pair(arg.getArgNumber(), *d);
  }
  auto type = cast<MemRefType>(source.getType());
  if (*d < 0 || *d >= type.getRank() || !type.isDynamicDim(*d))
    return std::nullopt;
  if (auto alloc = source.getDefiningOp<memref::AllocOp>())
    return argumentDim(fn,
                       alloc.getDynamicSizes()[type.getDynamicDimIndex(*d)]);
  if (auto expand = source.getDefiningOp<memref::ExpandShapeOp>())
    if (Value v = dyn_cast<Value>(expand.getMixedOutputShape()[*d]))
      return argumentDim(fn, v);
  return std::nullopt;
}

/// A grid or block size of a launch in `fn`: a number, or for a '?' grid
/// dim of a dynamic kernel (docs/dynamic.md) the object
/// `{"ceil_div": [argument, dim, tile]}`: ceil(size / tile) where the size
/// is dim `dim` of host argument `argument`.
std::optional<llvm::json::Value> launchDim(func::FuncOp fn, Value v) {
  if (std::optional<int64_t> c = constantIndex(v))
    return llvm::json::Value(*c);
  // ceil(size / 1) folds to the size.
  auto div = v.getDefiningOp<arith::CeilDivUIOp>();
  std::optional<std::pair<unsigned, int64_t>> at =
      argumentDim(fn, div ? div.getLhs() : v);
  std::optional<int64_t> tile =
      div ? constantIndex(div.getRhs()) : std::optional<int64_t>(1);
  if (!at || !tile)
    return std::nullopt;
  return llvm::json::Object{
      {"ceil_div", llvm::json::Array{at->first, at->second, *tile}}};
}

/// The terms of a launch's condition: `cond` an `arith.andi` of
/// `remui(dim, tile) == 0` on dims of `fn`'s arguments (the unmasked variant
/// of a kernel, docs/dynamic.md), as [argument, dim, tile] triples.
std::optional<llvm::json::Array> multipleTerms(func::FuncOp fn, Value cond) {
  llvm::json::Array terms;
  SmallVector<Value> work = {cond};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto both = v.getDefiningOp<arith::AndIOp>()) {
      work.push_back(both.getRhs());
      work.push_back(both.getLhs());
      continue;
    }
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
        constantIndex(cmp.getRhs()) != 0)
      return std::nullopt;
    auto rem = cmp.getLhs().getDefiningOp<arith::RemUIOp>();
    std::optional<std::pair<unsigned, int64_t>> at =
        rem ? argumentDim(fn, rem.getLhs()) : std::nullopt;
    std::optional<int64_t> tile =
        rem ? constantIndex(rem.getRhs()) : std::nullopt;
    if (!at || !tile)
      return std::nullopt;
    terms.push_back(llvm::json::Array{at->first, at->second, *tile});
  }
  return terms;
}

/// A memref's shape, `null` for a dynamic dim.
llvm::json::Array shapeOf(MemRefType type) {
  llvm::json::Array shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? llvm::json::Value(nullptr)
                                             : llvm::json::Value(d));
  return shape;
}

struct WriteKernelManifestPass
    : public mirage::impl::WriteKernelManifestBase<WriteKernelManifestPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::json::Array functions;
    bool ok = true;
    getOperation().walk([&](func::FuncOp fn) {
      llvm::json::Array launches;
      llvm::DenseMap<Value, int64_t> temporaries;
      fn.walk([&](gpu::LaunchFuncOp launch) {
        llvm::json::Object entry;
        entry["kernel"] = (launch.getKernelModuleName().getValue() +
                           "::" + launch.getKernelName().getValue())
                              .str();
        auto dims = [&](gpu::KernelDim3 d) -> std::optional<llvm::json::Array> {
          llvm::json::Array out;
          for (Value v : {d.x, d.y, d.z}) {
            std::optional<llvm::json::Value> e = launchDim(fn, v);
            if (!e)
              return std::nullopt;
            out.push_back(std::move(*e));
          }
          return out;
        };
        auto grid = dims(launch.getGridSizeOperandValues());
        auto block = dims(launch.getBlockSizeOperandValues());
        if (!grid || !block) {
          launch.emitOpError("needs grid and block sizes that are "
                             "constants or ceil(argument dim / tile) for the "
                             "kernel manifest");
          ok = false;
          return;
        }
        entry["grid"] = std::move(*grid);
        entry["block"] = std::move(*block);
        // A launch under conditions (a kernel's unmasked variant): each
        // says whether every size listed is a multiple of its tile.
        llvm::json::Array when;
        for (Operation *p = launch->getParentOp(); p && p != fn;
             p = p->getParentOp()) {
          auto ifOp = dyn_cast<scf::IfOp>(p);
          std::optional<llvm::json::Array> terms =
              ifOp ? multipleTerms(fn, ifOp.getCondition()) : std::nullopt;
          if (!terms) {
            launch.emitOpError("is launched under a condition the kernel "
                               "manifest cannot state");
            ok = false;
            return;
          }
          bool holds = ifOp.getThenRegion().isAncestor(launch->getParentRegion());
          when.push_back(llvm::json::Object{{"multiple_of", std::move(*terms)},
                                            {"holds", holds}});
        }
        if (!when.empty())
          entry["when"] = std::move(when);
        int64_t smem = 0;
        if (Value s = launch.getDynamicSharedMemorySize())
          smem = constantIndex(s).value_or(-1);
        entry["shared_memory_bytes"] = smem;
        llvm::json::Array args;
        for (Value v : launch.getKernelOperands()) {
          llvm::json::Object arg;
          if (auto m = dyn_cast<MemRefType>(v.getType())) {
            arg["shape"] = shapeOf(m);
            std::string et;
            llvm::raw_string_ostream os(et);
            os << m.getElementType();
            arg["element_type"] = et;
          } else {
            std::string t;
            llvm::raw_string_ostream os(t);
            os << v.getType();
            arg["type"] = t;
          }
          if (auto ba = dyn_cast<BlockArgument>(v);
              ba && ba.getOwner()->getParentOp() == fn.getOperation())
            arg["host_argument"] = ba.getArgNumber();
          else {
            // One id per buffer of the host function, so that a runner passes
            // the same temporary to the launch that writes it and to the
            // launches that read it.
            arg["host_argument"] = "temporary";
            arg["temporary_id"] =
                temporaries.try_emplace(v, temporaries.size()).first->second;
          }
          args.push_back(std::move(arg));
        }
        entry["arguments"] = std::move(args);
        launches.push_back(std::move(entry));
      });
      if (launches.empty())
        return;
      llvm::json::Object f;
      f["function"] = fn.getName().str();
      llvm::json::Array sig;
      for (Type t : fn.getArgumentTypes()) {
        std::string s;
        llvm::raw_string_ostream os(s);
        os << t;
        sig.push_back(s);
      }
      f["arguments"] = std::move(sig);
      f["launches"] = std::move(launches);
      functions.push_back(std::move(f));
    });
    if (!ok)
      return signalPassFailure();
    std::string error;
    StringRef parent = llvm::sys::path::parent_path(output);
    if (output != "-" && !parent.empty())
      (void)llvm::sys::fs::create_directories(parent);
    auto file = openOutputFile(output, &error);
    if (!file) {
      getOperation().emitError("cannot write the kernel manifest: ") << error;
      return signalPassFailure();
    }
    file->os() << llvm::formatv(
        "{0:2}\n", llvm::json::Value(llvm::json::Object{
                       {"functions", std::move(functions)}}));
    file->keep();
  }
};

struct WritePTXPass : public mirage::impl::WritePTXBase<WritePTXPass> {
  using Base::Base;

  void runOnOperation() override {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      getOperation().emitError("cannot create '") << dir << "': "
                                                   << ec.message();
      return signalPassFailure();
    }
    WalkResult r = getOperation().walk([&](gpu::BinaryOp binary) {
      for (auto [i, attr] : llvm::enumerate(binary.getObjects())) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        SmallString<128> path(dir);
        llvm::sys::path::append(
            path, binary.getName() + (i ? "." + std::to_string(i) : "") +
                      ".ptx");
        std::string error;
        auto file = openOutputFile(path, &error);
        if (!file) {
          binary.emitOpError("cannot write PTX: ") << error;
          return WalkResult::interrupt();
        }
        file->os() << object.getObject().getValue();
        file->keep();
      }
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
