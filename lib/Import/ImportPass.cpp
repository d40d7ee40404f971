//===- ImportPass.cpp - Import linalg and tosa into mk -------------------===//
//
// `--mirage-import` rewrites, in place, the linalg/tosa ops of every function
// that have an exact mk counterpart, and the `mirage-import-to-ptx` pipeline.
// This file is the driver: which importer takes which op (contractions in
// Contraction.cpp, generics and element-wise named ops in Generic.cpp,
// layout ops in NamedOps.cpp, tosa in TosaOps.cpp), the removal of what the
// imported ops no longer read, the remarks on what stays outside, then the
// passes over the whole function (reshapes, slices, unit dims, composites,
// outlining). An op that cannot be converted stays untouched and a remark
// names it and says why.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Import/Composites.h"
#include "Mirage/Import/Outline.h"
#include "Mirage/Import/Passes.h"
#include "Mirage/Search/GPUTargets.h"

#include "Common.h"
#include "Contraction.h"
#include "Generic.h"
#include "Masks.h"
#include "NamedOps.h"
#include "Precision.h"
#include "TosaOps.h"
#include "UnitDims.h"
#include "Views.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;

namespace mirage {
namespace {

using namespace import;

/// Tries to import one op; returns why not (empty on success).
Reason importOpImpl(Operation *op, OpBuilder &b);

/// Merges mk ops that compute the same value (same op, attributes, operands
/// and types) into the first of them: exporters repeat subexpressions (torch's
/// LayerNorm computes the mean twice, once for the variance and once to
/// centre), and the composites match only when `x` is one value. mk ops are
/// pure and the body is one block, so the first dominates the others.
unsigned mergeEqualMkOps(func::FuncOp func) {
  unsigned merged = 0;
  DenseMap<llvm::hash_code, SmallVector<Operation *, 1>> seen;
  for (Operation &op : llvm::make_early_inc_range(func.getBody().front())) {
    if (!isa_and_nonnull<mk::MKDialect>(op.getDialect()) ||
        op.getNumRegions() || op.getNumResults() == 0)
      continue;
    llvm::hash_code hash = OperationEquivalence::computeHash(
        &op, OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
    SmallVector<Operation *, 1> &same = seen[hash];
    auto first = llvm::find_if(same, [&](Operation *earlier) {
      return OperationEquivalence::isEquivalentTo(
          earlier, &op, OperationEquivalence::IgnoreLocations);
    });
    if (first == same.end()) {
      same.push_back(&op);
      continue;
    }
    op.replaceAllUsesWith(*first);
    op.erase();
    ++merged;
  }
  return merged;
}

/// The sizes of dynamic tensors that nothing reads once their users are
/// imported (mk types carry dynamic dims themselves): tensor.dim, and the
/// index constants that were its operands or that shape builders made.
void eraseDeadSizeQueries(func::FuncOp func) {
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
    bool sizeQuery = isa<tensor::DimOp>(op);
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      sizeQuery = constant.getType().isIndex();
    if (sizeQuery && isOpTriviallyDead(&op))
      op.erase();
  }
}

/// Imports `op`; on success the producers of its operands go to `maybeDead`.
Reason importOp(Operation *op, OpBuilder &b,
                llvm::SetVector<Operation *> &maybeDead) {
  SmallVector<Operation *> producers;
  llvm::SetVector<Value> used(op->getOperands().begin(),
                              op->getOperands().end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  for (Value v : used)
    if (Operation *def = v.getDefiningOp())
      producers.push_back(def);
  Reason why = importOpImpl(op, b);
  if (why.empty())
    maybeDead.insert(producers.begin(), producers.end());
  return why;
}

Reason importOpImpl(Operation *op, OpBuilder &b) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::ContractOp,
          linalg::BatchReduceMatmulOp, linalg::MatvecOp, linalg::VecmatOp,
          linalg::BatchMatvecOp, linalg::BatchVecmatOp>(op))
    return importContraction(cast<linalg::LinalgOp>(op), b);
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return importGeneric(generic, b);
  if (auto tr = dyn_cast<linalg::TransposeOp>(op))
    return importTranspose(tr, b);
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op))
    return importBroadcast(broadcast, b);
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op))
    return importLinalgReduce(reduce, b);
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return importSoftmax(softmax, b);
  if (auto concat = dyn_cast<tosa::ConcatOp>(op))
    return importConcat(concat, b);
  if (auto tile = dyn_cast<tosa::TileOp>(op))
    return tileReason(tile);
  if (auto named = dyn_cast<linalg::LinalgOp>(op)) {
    if (!named.hasPureTensorSemantics())
      return "buffer semantics are not imported";
    SmallVector<Value> ins(named.getDpsInputs());
    // A binary op reading a broadcast copy or a splat constant: as the
    // equivalent generic, which folds the copy (throughBroadcastCopy) and
    // reads the constant as a scalar.
    bool readsBroadcastOrSplat = llvm::any_of(ins, [](Value v) {
      auto copy = v.getDefiningOp<linalg::LinalgOp>();
      return (copy && rankRaisingCopySource(copy)) || splatValue(v);
    });
    bool direct = isa<linalg::AddOp, linalg::SubOp, linalg::MulOp,
                      linalg::DivOp, linalg::ExpOp, linalg::SqrtOp,
                      linalg::RsqrtOp, linalg::NegFOp>(op);
    if (isNamedElementwise(op) && (!direct || readsBroadcastOrSplat))
      return importThroughGeneric(named, b);
    if (isa<linalg::AddOp>(op))
      return importSimple<mk::AddOp>(op, ins, b);
    if (isa<linalg::SubOp>(op))
      return importSimple<mk::SubOp>(op, ins, b);
    if (isa<linalg::MulOp>(op))
      return importSimple<mk::MulOp>(op, ins, b);
    if (isa<linalg::DivOp>(op))
      return importSimple<mk::DivOp>(op, ins, b);
    if (isa<linalg::ExpOp>(op))
      return importSimple<mk::ExpOp>(op, ins, b);
    if (isa<linalg::SqrtOp>(op))
      return importSimple<mk::SqrtOp>(op, ins, b);
    if (isa<linalg::RsqrtOp>(op))
      return importSimple<mk::RsqrtOp>(op, ins, b);
    if (isa<linalg::NegFOp>(op))
      return importSimple<mk::NegOp>(op, ins, b);
    if (isa<linalg::FillOp>(op))
      return "linalg.fill is kept (only a zero fill feeding a matmul folds)";
    return "this linalg op is not imported yet";
  }
  if (op->getDialect() && op->getDialect()->getNamespace() == "tosa")
    return importTosaOp(op, b);
  return "";
}

/// The remark on an op left outside, at its location only: attaching the op
/// would print it (and number its whole function) once per remark, which is
/// quadratic in the size of a program with many such ops.
void remarkLeftOutside(Operation *op, StringRef why) {
  emitRemark(op->getLoc()) << "mirage-import: left outside: " << why;
}

struct MirageImportPass
    : public PassWrapper<MirageImportPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MirageImportPass)

  StringRef getArgument() const override { return "mirage-import"; }
  StringRef getDescription() const override {
    return "Rewrite the linalg/tosa ops with an exact mk counterpart into mk "
           "ops, in place; remark on every op left outside";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<mk::MKDialect>();
  }

  MirageImportPass() = default;
  MirageImportPass(const MirageImportPass &other) : PassWrapper(other) {}

  Option<bool> outline{
      *this, "outline",
      llvm::cl::desc("Outline each run of imported mk ops into a private "
                     "function of mk ops called in its place"),
      llvm::cl::init(true)};
  Option<bool> f64AsF32{
      *this, "f64-as-f32",
      llvm::cl::desc("Compute the f64 arithmetic of an export (torch-mlir's "
                     "LayerNorm statistics) in f32, the kernels' compute "
                     "precision, with a remark per op; off: it stays outside"),
      llvm::cl::init(true)};
  Option<bool> dynamicDims{
      *this, "dynamic-dims",
      llvm::cl::desc("Import ops with dynamic dims, keeping them (mk's rules: "
                     "no dynamic reduced or contracted dim); off: they stay "
                     "outside (docs/dynamic.md)"),
      llvm::cl::init(true)};

  void runOnOperation() override {
    OpBuilder b(&getContext());
    SmallVector<func::FuncOp> funcs(getOperation().getOps<func::FuncOp>());
    SymbolTable symbolTable(getOperation());
    for (func::FuncOp func : funcs) {
      // A function without linalg, tosa or tensor ops (an mk program written
      // by hand, a reference) is not touched: no unit-dim normalisation,
      // composites or outlining.
      bool hasInputOps =
          func.walk([](Operation *op) {
                StringRef ns =
                    op->getDialect() ? op->getDialect()->getNamespace() : "";
                return ns == "linalg" || ns == "tosa" || ns == "tensor"
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
      if (!hasInputOps)
        continue;
      demoteF64(func, f64AsF32);
      importTiles(func, b);
      importTosaGeluErf(func, b);
      SmallVector<Operation *> candidates;
      func.walk([&](Operation *op) {
        StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
        if ((ns == "linalg" || ns == "tosa") &&
            !isa<tosa::ConstOp, tosa::ConstShapeOp>(op) &&
            op->getParentOfType<linalg::LinalgOp>() == nullptr)
          candidates.push_back(op);
      });
      // Producers before consumers, so a zero fill is still in place when its
      // matmul is looked at.
      llvm::SetVector<Operation *> maybeDead;
      SmallVector<Operation *> fills;
      for (Operation *op : candidates) {
        // Folded into their consumers if those import; else remarked below.
        bool recipOfMul = isa<tosa::ReciprocalOp>(op) &&
                          llvm::all_of(op->getUsers(), [](Operation *u) {
                            return isa<tosa::MulOp>(u);
                          });
        // Reshapes are imported once their neighbours are (importReshapes);
        // slices move to the inputs after the import (moveSlicesToInputs).
        if (isa<tosa::ReshapeOp, tosa::SliceOp>(op))
          continue;
        auto copy = dyn_cast<linalg::LinalgOp>(op);
        // A compare goes with its imported selects (a mask stays).
        // So does a mask computed from indices, with the generics that read
        // it (mk.band_mask).
        bool mask = op->getNumResults() == 1 &&
                    bandTensorOf(op->getResult(0)).has_value();
        if (isa<tosa::GreaterOp, tosa::GreaterEqualOp>(op) || isa<linalg::FillOp>(op) || recipOfMul || mask ||
            (copy &&
             (broadcastCopySource(copy) || rankRaisingCopySource(copy)))) {
          fills.push_back(op);
          continue;
        }
        Reason why = checkDynamicDims(op, dynamicDims);
        if (why.empty())
          why = importOp(op, b, maybeDead);
        if (!why.empty())
          remarkLeftOutside(op, why);
      }
      // Fills, empties and constants whose only users were imported go; the
      // rest of the program (dead code included) is left as it was.
      while (!maybeDead.empty()) {
        Operation *op = maybeDead.pop_back_val();
        if (!isOpTriviallyDead(op))
          continue;
        for (Value v : op->getOperands())
          if (Operation *def = v.getDefiningOp())
            maybeDead.insert(def);
        llvm::erase(fills, op);
        op->erase();
      }
      for (Operation *fill : fills) {
        // A reciprocal whose muls stayed outside is still an mk op.
        if (isa<tosa::ReciprocalOp>(fill)) {
          Reason why = checkDynamicDims(fill, dynamicDims);
          if (why.empty())
            why = importOp(fill, b, maybeDead);
          if (why.empty())
            continue;
          remarkLeftOutside(fill, why);
          continue;
        }
        if (isa<tosa::GreaterOp, tosa::GreaterEqualOp>(fill)) {
          remarkLeftOutside(fill, "a compare whose selects were not all "
                                  "imported (a mask of two tensors' values)");
          continue;
        }
        if (isa<linalg::FillOp>(fill)) {
          remarkLeftOutside(fill, "a fill whose users were not all imported");
          continue;
        }
        // A repeat (GQA's K/V) that did not fold: copies, as mk.concat.
        Reason why = importRepeatCopy(cast<linalg::LinalgOp>(fill), b);
        if (why.empty())
          continue;
        remarkLeftOutside(fill,
                          "a broadcast copy not folded into its users (mk has "
                          "no broadcast op: the copy folds only when every "
                          "user is imported), nor a repeat: " +
                              why);
      }
      for (Operation *reshape : importReshapes(func, b, dynamicDims))
        remarkLeftOutside(reshape, "a reshape between ops that stay outside "
                                   "(only reshapes next to mk ops become "
                                   "mk.reshape)");
      for (auto [slice, why] : moveSlicesToInputs(func))
        remarkLeftOutside(slice, why);
      eraseDeadSizeQueries(func);
      dropLeadingUnitDims(func);
      mergeEqualMkOps(func);
      fuseComposites(func);
      // mk ops that nothing reads (merged into their users, a clamp of a
      // clamp; dead code of the input, imported like the rest) are pure:
      // they go, instead of becoming an outlined function without results.
      // Users before producers, so a dead chain goes in one sweep.
      func.walk([](Block *block) {
        for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
          if (isa_and_nonnull<mk::MKDialect>(op.getDialect()) &&
              isOpTriviallyDead(&op))
            op.erase();
      });
      if (outline)
        outlineMkRuns(func, symbolTable);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createMirageImportPass() {
  return std::make_unique<MirageImportPass>();
}

namespace {

/// Options of `mirage-import-to-ptx`: the ones a user of the whole pipeline
/// needs, forwarded to the superoptimizer and the lowering; the rest keep
/// their defaults (run the three steps separately to set them).
struct ImportToPtxOptions : public PassPipelineOptions<ImportToPtxOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU: a part of the cost model (a100-80gb, "
                     "h200, a10g, l40s, b200, rtx5090, ...) or an "
                     "architecture (sm_80, sm_86, sm_89, sm_90, sm_90a, "
                     "sm_100, sm_100a, sm_120, sm_120a). The search models "
                     "the part (an architecture's default part), the PTX is "
                     "for its architecture"),
      llvm::cl::init("sm_90")};
  Option<std::string> dumpDir{
      *this, "dump-dir",
      llvm::cl::desc("If set, write <dir>/manifest.json and one .ptx file per "
                     "kernel module (mirage-to-ptx)"),
      llvm::cl::init("")};
  Option<double> timeBudget{
      *this, "time-budget",
      llvm::cl::desc("Seconds of search for the whole module "
                     "(mirage-superoptimize)"),
      llvm::cl::init(60.0)};
  Option<unsigned> threads{
      *this, "threads", llvm::cl::desc("Search threads (mirage-superoptimize)"),
      llvm::cl::init(1)};
  Option<std::string> cacheDir{
      *this, "cache-dir",
      llvm::cl::desc("Result cache directory, 'none' for no cache, empty for "
                     "the default (mirage-superoptimize)"),
      llvm::cl::init("")};
};

/// `value` as a pass option value: quoted, so that a path may hold spaces
/// or commas.
std::string quoted(StringRef value) { return ("\"" + value + "\"").str(); }

} // namespace

void registerMirageImportPasses() {
  PassRegistration<MirageImportPass>();
  // linalg/tosa -> mk -> best verified program -> PTX (+ manifest).
  // Registered with a builder that can fail, so that an option value the
  // forwarded pipeline cannot take is an error, not a shorter pipeline.
  registerPassPipeline(
      "mirage-import-to-ptx",
      "Import linalg/tosa into mk, superoptimize, lower to PTX",
      [](OpPassManager &pm, StringRef optionsText,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        ImportToPtxOptions opts;
        if (failed(opts.parseFromString(optionsText)))
          return failure();
        for (StringRef value : {StringRef(opts.chip), StringRef(opts.dumpDir),
                                StringRef(opts.cacheDir)})
          if (value.contains('"'))
            return errorHandler("mirage-import-to-ptx: option values may "
                                "not contain '\"'");
        // Ops with dynamic dims are imported: the search takes them per
        // size class and the lowering as they are (docs/dynamic.md).
        if (failed(parsePassPipeline("mirage-import", pm)))
          return errorHandler("mirage-import-to-ptx: cannot build the import");
        // The budget in full precision (std::to_string keeps 6 decimals).
        std::string search;
        llvm::raw_string_ostream(search)
            << "mirage-superoptimize{chip=" << quoted(opts.chip)
            << " time-budget="
            << llvm::format("%.17g", opts.timeBudget.getValue())
            << " threads=" << opts.threads;
        if (!opts.cacheDir.empty())
          search += " cache-dir=" + quoted(opts.cacheDir);
        // The search models the part (an architecture's default part), the
        // PTX is for its architecture; a chip neither knows is refused here,
        // before any pass runs.
        const search::GpuArch *arch = search::resolveGpuChip(opts.chip);
        if (!arch)
          return errorHandler("mirage-import-to-ptx: unknown chip '" +
                              opts.chip + "' (expected " +
                              search::getGpuChipNames() + ")");
        std::string lower = "mirage-to-ptx{chip=" + quoted(arch->name);
        if (!opts.dumpDir.empty())
          lower += " dump-dir=" + quoted(opts.dumpDir);
        std::string text = search + "}," + lower + "}";
        std::string why;
        llvm::raw_string_ostream os(why);
        if (failed(parsePassPipeline(text, pm, os)))
          return errorHandler("mirage-import-to-ptx: cannot build '" + text +
                              "': " + why);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(ImportToPtxOptions());
      });
}

} // namespace mirage
