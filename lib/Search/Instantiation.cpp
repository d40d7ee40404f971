//===- Instantiation.cpp - Grid sizes and loop ranges -----------*- C++ -*-===//
//
// Every divisor of the extents, within the device's limits, costed with the
// kernel cost model (Instantiation.h).
//
//===----------------------------------------------------------------------===//

#include "Instantiation.h"

#include "Materialize.h"
#include "OpSemantics.h"

#include "Mirage/Search/CodePlan.h"
#include "Mirage/Search/KernelCost.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <mutex>

using namespace mlir;

namespace mirage::search::detail {

namespace {
/// Instantiates candidates of one target under one set of options.
class Instantiator {
public:
  Instantiator(const Target &target, const SuperoptimizeOptions &options)
      : target(target), options(options) {}

  /// Chooses the loop range and grid sizes of every kernel by the cost
  /// proxy; false if some kernel has no instantiation that fits.
  bool instantiate(Candidate &c) {
    double total = 0;
    unsigned kernels = 0;
    const Scale &full = target.extent;
    for (SKernelOp &kop : c.prog.ops) {
      ++kernels;
      if (!kop.isKernel) {
        total += predefinedMicros(c.prog, kop.op, full);
        continue;
      }
      SKernel &k = c.prog.kernels[kop.kernel];
      if (!chooseInstance(c.prog, k, full))
        return false;
      total += k.micros;
    }
    c.kernels = kernels;
    c.micros = total;
    c.numOps = static_cast<unsigned>(c.prog.ops.size());
    for (const SKernel &k : c.prog.kernels)
      c.numOps += static_cast<unsigned>(k.ops.size());
    return true;
  }

private:
  /// A pre-defined op runs as the kernel --mirage-wrap-kernels makes of it:
  /// costed as the cost report costs the mk op (describeKernel), so that
  /// the search ranks programs as the IR of its result is modelled. The op
  /// is built alone, once per distinct op, shapes, element type, limit and
  /// device.
  double predefinedMicros(const SProgram &p, const SOp &op, const Scale &full) {
    static std::mutex mutex;
    static llvm::StringMap<double> memo;
    std::string key = predefinedKey(p, op, full);
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = memo.find(key);
      if (it != memo.end())
        return it->second;
    }
    double micros = libraryMicros(p, op, full);
    OwningOpRef<ModuleOp> module =
        scratchModule(target.func->getContext(), target.smemLimit);
    func::FuncOp func =
        buildPredefinedOp(*module, p, op, full, target.element, "op");
    if (verifiesQuietly(*module)) {
      std::string error;
      FailureOr<KernelDesc> d =
          describeKernel(&func.getBody().front().front(), error);
      if (succeeded(d))
        micros =
            modelledMicros(target.device, analyzeKernel(target.device, *d));
    }
    std::lock_guard<std::mutex> lock(mutex);
    return memo.try_emplace(key, micros).first->second;
  }

  /// What predefinedMicros depends on: the op's kind and parameters, the
  /// shapes of its operands and result, and the target's element type,
  /// shared-memory limit and device.
  std::string predefinedKey(const SProgram &p, const SOp &op,
                            const Scale &full) const {
    std::string key;
    llvm::raw_string_ostream os(key);
    const Params &q = op.params;
    os << kindName(op.kind) << ' ' << llvm::format("%a %a", q.a, q.b) << ' '
       << q.dim << ' ' << q.maskDims[0] << ' ' << q.maskDims[1] << ' '
       << (q.lower ? std::to_string(*q.lower) : "-") << ' '
       << (q.upper ? std::to_string(*q.upper) : "-") << ' ' << q.additive;
    for (int v : llvm::concat<const int>(op.args, ArrayRef<int>(op.result))) {
      os << " v" << v << ':';
      for (int64_t d : kernelShape(p.vals[v], full))
        os << d << 'x';
    }
    os << ' ' << target.element << ' ' << target.smemLimit << ' '
       << target.device.name;
    return key;
  }

  /// A library kernel that streams the op's operands and result at the
  /// device's bandwidth: the bound for an op the text does not give.
  double libraryMicros(const SProgram &p, const SOp &op, const Scale &full) {
    KernelDesc d;
    d.predefined = true;
    SmallVector<SmallVector<int64_t, 4>> argShapes;
    SmallVector<ArrayRef<int64_t>> argRefs;
    for (int a : op.args) {
      argShapes.push_back(kernelShape(p.vals[a], full));
      double b = bytesOf(argShapes.back());
      d.inputs.push_back({b, b, false});
    }
    for (auto &s : argShapes)
      argRefs.push_back(s);
    SmallVector<int64_t, 4> rs = kernelShape(p.vals[op.result], full);
    d.outputBytes.push_back(bytesOf(rs));
    d.ops.push_back(costOpOf(op.kind, rs, argRefs, /*inLoop=*/false));
    return modelledMicros(target.device, analyzeKernel(target.device, d));
  }

  double bytesOf(ArrayRef<int64_t> shape) const {
    double n = static_cast<double>(target.elementBytes);
    for (int64_t d : shape)
      n *= static_cast<double>(d);
    return n;
  }

  bool chooseInstance(const SProgram &p, SKernel &k, const Scale &full) {
    SmallVector<int64_t> fs = {1};
    if (k.loopAxis)
      fs = divisorsAbove1(full.lookup(k.loopAxis));
    SmallVector<SmallVector<int64_t>> gs;
    for (uint32_t a : k.gridAxes)
      gs.push_back(divisorsAbove1(full.lookup(a)));
    bool found = false;
    SKernel best;
    SmallVector<unsigned, 3> idx(gs.size(), 0);
    for (int64_t f : fs) {
      std::fill(idx.begin(), idx.end(), 0);
      while (true) {
        SKernel trial = k;
        trial.forloop = f;
        trial.grid.clear();
        int64_t blocks = 1;
        for (auto [j, a] : llvm::enumerate(k.gridAxes)) {
          trial.grid.push_back({a, gs[j][idx[j]]});
          blocks *= gs[j][idx[j]];
        }
        // The largest split goes on grid x (up to 2^31-1 blocks); y and z
        // are limited to 65535.
        llvm::sort(trial.grid, [](auto &x, auto &y) {
          return x.second != y.second ? x.second > y.second : x.first < y.first;
        });
        bool ok = blocks <= options.maxBlocks;
        for (size_t j = 1; j < trial.grid.size(); ++j)
          ok &= trial.grid[j].second <= 65535;
        if (ok && evaluateInstance(p, trial, full, blocks) &&
            (!found || trial.micros < best.micros)) {
          best = trial;
          found = true;
        }
        if (!nextCombination(idx, [&](size_t j) { return gs[j].size(); }))
          break;
      }
    }
    if (found)
      k = best;
    return found;
  }

  /// Shared memory, threads and modelled time of one instantiation.
  bool evaluateInstance(const SProgram &p, SKernel &k, const Scale &full,
                        int64_t blocks) {
    double smem = 0, largestTile = 1;
    SmallVector<SmallVector<int64_t, 4>> shapes;
    // As the lowering lays shared memory out (KernelEmitter.cpp
    // planSharedMemory): a slot per value, 16-byte aligned, accumulators
    // (and the matmuls only they read) in f32, plus an f32 row statistic per
    // rms_norm and an f32 running maximum per accum_rescaled_sum, plus the
    // warps' partial sums of whole-block row reductions; otherwise a search
    // result may not lower. The operands of tensor-core matmuls are laid out
    // for reads across rows, rows of 128 bytes or more padded (CodePlan.h,
    // sharedTileBytes). The slots are added side by side, an upper bound of
    // the lowering's layout, which lays the post-loop tiles over the loop's
    // dead ones. (Thread graphs, formed after the search, only save slots.)
    auto slot = [](int64_t elements, int64_t width) {
      return static_cast<double>(sharedSlotBytes(elements * width));
    };
    SmallVector<bool> accumulated(k.vals.size(), false);
    for (unsigned j = k.numBody; j < k.numBody + k.numAcc; ++j)
      accumulated[k.ops[j].result] = true;
    // A matmul that only accumulators read keeps its tile in f32 as well
    // (mb::keptInF32).
    SmallVector<unsigned> accumulatorReads(k.vals.size(), 0),
        otherReads(k.vals.size(), 0);
    for (const SOp &op : k.ops)
      for (int a : op.args)
        ++(isAccumulator(op.kind) && op.kind != Kind::AccRescaledSum
               ? accumulatorReads
               : otherReads)[a];
    for (int o : k.outputs)
      ++otherReads[o];
    SmallVector<bool> wide(accumulated);
    for (const SOp &op : k.ops)
      if (op.kind == Kind::Matmul && accumulatorReads[op.result] > 0 &&
          otherReads[op.result] == 0)
        wide[op.result] = true;
    // A matmul whose only reader is an accum_sum is accumulated in place
    // into the accumulator's buffer and has no slot (mb::accumulatedInPlace).
    SmallVector<bool> matmul(k.vals.size(), false), inPlace(matmul);
    for (const SOp &op : k.ops)
      matmul[op.result] = op.kind == Kind::Matmul;
    for (const SOp &op : k.ops)
      if (op.kind == Kind::AccSum && op.args.size() == 1 &&
          matmul[op.args[0]] && accumulatorReads[op.args[0]] == 1 &&
          otherReads[op.args[0]] == 0)
        inPlace[op.args[0]] = true;
    SmallVector<int64_t> elements;
    for (auto v : k.vals) {
      shapes.push_back(blockShape(k, v, full));
      elements.push_back(1);
      for (int64_t d : shapes.back())
        elements.back() *= d;
      largestTile =
          std::max(largestTile, static_cast<double>(elements.back()));
    }
    SmallVector<bool> acrossRows(k.vals.size(), false);
    for (const SOp &op : k.ops)
      if (op.kind == Kind::Matmul && op.args.size() == 2 &&
          target.elementBytes == 2 && !accumulated[op.args[0]] &&
          !accumulated[op.args[1]] &&
          mmaFitsTiles(shapes[op.args[0]], shapes[op.args[1]]))
        acrossRows[op.args[0]] = acrossRows[op.args[1]] = true;
    for (auto [i, shape] : llvm::enumerate(shapes)) {
      if (inPlace[i])
        continue;
      int64_t width = wide[i] ? 4 : target.elementBytes;
      smem += static_cast<double>(sharedTileBytes(
          planSharedLayout(shape, width, acrossRows[i]), elements[i], width));
    }
    int64_t threads = 32;
    while (threads < options.maxBlockThreads &&
           static_cast<double>(threads) < largestTile)
      threads *= 2;
    // Row reductions of few long rows keep an f32 per row and warp
    // (CodePlan.h, planRowReduction).
    auto partials = [&](int64_t rows, int64_t count) {
      RowReducePlan plan = planRowReduction(rows, count, threads);
      return plan.wholeBlock ? slot(plan.partialBytes, 1) : 0.0;
    };
    for (const SOp &op : k.ops) {
      if (op.kind == Kind::RmsNorm && !shapes[op.result].empty()) {
        int64_t rows = elements[op.result] / shapes[op.result].back();
        smem += slot(rows, 4) + partials(rows, shapes[op.result].back());
      } else if (op.kind == Kind::AccRescaledSum) {
        smem += slot(elements[op.result], 4);
      } else if ((op.kind == Kind::ReduceSum || op.kind == Kind::ReduceMax ||
                  op.kind == Kind::AccSumLast || op.kind == Kind::AccMeanLast ||
                  op.kind == Kind::AccRmsLast) &&
                 !op.args.empty() && elements[op.result] > 0) {
        smem += partials(elements[op.result],
                         elements[op.args[0]] / elements[op.result]);
      }
    }
    if (smem > static_cast<double>(options.smemLimit))
      return false;
    k.threads = threads;
    KernelDesc d;
    d.blocks = blocks;
    d.threads = threads;
    d.forloop = k.forloop;
    d.smemBytes = smem;
    d.smemLimit = static_cast<double>(options.smemLimit);
    for (auto [i, in] : llvm::enumerate(k.inputs)) {
      d.inputs.push_back(describeInput(shapes[i], kernelShape(p.vals[in], full),
                                       static_cast<double>(target.elementBytes),
                                       k.vals[i].variant, acrossRows[i]));
      d.inputs.back().afterLoop = isEpilogueInput(k, static_cast<int>(i));
    }
    for (int r : k.results)
      d.outputBytes.push_back(bytesOf(kernelShape(p.vals[r], full)));
    for (auto [j, op] : llvm::enumerate(k.ops)) {
      SmallVector<ArrayRef<int64_t>> args;
      for (int a : op.args)
        args.push_back(shapes[a]);
      d.ops.push_back(
          costOpOf(op.kind, shapes[op.result], args, j < k.numBody + k.numAcc));
    }
    k.micros = modelledMicros(target.device, analyzeKernel(target.device, d));
    return true;
  }

  const Target &target;
  const SuperoptimizeOptions &options;
};
} // namespace

bool instantiate(const Target &target, const SuperoptimizeOptions &options,
                 Candidate &c) {
  return Instantiator(target, options).instantiate(c);
}

} // namespace mirage::search::detail
