//===- KernelEmitterReduce.cpp - Row reductions with warp shuffles --------===//
//
// The row reductions of a graph-defined kernel (rms_norm, reduce_sum,
// reduce_max, the sum_last / mean_last / rms_last / sum_to accumulators)
// are cooperative: each thread reduces a strided part of a row in
// registers, a butterfly of gpu.shuffle xor (shfl.sync.bfly on the GPU,
// emulated lane by lane by mirage-gpu-launch-to-omp on the CPU) combines
// the lanes of a row, and a plan for few long rows adds one shared-memory
// step across the warps. Row-sum accumulators in registers carry each
// thread's parts of its rows through the loop and reduce them after it.
// The order of the additions is fixed, so every run gives the same result.
// The plan is CodePlan.h's planRowReduction, which the search's
// shared-memory count and the cost model read too.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace mirage::lowering {

search::RowReducePlan KernelEmitter::rowPlan(ArrayRef<int64_t> rows,
                                             int64_t count) {
  int64_t n = 1;
  for (int64_t d : rows)
    n *= d;
  return search::planRowReduction(n, count, blockThreads());
}

bool KernelEmitter::reducesRows(AccumulatorOpInterface acc) {
  switch (acc.getAccumulatorKind()) {
  case AccumulatorKind::SumLast:
  case AccumulatorKind::MeanLast:
  case AccumulatorKind::RmsLast:
  case AccumulatorKind::SumTo:
    return true;
  default:
    return false;
  }
}

void KernelEmitter::reservePartials(Value key, ArrayRef<int64_t> rows,
                                    int64_t count) {
  search::RowReducePlan plan = rowPlan(rows, count);
  if (!plan.wholeBlock)
    return;
  int64_t n = 1;
  for (int64_t d : rows)
    n *= d;
  int64_t warps = (blockThreads() + search::kWarpSize - 1) / search::kWarpSize;
  reserve(key, {n, warps}, b.getF32Type(), partialSlots);
}

Value KernelEmitter::reduceIdentity(RowReduceKind kind) {
  return cF32(b, loc,
              kind == RowReduceKind::Max
                  ? -std::numeric_limits<double>::infinity()
                  : 0.0);
}

Value KernelEmitter::reduceCombine(RowReduceKind kind, Value acc, Value x) {
  if (kind == RowReduceKind::Max)
    return arith::MaximumFOp::create(b, loc, acc, x);
  return arith::AddFOp::create(b, loc, acc, x);
}

Value KernelEmitter::butterfly(Value v, int64_t groupSize, Value width,
                               RowReduceKind kind) {
  // Lane l adds lane l ^ offset's value, offsets halving: after the last
  // step every lane of a full group holds the group's total. A partner at
  // or past `width` (lanes a partial warp lacks) is invalid and counts as
  // the identity; the group's first lane only ever reads lanes whose own
  // partners past the end are all missing, so its total stays exact.
  for (int64_t offset = groupSize / 2; offset >= 1; offset /= 2) {
    auto shuffle = gpu::ShuffleOp::create(
        b, loc, v, arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset),
        width, gpu::ShuffleMode::XOR);
    Value other = arith::SelectOp::create(b, loc, shuffle.getValid(),
                                          shuffle.getShuffleResult(),
                                          reduceIdentity(kind));
    v = reduceCombine(kind, v, other);
  }
  return v;
}

KernelEmitter::RowLanes KernelEmitter::rowLanes(search::RowReducePlan plan,
                                                ArrayRef<int64_t> rows,
                                                int64_t count, Value in,
                                                RowReduceKind kind,
                                                RowIndexFn at) {
  // Threads and lanes in the plan: computed where the reduction starts, so
  // they dominate its uses.
  RowLanes l;
  l.plan = plan;
  l.rows.assign(rows.begin(), rows.end());
  l.numRows = 1;
  for (int64_t d : rows)
    l.numRows *= d;
  l.count = count;
  l.in = in;
  l.kind = kind;
  l.at = std::move(at);
  auto c = [&](int64_t v) { return cIndex(b, loc, v); };
  // The threads that reduce: the block's (the CPU path may run a team of
  // more threads than the block has; the rest only join the shuffles).
  l.threads = arith::MinUIOp::create(b, loc, nthreads, c(blockThreads()));
  l.active =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, l.threads);
  // The shuffles' width: the lanes of this thread's warp that exist (a
  // block of 48 threads has a second warp of 16).
  l.lane = arith::RemUIOp::create(b, loc, tid, c(search::kWarpSize));
  l.warp = arith::DivUIOp::create(b, loc, tid, c(search::kWarpSize));
  Value warpBase = arith::SubIOp::create(b, loc, tid, l.lane);
  l.width = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::MinUIOp::create(
          b, loc, c(search::kWarpSize),
          arith::SubIOp::create(b, loc, nthreads, warpBase)));
  if (plan.wholeBlock) {
    l.first = tid;
    l.step = l.threads;
    l.leader = arith::AndIOp::create(
        b, loc, l.active,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, l.lane, c(0)));
    return l;
  }
  // Segments of `g` lanes (inside a warp, as g divides 32), one row each;
  // the block's last segment may be shorter.
  int64_t g = plan.groupSize;
  l.seg = arith::DivUIOp::create(b, loc, tid, c(g));
  Value segLane = arith::RemUIOp::create(b, loc, tid, c(g));
  Value segStart = arith::MulIOp::create(b, loc, l.seg, c(g));
  l.segments = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, l.threads, c(g - 1)), c(g));
  l.first = segLane;
  l.step = arith::SelectOp::create(
      b, loc, l.active,
      arith::MinUIOp::create(
          b, loc, c(g),
          arith::SubIOp::create(
              b, loc, l.threads,
              arith::MinUIOp::create(b, loc, segStart, l.threads))),
      c(1));
  l.leader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, segLane, c(0));
  return l;
}

std::pair<SmallVector<Value>, Value>
KernelEmitter::roundRow(const RowLanes &l, Value round, Value segments) {
  auto c = [&](int64_t v) { return cIndex(b, loc, v); };
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, round, segments), l.seg);
  Value valid = arith::AndIOp::create(
      b, loc, l.active,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                            c(l.numRows)));
  // An invalid row reads nothing; its index only has to exist.
  row = arith::MinUIOp::create(b, loc, row, c(l.numRows - 1));
  return {delinearize(row, l.rows), valid};
}

Value KernelEmitter::rowPart(const RowLanes &l, ValueRange row, Value valid) {
  auto c = [&](int64_t v) { return cIndex(b, loc, v); };
  Value end = arith::SelectOp::create(b, loc, valid, c(l.count), c(0));
  auto loop = scf::ForOp::create(b, loc, l.first, end, l.step,
                                 ValueRange{reduceIdentity(l.kind)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value x = loadF32(l.in, l.at(row, loop.getInductionVar()));
  if (l.kind == RowReduceKind::SumSquares)
    x = arith::MulFOp::create(b, loc, x, x);
  scf::YieldOp::create(b, loc,
                       reduceCombine(l.kind, loop.getRegionIterArgs()[0], x));
  return loop.getResult(0);
}

void KernelEmitter::finishRowPart(const RowLanes &l, ValueRange row,
                                  Value rowLinear, Value valid, Value part,
                                  RowWriteFn write, Value partials) {
  Value v = butterfly(part, l.plan.groupSize, l.width, l.kind);
  auto ifOp =
      scf::IfOp::create(b, loc, arith::AndIOp::create(b, loc, valid, l.leader),
                        /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  if (l.plan.wholeBlock)
    store(v, partials, ValueRange{rowLinear, l.warp});
  else
    write(row, v);
}

void KernelEmitter::combineWarpTotals(const RowLanes &l, Value partials,
                                      RowWriteFn write, ArrayRef<Value> reads,
                                      ArrayRef<Value> writes) {
  auto c = [&](int64_t v) { return cIndex(b, loc, v); };
  SmallVector<Value> allReads(reads);
  allReads.push_back(partials);
  stage(allReads, writes);
  Value warps = arith::DivUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, l.threads, c(search::kWarpSize - 1)),
      c(search::kWarpSize));
  auto rowLoop = scf::ForOp::create(b, loc, tid, c(l.numRows), nthreads);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rowLoop.getBody());
  Value r = rowLoop.getInductionVar();
  auto sum = scf::ForOp::create(b, loc, c(0), warps, c(1),
                                ValueRange{reduceIdentity(l.kind)});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(sum.getBody());
    Value x = load(partials, ValueRange{r, sum.getInductionVar()});
    scf::YieldOp::create(b, loc,
                         reduceCombine(l.kind, sum.getRegionIterArgs()[0], x));
  }
  write(delinearize(r, l.rows), sum.getResult(0));
}

void KernelEmitter::reduceRows(Value in, ArrayRef<int64_t> rows, int64_t count,
                               RowReduceKind kind, RowIndexFn at,
                               RowWriteFn write, ArrayRef<Value> reads,
                               ArrayRef<Value> writes, Value partials) {
  search::RowReducePlan plan = rowPlan(rows, count);
  if (plan.wholeBlock && !partials) {
    // No buffer was planned for the warps' totals (planSharedMemory and
    // this site disagree): a warp per row is as exact, only slower.
    plan = search::RowReducePlan();
    plan.groupSize = search::kWarpSize;
    plan.shuffleSteps = 5;
  }
  SmallVector<Value> firstReads(reads);
  firstReads.push_back(in);
  if (plan.wholeBlock)
    stage({in}, {partials});
  else
    stage(firstReads, writes);
  auto c = [&](int64_t v) { return cIndex(b, loc, v); };
  RowLanes l = rowLanes(plan, rows, count, in, kind, std::move(at));

  if (!plan.wholeBlock) {
    // Rows in rounds of one per segment. Every thread runs every round:
    // the shuffles need the whole warp.
    Value rounds = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, c(l.numRows),
                              arith::SubIOp::create(b, loc, l.segments, c(1))),
        l.segments);
    auto loop = scf::ForOp::create(b, loc, c(0), rounds, c(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    auto [row, valid] = roundRow(l, loop.getInductionVar(), l.segments);
    finishRowPart(l, row, Value(), valid, rowPart(l, row, valid), write,
                  Value());
    return;
  }

  // Every thread on every row, one butterfly per warp and row; each warp's
  // first lane leaves its total in partials[row][warp]; then one step
  // through shared memory: a thread per row adds the warps' totals in warp
  // order.
  {
    auto loop = scf::ForOp::create(b, loc, c(0), c(l.numRows), c(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    SmallVector<Value> row = delinearize(r, rows);
    finishRowPart(l, row, r, l.active, rowPart(l, row, l.active), write,
                  partials);
  }
  combineWarpTotals(l, partials, write, reads, writes);
}

int64_t KernelEmitter::rowPartsPerThread(AccumulatorOpInterface acc) {
  auto [rows, count] = accumRows(acc);
  int64_t numRows = 1;
  for (int64_t d : rows)
    numRows *= d;
  return search::rowPartsPerThread(rowPlan(rows, count), numRows,
                                   blockThreads());
}

std::pair<SmallVector<int64_t>, int64_t>
KernelEmitter::accumRows(AccumulatorOpInterface acc) {
  auto out = cast<RankedTensorType>(acc->getResult(0).getType());
  int64_t n =
      cast<RankedTensorType>(acc.getAccumulated().getType()).getShape().back();
  int64_t count = acc.getAccumulatorKind() == AccumulatorKind::SumTo
                      ? n / out.getShape().back()
                      : n;
  return {SmallVector<int64_t>(out.getShape()), count};
}

KernelEmitter::RowIndexFn
KernelEmitter::accumRowIndex(AccumulatorOpInterface acc) {
  bool sumTo = acc.getAccumulatorKind() == AccumulatorKind::SumTo;
  int64_t count = accumRows(acc).second;
  return [this, sumTo, count](ValueRange idx, Value k) {
    SmallVector<Value> at(idx.begin(), idx.end());
    at.back() = sumTo ? arith::AddIOp::create(
                            b, loc,
                            arith::MulIOp::create(b, loc, idx.back(),
                                                  cIndex(b, loc, count)),
                            k)
                      : k;
    return at;
  };
}

void KernelEmitter::accumulateRowParts(AccumulatorOpInterface acc) {
  Value x = buf(acc.getAccumulated());
  // Only the operand is read; the partial sums are this thread's.
  stage({x}, {});
  auto [rows, count] = accumRows(acc);
  search::RowReducePlan plan = rowPlan(rows, count);
  RowLanes l =
      rowLanes(plan, rows, count, x, accumReduceKind(acc), accumRowIndex(acc));
  SmallVector<Value> &vals = regAccs[acc.getOperation()];
  for (auto [j, v] : llvm::enumerate(vals)) {
    Value round = cIndex(b, loc, static_cast<int64_t>(j));
    SmallVector<Value> row;
    Value valid = l.active;
    if (plan.wholeBlock)
      row = delinearize(round, rows);
    else
      std::tie(row, valid) = roundRow(l, round, l.segments);
    v = arith::AddFOp::create(b, loc, v, rowPart(l, row, valid));
  }
}

void KernelEmitter::finishRowSums(AccumulatorOpInterface acc) {
  Value out = buf(acc->getResult(0));
  Value partials = partialTiles.lookup(acc->getResult(0));
  auto [rows, count] = accumRows(acc);
  search::RowReducePlan plan = rowPlan(rows, count);
  SmallVector<Value> &vals = regAccs[acc.getOperation()];
  auto write = [&](ValueRange row, Value v) { store(v, out, row); };
  // The kind only picks the identity and the combination (sums).
  RowLanes l =
      rowLanes(plan, rows, count, Value(), RowReduceKind::Sum, nullptr);
  if (!plan.wholeBlock) {
    stage({}, {out});
    for (auto [j, v] : llvm::enumerate(vals)) {
      auto [row, valid] =
          roundRow(l, cIndex(b, loc, static_cast<int64_t>(j)), l.segments);
      finishRowPart(l, row, Value(), valid, v, write, Value());
    }
    return;
  }
  stage({}, {partials});
  for (auto [j, v] : llvm::enumerate(vals)) {
    Value r = cIndex(b, loc, static_cast<int64_t>(j));
    finishRowPart(l, delinearize(r, rows), r, l.active, v, write, partials);
  }
  combineWarpTotals(l, partials, write, {}, {out});
}

KernelEmitter::RowReduceKind
KernelEmitter::accumReduceKind(AccumulatorOpInterface acc) {
  return acc.getAccumulatorKind() == AccumulatorKind::RmsLast
             ? RowReduceKind::SumSquares
             : RowReduceKind::Sum;
}

} // namespace mirage::lowering
