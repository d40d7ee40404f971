//===- KernelEmitterReduce.cpp - Row reductions with warp shuffles --------===//
//
// The row reductions of a graph-defined kernel (rms_norm, reduce_sum,
// reduce_max, the sum_last / mean_last / rms_last / sum_to accumulators)
// are cooperative: each thread reduces a strided part of a row in
// registers, a butterfly of gpu.shuffle xor (shfl.sync.bfly on the GPU,
// emulated lane by lane by mirage-gpu-launch-to-omp on the CPU) combines
// the lanes of a row, and a plan for few long rows adds one shared-memory
// step across the warps. The order of the additions is fixed, so every run
// gives the same result. The plan is CodePlan.h's planRowReduction, which
// the search's shared-memory count and the cost model read too.
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
        b, loc, v,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset), width,
        gpu::ShuffleMode::XOR);
    Value other = arith::SelectOp::create(b, loc, shuffle.getValid(),
                                          shuffle.getShuffleResult(),
                                          reduceIdentity(kind));
    v = reduceCombine(kind, v, other);
  }
  return v;
}

void KernelEmitter::reduceRows(
    Value in, ArrayRef<int64_t> rows, int64_t count, RowReduceKind kind,
    function_ref<SmallVector<Value>(ValueRange, Value)> at,
    function_ref<void(ValueRange, Value)> write, ArrayRef<Value> reads,
    ArrayRef<Value> writes, Value partials) {
  SmallVector<Value> firstReads(reads);
  firstReads.push_back(in);
  if (partials)
    stage({in}, {partials});
  else
    stage(firstReads, writes);
  int64_t numRows = 1;
  for (int64_t d : rows)
    numRows *= d;
  search::RowReducePlan plan = rowPlan(rows, count);
  if (plan.wholeBlock && !partials) {
    // No buffer was planned for the warps' totals (planSharedMemory and
    // this site disagree): a warp per row is as exact, only slower.
    plan.wholeBlock = false;
    plan.groupSize = search::kWarpSize;
  }
  auto c = [&](int64_t v) { return cIndex(b, loc, v); };
  auto minU = [&](Value x, Value y) {
    return arith::MinUIOp::create(b, loc, x, y).getResult();
  };
  auto ult = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y)
        .getResult();
  };
  // The threads that reduce: the block's (the CPU path may run a team of
  // more threads than the block has; the rest only join the shuffles).
  Value threads = minU(nthreads, c(blockThreads()));
  // The shuffles' width: the lanes of this thread's warp that exist (a
  // block of 48 threads has a second warp of 16).
  Value lane = arith::RemUIOp::create(b, loc, tid, c(search::kWarpSize));
  Value warpBase = arith::SubIOp::create(b, loc, tid, lane);
  Value width = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      minU(c(search::kWarpSize),
           arith::SubIOp::create(b, loc, nthreads, warpBase)));

  // This thread's part of a row: elements first, first + step, ... (none
  // if `valid` is false).
  auto partial = [&](ValueRange row, Value valid, Value first, Value step) {
    Value end = arith::SelectOp::create(b, loc, valid, c(count), c(0));
    auto loop = scf::ForOp::create(b, loc, first, end, step,
                                   ValueRange{reduceIdentity(kind)});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value x = loadF32(in, at(row, loop.getInductionVar()));
    if (kind == RowReduceKind::SumSquares)
      x = arith::MulFOp::create(b, loc, x, x);
    scf::YieldOp::create(
        b, loc, reduceCombine(kind, loop.getRegionIterArgs()[0], x));
    return loop.getResult(0);
  };
  auto writeIf = [&](Value cond, ValueRange row, Value v) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    write(row, v);
  };

  if (!plan.wholeBlock) {
    // Segments of `g` lanes (inside a warp, as g divides 32), one row each,
    // rows in rounds; the block's last segment may be shorter.
    int64_t g = plan.groupSize;
    Value seg = arith::DivUIOp::create(b, loc, tid, c(g));
    Value segLane = arith::RemUIOp::create(b, loc, tid, c(g));
    Value segStart = arith::MulIOp::create(b, loc, seg, c(g));
    Value segments = arith::DivUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, threads, c(g - 1)), c(g));
    Value inSegment = ult(tid, threads);
    Value segSize = arith::SelectOp::create(
        b, loc, inSegment,
        minU(c(g), arith::SubIOp::create(b, loc, threads,
                                         minU(segStart, threads))),
        c(1));
    Value rounds = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, c(numRows),
            arith::SubIOp::create(b, loc, segments, c(1))),
        segments);
    // Every thread runs every round: the shuffles need the whole warp.
    auto loop = scf::ForOp::create(b, loc, c(0), rounds, c(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, loop.getInductionVar(), segments),
        seg);
    Value valid =
        arith::AndIOp::create(b, loc, inSegment, ult(row, c(numRows)));
    SmallVector<Value> idx = delinearize(minU(row, c(numRows - 1)), rows);
    Value v = partial(idx, valid, segLane, segSize);
    v = butterfly(v, g, width, kind);
    writeIf(arith::AndIOp::create(
                b, loc, valid,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      segLane, c(0))),
            idx, v);
    return;
  }

  // Every thread on every row, one butterfly per warp and row; each warp's
  // first lane leaves its total in partials[row][warp].
  Value warp = arith::DivUIOp::create(b, loc, tid, c(search::kWarpSize));
  Value active = ult(tid, threads);
  {
    auto loop = scf::ForOp::create(b, loc, c(0), c(numRows), c(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    Value v = partial(delinearize(r, rows), active, tid, threads);
    v = butterfly(v, search::kWarpSize, width, kind);
    Value first = arith::AndIOp::create(
        b, loc, active,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, c(0)));
    auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    memref::StoreOp::create(b, loc, v, partials, ValueRange{r, warp});
  }
  // One step through shared memory: a thread per row adds the warps'
  // totals in warp order.
  SmallVector<Value> secondReads(reads);
  secondReads.push_back(partials);
  stage(secondReads, writes);
  Value warps = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, threads, c(search::kWarpSize - 1)),
      c(search::kWarpSize));
  auto rowLoop = scf::ForOp::create(b, loc, tid, c(numRows), nthreads);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rowLoop.getBody());
  Value r = rowLoop.getInductionVar();
  auto sum = scf::ForOp::create(b, loc, c(0), warps, c(1),
                                ValueRange{reduceIdentity(kind)});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(sum.getBody());
    Value x = memref::LoadOp::create(
        b, loc, partials, ValueRange{r, sum.getInductionVar()});
    scf::YieldOp::create(
        b, loc, reduceCombine(kind, sum.getRegionIterArgs()[0], x));
  }
  write(delinearize(r, rows), sum.getResult(0));
}

} // namespace mirage::lowering
