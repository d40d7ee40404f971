//===- EvaluatorKernels.cpp - Graph-defined kernels in the evaluator ------===//
//
// Graph-defined kernels: every thread block of the grid runs the block
// graph (input iterators, the for-loop with its accumulators, output savers);
// thread graphs are evaluated one body op at a time over whole tiles. Values
// that depend only on some grid dims are computed by the first block with
// those indices and reused by the others.
//
//===----------------------------------------------------------------------===//

#include "Evaluator.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;
using namespace mirage::verify::detail;

template <typename Dom>
LogicalResult Evaluator<Dom>::evalThreadGraph(mt::ThreadGraphOp tg) {
  Block &body = tg.getBody().front();
  for (auto [arg, in] : llvm::zip(body.getArguments(), tg.getInputs())) {
    Val v;
    if (failed(get(tg, in, v)))
      return failure();
    env[arg] = v;
  }
  if (failed(evalBlockOps(body)))
    return failure();
  auto yield = dyn_cast<mt::YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != tg.getNumResults())
    return fail(tg, EvalErrorKind::InvalidInput,
                "thread graph must end in mt.yield of its results");
  for (auto [res, v] : llvm::zip(tg.getResults(), yield.getValues())) {
    Val val;
    if (failed(get(yield, v, val)))
      return failure();
    auto shape = cast<RankedTensorType>(res.getType()).getShape();
    std::shared_ptr<T> full = broadcastTo(*val.t, shape);
    if (!full)
      return fail(tg, EvalErrorKind::InvalidInput,
                  "thread-graph value does not broadcast to the result shape");
    set(res, std::move(full), val.deg);
  }
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalInputIter(mb::InputIterOp it,
                                            int64_t forloop) {
  Val in;
  if (failed(get(it, it.getInput(), in)))
    return failure();
  const T &x = *in.t;
  auto tileShape = it.getTile().getType().getShape();
  SmallVector<int64_t> logical =
      it.getView() ? it.getLogicalShape()
                   : SmallVector<int64_t>(ArrayRef<int64_t>(x.shape));
  if (tileShape.size() != logical.size())
    return fail(it, EvalErrorKind::InvalidInput, "tile rank mismatch");
  ArrayRef<int64_t> imap = it.getImap();
  int64_t fmap = it.getFmap();
  // Tile origin (DESIGN §3.2).
  SmallVector<int64_t, 4> off = tileOrigin(tileShape, imap, fmap, forloop);
  bool overhangs = false;
  for (size_t k = 0; k < off.size(); ++k)
    overhangs |= off[k] + tileShape[k] > logical[k];
  if (overhangs) {
    // [B26] a tail tile: the reads past the end repeat the last row, and
    // along the dim the loop walks they are zeros.
    bool outside = false;
    for (size_t k = 0; k < off.size(); ++k)
      outside |= off[k] >= logical[k];
    if (outside || mb::tailDims(it).empty())
      return fail(it, EvalErrorKind::InvalidInput,
                  "tile lies outside the input tensor");
    auto r = std::make_shared<T>(tileShape);
    if (std::optional<AffineMap> map = it.getView()) {
      const ViewTables *view = viewTables(it, *map, logical, x.shape);
      if (!view)
        return failure();
      copyTileThroughView(*view, tileShape, off, const_cast<E *>(x.data.data()),
                          r->data.data(), /*toDevice=*/false);
    } else {
      copyClampedBox(x.data.data(), x.shape, off, r->data.data(), tileShape);
    }
    if (fmap >= 0 && off[fmap] + tileShape[fmap] > logical[fmap])
      fillPastEnd(*r, fmap, logical[fmap] - off[fmap], dom.zero());
    set(it.getTile(), std::move(r), in.deg);
    return success();
  }
  if (std::optional<AffineMap> map = it.getView()) {
    const ViewTables *view = viewTables(it, *map, logical, x.shape);
    if (!view)
      return failure();
    auto r = std::make_shared<T>(tileShape);
    copyTileThroughView(*view, tileShape, off, const_cast<E *>(x.data.data()),
                        r->data.data(), /*toDevice=*/false);
    set(it.getTile(), std::move(r), in.deg);
    return success();
  }
  if (ArrayRef<int64_t>(x.shape) == tileShape) {
    env[it.getTile()] = in;
    return success();
  }
  auto r = std::make_shared<T>(tileShape);
  SmallVector<int64_t, 4> zero(off.size(), 0);
  copyBox(x.data.data(), x.shape, off, r->data.data(), r->shape, zero,
          tileShape);
  set(it.getTile(), std::move(r), in.deg);
  return success();
}

template <typename Dom>
const ViewTables *Evaluator<Dom>::viewTables(Operation *op, AffineMap map,
                                             ArrayRef<int64_t> logical,
                                             ArrayRef<int64_t> device) {
  std::unique_ptr<ViewTables> &cached = views[op];
  if (cached && cached->map == map && ArrayRef(cached->logical) == logical &&
      ArrayRef(cached->device) == device)
    return cached.get();
  std::string why;
  FailureOr<mb::StridedView> view =
      mb::StridedView::analyze(map, logical, device, why);
  if (failed(view)) {
    (void)fail(op, EvalErrorKind::InvalidInput, "cannot read the view: " + why);
    return nullptr;
  }
  cached = std::make_unique<ViewTables>();
  cached->map = map;
  cached->logical.assign(logical.begin(), logical.end());
  cached->device.assign(device.begin(), device.end());
  cached->offset = view->getOffset();
  cached->tables = view->offsetTables();
  return cached.get();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalLoop(mb::ForLoopOp loop, int64_t forloop) {
  Block &body = loop.getBody().front();
  auto yield = dyn_cast<mb::YieldOp>(body.getTerminator());
  if (!yield)
    return fail(loop, EvalErrorKind::InvalidInput,
                "for-loop body must end in mb.yield");
  struct AccState {
    AccumulatorOpInterface op;
    std::shared_ptr<T> acc, runMax;
    Degree deg;
  };
  SmallVector<AccState> accs;
  llvm::DenseMap<Operation *, unsigned> accIndex;
  for (Operation &op : body.without_terminator())
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
      accIndex[&op] = accs.size();
      accs.push_back({acc, nullptr, nullptr, constDeg()});
    }

  for (iteration = 0; iteration < forloop; ++iteration) {
    if (failed(checkDeadline(loop)))
      return failure();
    for (Operation &op : body.without_terminator()) {
      auto accOp = dyn_cast<AccumulatorOpInterface>(op);
      if (!accOp) {
        if (failed(evalBlockGraphOp(op, iteration, forloop)))
          return failure();
        continue;
      }
      AccState &st = accs[accIndex[&op]];
      Val x;
      if (failed(get(&op, accOp.getAccumulated(), x)))
        return failure();
      AccumulatorKind kind = accOp.getAccumulatorKind();
      std::shared_ptr<T> term;
      Degree d = x.deg;
      int64_t n = x.t->shape.back();
      switch (kind) {
      case AccumulatorKind::Sum:
        // The first term is copied, later ones are added in place.
        if (st.acc) {
          if (st.acc->shape != x.t->shape)
            return fail(&op, EvalErrorKind::InvalidInput,
                        "accumulated value changes shape between iterations");
          for (int64_t i = 0, e = x.t->numElements(); i < e; ++i)
            st.acc->data[i] = dom.add(st.acc->data[i], x.t->data[i]);
        } else {
          st.acc = std::make_shared<T>(*x.t);
        }
        st.deg = sumDeg(x.deg, forloop);
        continue;
      case AccumulatorKind::SumLast:
      case AccumulatorKind::MeanLast:
        term = sumLast(*x.t, 1, false);
        d = sumDeg(x.deg, forloop * n);
        break;
      case AccumulatorKind::RmsLast:
        term = sumLast(*x.t, 1, true);
        d = sumDeg(mulDeg(x.deg, x.deg), forloop * n);
        break;
      case AccumulatorKind::SumTo: {
        int64_t dimx =
            cast<RankedTensorType>(op.getResult(0).getType()).getShape().back();
        if (dimx < 1 || n % dimx != 0)
          return fail(&op, EvalErrorKind::InvalidInput,
                      "sum_to width must divide the last dim");
        term = sumLast(*x.t, dimx, false);
        d = sumDeg(x.deg, forloop * (n / dimx));
        break;
      }
      case AccumulatorKind::Max:
        if (info)
          info->usesOpaque = true;
        if (!st.acc) {
          st.acc = std::make_shared<T>(*x.t);
        } else {
          for (int64_t i = 0, e = x.t->numElements(); i < e; ++i)
            st.acc->data[i] = dom.max(st.acc->data[i], x.t->data[i]);
        }
        st.deg = maxDeg(st.deg, x.deg);
        continue;
      case AccumulatorKind::RescaledSum: {
        // acc' = acc * exp(M - M') + x * exp(m - M'), M' = max(M, m).
        Val m;
        if (op.getNumOperands() < 2 || failed(get(&op, op.getOperand(1), m)))
          return fail(&op, EvalErrorKind::InvalidInput,
                      "rescaled_sum needs the maximum operand");
        if (info)
          info->usesOpaque = true;
        if (!st.acc) {
          st.acc = std::make_shared<T>(x.t->shape, dom.zero());
          st.runMax = std::make_shared<T>(*m.t);
        }
        auto newMax = broadcast(*st.runMax, *m.t,
                                [&](E u, E v) { return dom.max(u, v); });
        auto oldScale = broadcast(*st.runMax, *newMax, [&](E u, E v) {
          return dom.exp(dom.sub(u, v));
        });
        auto newScale = broadcast(
            *m.t, *newMax, [&](E u, E v) { return dom.exp(dom.sub(u, v)); });
        noteExp(m.deg);
        auto kept = broadcast(*st.acc, *oldScale,
                              [&](E u, E v) { return dom.mul(u, v); });
        auto added =
            broadcast(*x.t, *newScale, [&](E u, E v) { return dom.mul(u, v); });
        if (!newMax || !oldScale || !newScale || !kept || !added ||
            kept->shape != added->shape)
          return fail(&op, EvalErrorKind::InvalidInput,
                      "rescaled_sum operand shapes do not broadcast");
        for (int64_t i = 0, e = kept->numElements(); i < e; ++i)
          kept->data[i] = dom.add(kept->data[i], added->data[i]);
        st.acc = kept;
        st.runMax = newMax;
        st.deg = sumDeg(mulDeg(x.deg, freshDeg()), forloop);
        if (failed(checkDomain(&op)))
          return failure();
        continue;
      }
      }
      if (!st.acc) {
        st.acc = term;
      } else {
        if (st.acc->shape != term->shape)
          return fail(&op, EvalErrorKind::InvalidInput,
                      "accumulated value changes shape between iterations");
        for (int64_t i = 0, e = term->numElements(); i < e; ++i)
          st.acc->data[i] = dom.add(st.acc->data[i], term->data[i]);
      }
      st.deg = d;
    }
  }

  // Post-processing after the last iteration.
  for (AccState &st : accs) {
    Operation *op = st.op;
    if (!st.acc)
      return fail(op, EvalErrorKind::InvalidInput,
                  "accumulator never ran (forloop < 1)");
    AccumulatorKind kind = st.op.getAccumulatorKind();
    if (kind == AccumulatorKind::MeanLast || kind == AccumulatorKind::RmsLast) {
      int64_t n = cast<RankedTensorType>(st.op.getAccumulated().getType())
                      .getShape()
                      .back();
      E scale = dom.recip(forloop * n);
      E eps = dom.zero();
      if (auto rms = dyn_cast<mb::AccumRmsLastOp>(op))
        eps = dom.constant(rms.getEps().convertToDouble());
      for (E &v : st.acc->data) {
        v = dom.mul(v, scale);
        if (kind == AccumulatorKind::RmsLast)
          v = dom.sqrt(dom.add(v, eps));
      }
      if (kind == AccumulatorKind::RmsLast) {
        if (info)
          info->usesSqrt = true;
        st.deg = sqrtDeg(addDeg(st.deg, constDeg()));
      }
    }
    set(op->getResult(0), st.acc, st.deg);
  }
  for (auto [res, v] : llvm::zip(loop.getResults(), yield.getValues())) {
    Val val;
    if (failed(get(yield, v, val)))
      return failure();
    env[res] = val;
  }
  return success();
}

template <typename Dom>
void Evaluator<Dom>::computeGridDeps(Block &body, ArrayRef<int64_t> grid) {
  gridDeps.clear();
  reused.clear();
  reusedElements = 0;
  unneeded.clear();
  unneededAt = {-1, -1, -1, -1};
  kernelGridMask = 0;
  for (int g = 0; g < 3; ++g)
    if (grid[g] > 1)
      kernelGridMask |= 1u << g;
  auto depsOf = [&](Value v) -> unsigned {
    Operation *def = v.getDefiningOp();
    if (!def)
      return 0; // a kernel argument: the whole tensor, the same everywhere
    auto it = gridDeps.find(def);
    return it == gridDeps.end() ? kernelGridMask | kIterationDep : it->second;
  };
  // Ops in program order (loop body before the loop's results are used);
  // thread graphs count as one op.
  std::function<void(Block &)> visit = [&](Block &block) {
    for (Operation &op : block) {
      unsigned deps = 0;
      if (auto it = dyn_cast<mb::InputIterOp>(op)) {
        ArrayRef<int64_t> imap = it.getImap();
        for (int g = 0; g < 3 && g < static_cast<int>(imap.size()); ++g)
          if (imap[g] >= 0)
            deps |= 1u << g;
        deps &= kernelGridMask;
        // fmap is stored unsigned: -1 (no loop walk) reads as 2^64 - 1.
        if (static_cast<int64_t>(it.getFmap()) >= 0)
          deps |= kIterationDep;
      } else if (auto mask = dyn_cast<mb::BandMaskOp>(op)) {
        // Its values depend on where its tile lies, as an input tile's do.
        for (Value v : op.getOperands())
          deps |= depsOf(v);
        for (int g = 0; g < 3 && g < static_cast<int>(mask.getImap().size());
             ++g)
          if (mask.getImap()[g] >= 0)
            deps |= (1u << g) & kernelGridMask;
        if (mask.getFmap() >= 0)
          deps |= kIterationDep;
      } else if (isa<mb::TailMaskOp>(op)) {
        // Its values depend on the trip (which elements lie past the end).
        for (Value v : op.getOperands())
          deps |= depsOf(v);
        deps |= kIterationDep;
      } else if (auto loop = dyn_cast<mb::ForLoopOp>(op)) {
        visit(loop.getBody().front());
        auto yield = cast<mb::YieldOp>(loop.getBody().front().getTerminator());
        for (Value v : yield.getValues())
          deps |= depsOf(v);
        deps &= ~kIterationDep; // accumulated over all iterations
      } else {
        for (Value v : op.getOperands())
          deps |= depsOf(v);
      }
      gridDeps[&op] = deps;
    }
  };
  visit(body);
}

template <typename Dom> bool Evaluator<Dom>::isReusable(Operation &op) const {
  if (isa<AccumulatorOpInterface, mb::OutputSaverOp, mb::ForLoopOp, mb::YieldOp,
          mb::ReturnOp>(op))
    return false;
  auto it = gridDeps.find(&op);
  if (it == gridDeps.end())
    return false;
  // Shared by blocks that agree on the grid dims it depends on, or, in the
  // loop body, by the iterations of one block when it does not depend on
  // the iteration (a loop-invariant tile).
  return (it->second & ~kIterationDep) != kernelGridMask ||
         (!(it->second & kIterationDep) &&
          isa_and_nonnull<mb::ForLoopOp>(op.getParentOp()));
}

template <typename Dom>
typename Evaluator<Dom>::ReuseKey Evaluator<Dom>::reuseKey(Operation &op,
                                                           int64_t iter) const {
  unsigned deps = gridDeps.lookup(&op);
  auto coord = [&](int g) { return (deps >> g) & 1 ? blockIdx[g] : 0; };
  // A value that does not depend on the iteration is kept once, not once
  // per iteration.
  return {&op, coord(0), coord(1), coord(2), deps & kIterationDep ? iter : -1};
}

template <typename Dom>
bool Evaluator<Dom>::takeReused(Operation &op, int64_t iter) {
  auto it = reused.find(reuseKey(op, iter));
  if (it == reused.end())
    return false;
  for (auto [res, val] : llvm::zip_equal(op.getResults(), it->second))
    env[res] = val;
  return true;
}

template <typename Dom>
void Evaluator<Dom>::saveReused(Operation &op, int64_t iter) {
  SmallVector<Val, 1> vals;
  int64_t elements = 0;
  for (Value res : op.getResults()) {
    const Val *v = lookup(res);
    if (!v)
      return;
    vals.push_back(*v);
    elements += v->t->numElements();
  }
  if (reusedElements + elements > kMaxReusedElements)
    return;
  reusedElements += elements;
  reused.emplace(reuseKey(op, iter), std::move(vals));
}

template <typename Dom>
bool Evaluator<Dom>::onlyFeedsReusable(Operation &op) const {
  Block *block = op.getBlock();
  for (Operation *user : op.getUsers()) {
    Operation *u = block->findAncestorOpInBlock(*user);
    if (!u || !isReusable(*u))
      return false;
  }
  return true;
}

template <typename Dom>
bool Evaluator<Dom>::isUnneeded(Operation &op, int64_t iter) {
  std::array<int64_t, 4> at = {blockIdx[0], blockIdx[1], blockIdx[2], iter};
  if (at != unneededAt) {
    unneeded.clear();
    unneededAt = at;
  }
  auto [it, inserted] = unneeded.try_emplace(&op, false);
  if (!inserted)
    return it->second;
  Block *block = op.getBlock();
  bool result = !op.use_empty();
  for (Operation *user : op.getUsers()) {
    Operation *u = block->findAncestorOpInBlock(*user);
    if (!u || !isReusable(*u) ||
        (!reused.count(reuseKey(*u, iter)) && !isUnneeded(*u, iter))) {
      result = false;
      break;
    }
  }
  unneeded[&op] = result;
  return result;
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalBlockGraphOp(Operation &op, int64_t iter,
                                               int64_t forloop) {
  bool reusable = isReusable(op);
  if (reusable && (takeReused(op, iter) || isUnneeded(op, iter)))
    return success();
  LogicalResult r = success();
  if (auto it = dyn_cast<mb::InputIterOp>(op))
    r = evalInputIter(it, forloop);
  else
    r = evalOp(op);
  // A value whose users are all reused is not needed again once they are
  // kept, so only the last reusable values on each path are held.
  if (succeeded(r) && reusable && !onlyFeedsReusable(op))
    saveReused(op, iter);
  return r;
}

template <typename Dom>
LogicalResult
Evaluator<Dom>::evalBlock(Block &body, const SaverIndex &saverIndex,
                          ArrayRef<std::shared_ptr<T>> outputs,
                          MutableArrayRef<Degree> outDegs, int64_t forloop) {
  Operation *kop = body.getParentOp();
  if (failed(checkDeadline(kop)))
    return failure();
  for (Operation &op : body.without_terminator()) {
    if (auto loop = dyn_cast<mb::ForLoopOp>(op)) {
      if (failed(evalLoop(loop, forloop)))
        return failure();
      continue;
    }
    auto saver = dyn_cast<mb::OutputSaverOp>(op);
    if (!saver) {
      if (failed(evalBlockGraphOp(op, /*iter=*/-1, forloop)))
        return failure();
      continue;
    }
    auto idx = saverIndex.find(saver);
    if (idx == saverIndex.end())
      return fail(saver, EvalErrorKind::InvalidInput,
                  "output saver result is not returned");
    Val tile;
    if (failed(get(saver, saver.getInput(), tile)))
      return failure();
    // A saver may be returned at several positions: fill each.
    for (unsigned pos : idx->second) {
      T &out = *outputs[pos];
      ArrayRef<int64_t> omap = saver.getOmap();
      std::optional<AffineMap> map = saver.getView();
      SmallVector<int64_t> logical =
          map ? saver.getLogicalShape()
              : SmallVector<int64_t>(ArrayRef<int64_t>(out.shape));
      SmallVector<int64_t, 4> off(logical.size(), 0), zero(off);
      if (tile.t->shape.size() != logical.size())
        return fail(saver, EvalErrorKind::InvalidInput,
                    "tile rank differs from the output rank");
      for (int g = 0; g < 3 && g < static_cast<int>(omap.size()); ++g)
        if (omap[g] >= 0)
          off[omap[g]] = blockIdx[g] * tile.t->shape[omap[g]];
      // [B26] a tail tile: only its part inside the output is written.
      SmallVector<int64_t, 4> extent(tile.t->shape.begin(),
                                     tile.t->shape.end());
      bool tail = false;
      for (size_t k = 0; k < off.size(); ++k)
        if (off[k] + tile.t->shape[k] > logical[k]) {
          if (off[k] >= logical[k] || mb::tailDims(saver).empty())
            return fail(saver, EvalErrorKind::InvalidInput,
                        "saved tile lies outside the output tensor");
          extent[k] = logical[k] - off[k];
          tail = true;
        }
      if (tail && !map) {
        copyBox(tile.t->data.data(), tile.t->shape, zero, out.data.data(),
                out.shape, off, extent);
        outDegs[pos] = maxDeg(outDegs[pos], tile.deg);
        continue;
      }
      if (map) {
        const ViewTables *view = viewTables(saver, *map, logical, out.shape);
        if (!view)
          return failure();
        copyTileThroughView(*view, tile.t->shape, off, out.data.data(),
                            const_cast<E *>(tile.t->data.data()),
                            /*toDevice=*/true);
      } else {
        copyBox(tile.t->data.data(), tile.t->shape, zero, out.data.data(),
                out.shape, off, tile.t->shape);
      }
      outDegs[pos] = maxDeg(outDegs[pos], tile.deg);
    }
  }
  return success();
}

/// MIRAGE_VERIFY_BLOCK_THREADS: 1 evaluates every kernel's blocks on one
/// thread, 2 on two threads whenever the savers allow it (for tests);
/// otherwise kernels whose first block is slow use two.
enum class BlockThreads { Adaptive, One, Always };
static BlockThreads blockThreadsMode() {
  const char *env = std::getenv("MIRAGE_VERIFY_BLOCK_THREADS");
  if (!env)
    return BlockThreads::Adaptive;
  StringRef v(env);
  return v == "1" ? BlockThreads::One
         : v == "2" ? BlockThreads::Always
                    : BlockThreads::Adaptive;
}

template <typename Dom>
bool Evaluator<Dom>::saversWriteDisjointTiles(Block &body,
                                              ArrayRef<int64_t> grid) {
  // Every grid dim of size > 1 must move every saver's tile along its own
  // output dim: then blocks that differ in some index write disjoint boxes.
  for (auto saver : body.getOps<mb::OutputSaverOp>()) {
    ArrayRef<int64_t> omap = saver.getOmap();
    llvm::SmallDenseSet<int64_t, 4> dims;
    for (int g = 0; g < 3; ++g) {
      if (grid[g] <= 1)
        continue;
      if (g >= static_cast<int>(omap.size()) || omap[g] < 0 ||
          !dims.insert(omap[g]).second)
        return false;
    }
  }
  return true;
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalBlocksInParallel(
    Block &body, ArrayRef<int64_t> grid, int64_t begin, int64_t end,
    const SaverIndex &saverIndex, ArrayRef<std::shared_ptr<T>> outputs,
    MutableArrayRef<Degree> outDegs, int64_t forloop) {
  // The helper gets the upper half of the blocks and its own domain, error,
  // infos, value map and reuse cache (it recomputes what it reuses). The
  // savers write disjoint tiles, so the outputs are shared. This evaluator
  // takes the lower half and always finishes it, so the first error in block
  // order is the one reported, as in a sequential run; the helper stops
  // early once this evaluator has failed.
  int64_t mid = begin + (end - begin) / 2;
  Dom helperDom = dom;
  helperDom.err.reset();
  EvalError helperError;
  FieldEvalInfo helperInfo;
  RealEvalInfo helperRealInfo;
  Evaluator helper(helperDom, helperError, info ? &helperInfo : nullptr,
                   realInfo ? &helperRealInfo : nullptr, deadline);
  helper.env = env;
  helper.currentKernel = currentKernel;
  helper.computeGridDeps(body, grid);
  SmallVector<Degree> helperDegs(outDegs.size(), constDeg());
  std::atomic<bool> mainFailed{false};
  LogicalResult helperResult = success();
  auto blockAt = [&](int64_t b) -> std::array<int64_t, 3> {
    return {b % grid[0], (b / grid[0]) % grid[1], b / (grid[0] * grid[1])};
  };
  std::thread other([&] {
    for (int64_t b = mid; b < end && !mainFailed; ++b) {
      helper.blockIdx = blockAt(b);
      if (failed(helper.evalBlock(body, saverIndex, outputs, helperDegs,
                                  forloop))) {
        helperResult = failure();
        return;
      }
    }
  });
  LogicalResult mainResult = success();
  for (int64_t b = begin; b < mid; ++b) {
    blockIdx = blockAt(b);
    if (failed(evalBlock(body, saverIndex, outputs, outDegs, forloop))) {
      mainResult = failure();
      mainFailed = true;
      break;
    }
  }
  other.join();
  if (failed(mainResult))
    return failure();
  if (failed(helperResult)) {
    error = helperError;
    return failure();
  }
  for (auto [mine, theirs] : llvm::zip_equal(outDegs, helperDegs))
    mine = maxDeg(mine, theirs);
  if (info) {
    info->usesExp |= helperInfo.usesExp;
    info->usesSqrt |= helperInfo.usesSqrt;
    info->usesOpaque |= helperInfo.usesOpaque;
    info->maxExpArgDegree =
        std::max(info->maxExpArgDegree, helperInfo.maxExpArgDegree);
  }
  // The lower blocks come first in a sequential run.
  if (realInfo && !realInfo->firstNonFinite && helperRealInfo.firstNonFinite)
    *realInfo = helperRealInfo;
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalKernel(GraphKernelOpInterface kernel) {
  Operation *kop = kernel;
  if (kop->getNumRegions() != 1 || kop->getRegion(0).empty())
    return fail(kop, EvalErrorKind::InvalidInput,
                "graph-defined kernel without a body");
  Block &body = kop->getRegion(0).front();
  ArrayRef<int64_t> grid = kernel.getGridDims();
  int64_t forloop = kernel.getForloopRange();
  if (grid.size() != 3 || forloop < 1 ||
      body.getNumArguments() != kop->getNumOperands())
    return fail(kop, EvalErrorKind::InvalidInput, "malformed kernel");
  for (auto [arg, operand] :
       llvm::zip(body.getArguments(), kop->getOperands())) {
    Val v;
    if (failed(get(kop, operand, v)))
      return failure();
    env[arg] = v;
  }
  auto ret = dyn_cast<mb::ReturnOp>(body.getTerminator());
  if (!ret || ret.getOutputs().size() != kop->getNumResults())
    return fail(kop, EvalErrorKind::InvalidInput,
                "block graph must end in mb.return of the kernel results");
  // Each saver's result is returned at some position; that is where the
  // blocks' tiles go.
  SaverIndex saverIndex;
  for (auto [i, v] : llvm::enumerate(ret.getOutputs()))
    if (Operation *def = v.getDefiningOp())
      saverIndex[def].push_back(i);
  SmallVector<std::shared_ptr<T>> outputs;
  SmallVector<Degree> outDegs(kop->getNumResults(), constDeg());
  for (Type t : kop->getResultTypes())
    outputs.push_back(
        std::make_shared<T>(cast<RankedTensorType>(t).getShape(), dom.zero()));

  GraphKernelOpInterface savedKernel = currentKernel;
  currentKernel = kernel;
  computeGridDeps(body, grid);
  // Frees the values held for reuse when the kernel is done (or fails).
  struct ReuseScope {
    Evaluator &ev;
    ~ReuseScope() {
      ev.reused.clear();
      ev.reusedElements = 0;
      ev.gridDeps.clear();
    }
  } reuseScope{*this};
  int64_t numBlocks = grid[0] * grid[1] * grid[2];
  auto blockAt = [&](int64_t b) -> std::array<int64_t, 3> {
    return {b % grid[0], (b / grid[0]) % grid[1], b / (grid[0] * grid[1])};
  };
  // Block 0 first; if it was slow, the others are split between this
  // evaluator and a helper (evalBlocksInParallel).
  auto start = std::chrono::steady_clock::now();
  blockIdx = blockAt(0);
  if (failed(evalBlock(body, saverIndex, outputs, outDegs, forloop)))
    return failure();
  double firstSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  BlockThreads mode = blockThreadsMode();
  bool slow = mode == BlockThreads::Always ||
              (mode == BlockThreads::Adaptive &&
               firstSeconds >= kParallelBlockSeconds &&
               std::thread::hardware_concurrency() >= 2);
  if (numBlocks >= 3 && slow && saversWriteDisjointTiles(body, grid)) {
    if (failed(evalBlocksInParallel(body, grid, 1, numBlocks, saverIndex,
                                    outputs, outDegs, forloop)))
      return failure();
  } else {
    for (int64_t b = 1; b < numBlocks; ++b) {
      blockIdx = blockAt(b);
      if (failed(evalBlock(body, saverIndex, outputs, outDegs, forloop)))
        return failure();
    }
  }
  currentKernel = savedKernel;
  for (auto [i, res] : llvm::enumerate(kop->getResults()))
    set(res, outputs[i], outDegs[i]);
  return success();
}

#define MIRAGE_INSTANTIATE_EVALUATOR_KERNELS(Dom)                              \
  template LogicalResult Evaluator<Dom>::evalThreadGraph(mt::ThreadGraphOp);   \
  template LogicalResult Evaluator<Dom>::evalKernel(GraphKernelOpInterface);
MIRAGE_FOR_EACH_DOMAIN(MIRAGE_INSTANTIATE_EVALUATOR_KERNELS)
