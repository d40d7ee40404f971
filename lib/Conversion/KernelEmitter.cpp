//===- KernelEmitter.cpp - One graph-defined kernel as gpu.launch ---------===//
//
// See KernelEmitter.h.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/ScopeExit.h"

#include "llvm/Support/Format.h"

namespace mirage::lowering {

MemRefType toMemRef(Type t) {
  auto tensor = cast<RankedTensorType>(t);
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

using search::kMaxRegisterAccumElems;

int64_t staticTrips(mk::GraphKernelOp kernel) {
  int64_t forloop = kernel.getForloop();
  return ShapedType::isDynamic(forloop) ? search::kMaxPipelineStages : forloop;
}

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value cF32(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

/// `src` (a row-major buffer) viewed with the static shape of `type`: a
/// collapse to one dim and an expansion, no copy.
Value emitReshape(OpBuilder &b, Location loc, Value src, MemRefType type,
                  ValueRange dynamicSizes) {
  auto all = [](int64_t rank) {
    ReassociationIndices dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d);
    return SmallVector<ReassociationIndices, 1>{dims};
  };
  auto srcType = cast<MemRefType>(src.getType());
  if (srcType.getRank() > 1)
    src = memref::CollapseShapeOp::create(b, loc, src, all(srcType.getRank()));
  if (type.getRank() > 1 && type.hasStaticShape())
    return memref::ExpandShapeOp::create(b, loc, type, src,
                                         all(type.getRank()));
  if (type.getRank() > 1)
    return memref::ExpandShapeOp::create(
        b, loc, type, src, all(type.getRank()),
        getMixedValues(type.getShape(), dynamicSizes, b));
  if (type != src.getType())
    return memref::CastOp::create(b, loc, type, src);
  return src;
}

void KernelEmitter::reserve(Value key, ArrayRef<int64_t> shape,
                            Type elementType,
                            llvm::DenseMap<Value, Slot> &into) {
  auto type = MemRefType::get(
      shape, elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::AddressSpace::Workgroup));
  int64_t width = elementByteWidth(elementType);
  search::SharedLayout layout = search::planSharedLayout(
      shape, width, &into == &slots && readAcrossRows.contains(key));
  into[key] = {smemBytes, type, layout};
  order.push_back({key, &into == &aux            ? SlotMap::Aux
                        : &into == &partialSlots ? SlotMap::Partials
                                                 : SlotMap::Tiles});
  smemBytes += search::sharedTileBytes(layout, type.getNumElements(), width);
}

int64_t KernelEmitter::planSharedMemory() {
  Type f32 = b.getF32Type();
  stages = std::min<int64_t>(maxStages, staticTrips(kernel));
  planLayouts();
  auto planOp = [&](Operation *op) {
    if (auto mm = dyn_cast<mb::MatmulOp>(op)) {
      if (mb::AccumSumOp acc = mb::accumulatedInPlace(mm);
          acc && !inRegisters(acc)) {
        inPlace[mm] = acc;
        return;
      }
    }
    for (Value r : op->getResults()) {
      auto t = cast<RankedTensorType>(r.getType());
      // Accumulators and the matmuls only they read are kept in f32.
      reserve(r, t.getShape(), mb::keptInF32(r) ? f32 : t.getElementType(),
              slots);
    }
    if (auto rms = dyn_cast<mb::RmsNormOp>(op)) {
      SmallVector<int64_t> shape(rms.getType().getShape());
      int64_t n = shape.back();
      shape.back() = 1;
      reserve(rms.getResult(), shape, f32, aux);
      reservePartials(rms.getResult(), shape, n);
    }
    if (isa<mb::ReduceSumOp, mb::ReduceMaxOp>(op)) {
      int64_t dim = isa<mb::ReduceMaxOp>(op)
                        ? cast<mb::ReduceMaxOp>(op).getDim()
                        : cast<mb::ReduceSumOp>(op).getDim();
      reservePartials(
          op->getResult(0),
          cast<RankedTensorType>(op->getResult(0).getType()).getShape(),
          cast<RankedTensorType>(op->getOperand(0).getType()).getDimSize(dim));
    }
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op);
        acc && reducesRows(acc)) {
      auto [rows, count] = accumRows(acc);
      reservePartials(acc->getResult(0), rows, count);
    }
    if (auto acc = dyn_cast<mb::AccumRescaledSumOp>(op))
      reserve(acc.getResult(), acc.getType().getShape(), f32, aux);
    // An epilogue input is copied after the loop, where it is read.
    if (auto it = dyn_cast<mb::InputIterOp>(op); it && !it.isEpilogue()) {
      if (isLoopInvariant(it)) {
        hoisted.push_back(it);
      } else if (asyncCopies && stages > 1 && asyncChunk(it) > 0) {
        // A pipeline: iteration i + stages - 1 loads while iteration i
        // computes. The tile's slot, just reserved, grows to `stages`
        // buffers.
        smemBytes += (stages - 1) * pipelineStride(it);
        pipelined.push_back(it);
      }
    }
  };
  // Shared memory by liveness, in three groups: what lives across the
  // loop (accumulators, whose buffers are the loop's results, with their
  // running maxima and row parts; anything before the loop), the loop's
  // other tiles (input tiles and their pipeline buffers, body values),
  // dead once the loop's last trip has passed its closing barrier (every
  // cp.async group of a trip is waited for in that trip), and what comes
  // after the loop, laid over the loop's tiles.
  mb::ForLoopOp loop = kernel.getForLoop();
  SmallVector<Operation *> across, inLoop, after;
  kernel.getBody().walk([&](Operation *op) {
    if (isa<mb::ForLoopOp, mb::OutputSaverOp, mb::YieldOp, mb::ReturnOp>(op) ||
        op->getParentOfType<mt::ThreadGraphOp>())
      return;
    if (loop && loop->isProperAncestor(op))
      (isa<AccumulatorOpInterface>(op) ? across : inLoop).push_back(op);
    else if (loop && op->getBlock() == loop->getBlock() &&
             loop->isBeforeInBlock(op))
      after.push_back(op);
    else
      across.push_back(op);
  });
  for (Operation *op : across)
    planOp(op);
  int64_t loopStart = smemBytes;
  for (Operation *op : inLoop)
    planOp(op);
  int64_t loopEnd = smemBytes;
  smemBytes = loopStart;
  for (Operation *op : after)
    planOp(op);
  smemBytes = std::max(smemBytes, loopEnd);
  return smemBytes;
}

Type KernelEmitter::tileElementType(Value v) {
  auto it = slots.find(v);
  if (it != slots.end())
    return it->second.type.getElementType();
  // Before the slots are reserved, as planSharedMemory will reserve them:
  // accumulators and the matmuls only they read in f32 (mb::keptInF32);
  // loop results are their accumulators' f32 buffers.
  if (!v.getDefiningOp() || mb::keptInF32(v))
    return b.getF32Type();
  return cast<RankedTensorType>(v.getType()).getElementType();
}

void KernelEmitter::planLayouts() {
  readAcrossRows.clear();
  if (!swizzle)
    return;
  // ldmatrix phases and scalar fragments read 8 rows at one column.
  kernel.getBody().walk([&](mb::MatmulOp mm) {
    if (!fitsMma(mm))
      return;
    readAcrossRows.insert(mm.getLhs());
    readAcrossRows.insert(mm.getRhs());
  });
}

Value KernelEmitter::sharedView(const Slot &slot, Value offset) {
  Value view = memref::ViewOp::create(b, loc, slot.type, rawShared, offset,
                                      ValueRange{});
  if (slot.layout.plain())
    return view;
  LaidOutView &laidOut = viewLayouts[view];
  laidOut.layout = slot.layout;
  if (slot.layout.padded()) {
    // The accesses index the whole slot, padding included.
    int64_t rows = slot.type.getNumElements() / slot.layout.rowElems;
    laidOut.flat = memref::ViewOp::create(
        b, loc,
        MemRefType::get({rows * slot.layout.rowPitch},
                        slot.type.getElementType(), MemRefLayoutAttrInterface(),
                        slot.type.getMemorySpace()),
        rawShared, offset, ValueRange{});
  }
  return view;
}

search::SharedLayout KernelEmitter::layoutOf(Value buf) {
  auto it = viewLayouts.find(buf);
  if (it != viewLayouts.end())
    return it->second.layout;
  auto type = cast<MemRefType>(buf.getType());
  return search::planSharedLayout(type.getShape(),
                                  elementByteWidth(type.getElementType()),
                                  /*readAcrossRows=*/false);
}

KernelEmitter::SharedRef KernelEmitter::sharedAccess(Value buf,
                                                     ValueRange idx) {
  SharedRef out{buf, SmallVector<Value>(idx)};
  auto it = viewLayouts.find(buf);
  if (it == viewLayouts.end() || idx.empty())
    return out;
  const search::SharedLayout &layout = it->second.layout;
  ArrayRef<int64_t> shape = cast<MemRefType>(buf.getType()).getShape();
  int64_t rank = shape.size();
  auto c = [&](int64_t v) { return cIndex(b, loc, v); };
  // The element's row and column: the last dim of the view holds whole
  // rows (several in the copies' collapsed views).
  int64_t rowsInLast = shape.back() / layout.rowElems;
  Value row, col = idx.back();
  if (rowsInLast > 1 && llvm::isPowerOf2_64(layout.rowElems)) {
    row = arith::ShRUIOp::create(b, loc, idx.back(),
                                 c(llvm::Log2_64(layout.rowElems)));
    col = arith::AndIOp::create(b, loc, idx.back(), c(layout.rowElems - 1));
  } else if (rowsInLast > 1) {
    row = arith::DivUIOp::create(b, loc, idx.back(), c(layout.rowElems));
    col = arith::RemUIOp::create(b, loc, idx.back(), c(layout.rowElems));
  }
  int64_t stride = rowsInLast;
  for (int64_t d = rank - 2; d >= 0; --d) {
    Value term =
        stride == 1
            ? idx[d]
            : arith::MulIOp::create(b, loc, idx[d], c(stride)).getResult();
    row = row ? arith::AddIOp::create(b, loc, row, term).getResult() : term;
    stride *= shape[d];
  }
  if (!row)
    row = c(0);
  if (layout.swizzled()) {
    // column ^ (((row >> rowShift) & xorMask) * unitElems): the XOR only
    // moves bits below the row's, so it applies to the view's last index.
    Value shifted =
        layout.rowShift > 0
            ? arith::ShRUIOp::create(b, loc, row, c(layout.rowShift))
                  .getResult()
            : row;
    Value flip = arith::AndIOp::create(b, loc, shifted, c(layout.xorMask));
    flip =
        arith::ShLIOp::create(b, loc, flip, c(llvm::Log2_64(layout.unitElems)));
    out.idx.back() = arith::XOrIOp::create(b, loc, idx.back(), flip);
    return out;
  }
  // Padded: row * rowPitch + column in the slot, linear in both (a step
  // along the row is a constant offset).
  out.mem = it->second.flat;
  out.idx.assign(
      {arith::AddIOp::create(
           b, loc, arith::MulIOp::create(b, loc, row, c(layout.rowPitch)), col)
           .getResult()});
  return out;
}

Value KernelEmitter::load(Value buf, ValueRange idx) {
  SharedRef ref = sharedAccess(buf, idx);
  return memref::LoadOp::create(b, loc, ref.mem, ref.idx);
}

void KernelEmitter::store(Value v, Value buf, ValueRange idx) {
  SharedRef ref = sharedAccess(buf, idx);
  memref::StoreOp::create(b, loc, v, ref.mem, ref.idx);
}

void KernelEmitter::checkBanks(Operation *op, StringRef what,
                               const search::BankCost &cost) {
  ++bankStats.checked;
  if (cost.extra() <= 0)
    return;
  ++bankStats.conflicted;
  std::string degree;
  llvm::raw_string_ostream(degree) << llvm::format("%.3g", cost.degree());
  op->emitRemark() << "shared-memory bank conflicts in " << what << ": "
                   << cost.wavefronts << " wavefronts where " << cost.ideal
                   << " would do (" << degree << "-way)";
}

void KernelEmitter::barrier() {
  gpu::BarrierOp::create(b, loc);
  ++numBarriers;
  dirty.clear();
  readSinceBarrier.clear();
}

void KernelEmitter::stage(ArrayRef<Value> reads, ArrayRef<Value> writes) {
  bool race = llvm::any_of(reads, [&](Value v) { return dirty.contains(v); }) ||
              llvm::any_of(writes, [&](Value v) {
                return dirty.contains(v) || readSinceBarrier.contains(v);
              });
  if (race)
    barrier();
  readSinceBarrier.insert(reads.begin(), reads.end());
  dirty.insert(writes.begin(), writes.end());
}

void KernelEmitter::forEachElement(ArrayRef<int64_t> shape,
                                   function_ref<void(ValueRange)> body) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  auto loop = scf::ForOp::create(b, loc, tid, cIndex(b, loc, n), nthreads);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(delinearize(loop.getInductionVar(), shape));
}

SmallVector<Value> KernelEmitter::delinearize(Value e,
                                              ArrayRef<int64_t> shape) {
  SmallVector<Value> idx(shape.size());
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value q = stride == 1 ? e
                          : arith::DivUIOp::create(b, loc, e,
                                                   cIndex(b, loc, stride));
    idx[d] = d == 0 ? q
                    : arith::RemUIOp::create(b, loc, q,
                                             cIndex(b, loc, shape[d]));
    stride *= shape[d];
  }
  return idx;
}

SmallVector<Value> KernelEmitter::broadcastIndex(Value buffer, ValueRange idx) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Value> out(idx);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) == 1)
      out[d] = cIndex(b, loc, 0);
  return out;
}

Value KernelEmitter::loadF32(Value buffer, ValueRange idx) {
  Value v = load(buffer, idx);
  if (!v.getType().isF32())
    v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return v;
}

void KernelEmitter::storeF32(Value buffer, ValueRange idx, Value v) {
  Type et = cast<MemRefType>(buffer.getType()).getElementType();
  if (et != v.getType())
    v = arith::TruncFOp::create(b, loc, et, v);
  store(v, buffer, idx);
}

void KernelEmitter::emitAccumInit(AccumulatorOpInterface acc) {
  Value out = buf(acc->getResult(0));
  SmallVector<Value> writes{out};
  double init = acc.getAccumulatorKind() == AccumulatorKind::Max
                    ? -std::numeric_limits<double>::infinity()
                    : 0.0;
  if (inRegisters(acc)) {
    int64_t n = 1;
    for (int64_t d : cast<MemRefType>(out.getType()).getShape())
      n *= d;
    int64_t t = blockThreads();
    // Row sums keep this thread's part of each of its rows.
    int64_t values =
        reducesRows(acc) ? rowPartsPerThread(acc) : (n + t - 1) / t;
    regAccs[acc.getOperation()].assign(values, cF32(b, loc, init));
    return;
  }
  Value runningMax = auxTiles.lookup(acc->getResult(0));
  if (runningMax)
    writes.push_back(runningMax);
  stage({}, writes);
  forEachElement(
      cast<MemRefType>(out.getType()).getShape(), [&](ValueRange idx) {
        store(cF32(b, loc, init), out, idx);
        if (runningMax)
          store(cF32(b, loc, -std::numeric_limits<double>::infinity()),
                runningMax, idx);
      });
}

void KernelEmitter::emitAccumUpdate(AccumulatorOpInterface acc) {
  Value out = buf(acc->getResult(0));
  Value x = buf(acc.getAccumulated());
  auto shape = cast<MemRefType>(out.getType()).getShape();
  if (inRegisters(acc) && reducesRows(acc)) {
    accumulateRowParts(acc);
    return;
  }
  if (inRegisters(acc)) {
    // Only the operand is read; the running values are this thread's.
    stage({x}, {});
    SmallVector<Value> &vals = regAccs[acc.getOperation()];
    SmallVector<Value> next;
    forEachOwnedElement(
        shape,
        [&](int64_t j, ValueRange idx) { return accumStep(acc, vals[j], idx); },
        [&](int64_t j) { return vals[j]; }, next);
    vals = next;
    return;
  }
  if (reducesRows(acc)) {
    // One thread per row adds the row's sum of this iteration to its
    // accumulator element.
    Value partials = partialTiles.lookup(acc->getResult(0));
    reduceRows(
        x, shape, accumRows(acc).second, accumReduceKind(acc),
        accumRowIndex(acc),
        [&](ValueRange idx, Value v) {
          Value old = load(out, idx);
          store(arith::AddFOp::create(b, loc, old, v), out, idx);
        },
        {out}, {out}, partials);
    return;
  }
  Value runningMax = auxTiles.lookup(acc->getResult(0));
  SmallVector<Value> reads{x, out}, writes{out};
  Value m;
  if (auto rs = dyn_cast<mb::AccumRescaledSumOp>(acc.getOperation())) {
    m = buf(rs.getMax());
    reads.push_back(m);
    reads.push_back(runningMax);
    writes.push_back(runningMax);
  }
  stage(reads, writes);
  forEachElement(shape, [&](ValueRange idx) {
    Value old = load(out, idx);
    Value next;
    if (!m)
      next = accumStep(acc, old, idx);
    if (auto rs = dyn_cast<mb::AccumRescaledSumOp>(acc.getOperation())) {
      // M' = max(M, m); acc' = acc exp(M - M') + x exp(m - M')
      Value mi = loadF32(m, broadcastIndex(m, idx));
      Value mOld = load(runningMax, idx);
      Value mNew = arith::MaximumFOp::create(b, loc, mOld, mi);
      Value scaleOld =
          emitExp(b, loc, arith::SubFOp::create(b, loc, mOld, mNew));
      Value scaleNew =
          emitExp(b, loc, arith::SubFOp::create(b, loc, mi, mNew));
      next = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, old, scaleOld),
          arith::MulFOp::create(b, loc, loadF32(x, idx), scaleNew));
      store(mNew, runningMax, idx);
    }
    store(next, out, idx);
  });
}

Value KernelEmitter::accumStep(AccumulatorOpInterface acc, Value old,
                               ValueRange idx) {
  Value x = loadF32(buf(acc.getAccumulated()), idx);
  switch (acc.getAccumulatorKind()) {
  case AccumulatorKind::Sum:
    return arith::AddFOp::create(b, loc, old, x);
  case AccumulatorKind::Max:
    return arith::MaximumFOp::create(b, loc, old, x);
  default:
    // Row sums go through reduceRows; rescaled_sum needs the running
    // maximum too (emitAccumUpdate).
    llvm_unreachable("not an element-wise accumulator");
  }
}

bool KernelEmitter::inRegisters(AccumulatorOpInterface acc) {
  if (!registerAccumulators || isa<mb::AccumRescaledSumOp>(acc.getOperation()))
    return false;
  // Row sums keep this thread's parts of its rows and reduce them after
  // the loop.
  if (reducesRows(acc))
    return rowPartsPerThread(acc) <= kMaxRegisterAccumElems;
  int64_t n = 1;
  for (int64_t d :
       cast<RankedTensorType>(acc->getResult(0).getType()).getShape())
    n *= d;
  int64_t t = blockThreads();
  return (n + t - 1) / t <= kMaxRegisterAccumElems;
}

void KernelEmitter::forEachOwnedElement(
    ArrayRef<int64_t> shape, function_ref<Value(int64_t, ValueRange)> body,
    function_ref<Value(int64_t)> fallback, SmallVectorImpl<Value> &results) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  int64_t t = blockThreads();
  for (int64_t j = 0; j * t < n; ++j) {
    Value e = arith::AddIOp::create(b, loc, tid, cIndex(b, loc, j * t));
    auto indexOf = [&]() { return delinearize(e, shape); };
    if ((j + 1) * t <= n) {
      results.push_back(body(j, indexOf()));
      continue;
    }
    // The last round: threads past the end keep their value.
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          e, cIndex(b, loc, n));
    auto ifOp = scf::IfOp::create(b, loc, b.getF32Type(), inRange,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, loc, body(j, indexOf()));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, fallback(j));
    results.push_back(ifOp.getResult(0));
  }
}

void KernelEmitter::spillRegisterAccum(AccumulatorOpInterface acc) {
  if (reducesRows(acc)) {
    finishRowSums(acc);
    return;
  }
  Value out = buf(acc->getResult(0));
  SmallVector<Value> &vals = regAccs[acc.getOperation()];
  stage({}, {out});
  SmallVector<Value> unused;
  forEachOwnedElement(
      cast<MemRefType>(out.getType()).getShape(),
      [&](int64_t j, ValueRange idx) {
        store(vals[j], out, idx);
        return vals[j];
      },
      [&](int64_t j) { return vals[j]; }, unused);
}

void KernelEmitter::emitAccumFinal(AccumulatorOpInterface acc) {
  AccumulatorKind kind = acc.getAccumulatorKind();
  if (kind != AccumulatorKind::MeanLast && kind != AccumulatorKind::RmsLast)
    return;
  Value out = buf(acc->getResult(0));
  int64_t n = cast<RankedTensorType>(acc.getAccumulated().getType())
                  .getShape()
                  .back();
  // n elements a trip (a tile that does not run along a walked tail,
  // [B28]), every trip of the loop.
  Value count = arith::UIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          arith::MulIOp::create(b, loc, tripCount, cIndex(b, loc, n))));
  double eps = 0.0;
  if (auto rms = dyn_cast<mb::AccumRmsLastOp>(acc.getOperation()))
    eps = rms.getEps().convertToDouble();
  stage({out}, {out});
  forEachElement(cast<MemRefType>(out.getType()).getShape(),
                 [&](ValueRange idx) {
                   Value v = load(out, idx);
                   v = arith::DivFOp::create(b, loc, v, count);
                   if (kind == AccumulatorKind::RmsLast)
                     v = math::SqrtOp::create(
                         b, loc, arith::AddFOp::create(b, loc, v,
                                                       cF32(b, loc, eps)));
                   store(v, out, idx);
                 });
}

LogicalResult KernelEmitter::emitTileOp(Operation *op) {
  if (auto mask = dyn_cast<mb::TailMaskOp>(op)) {
    emitTailMask(mask);
    return success();
  }
  if (auto mask = dyn_cast<mb::BandMaskOp>(op)) {
    emitBandMask(mask);
    return success();
  }
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
    SmallVector<Value> ins;
    for (Value v : op->getOperands())
      ins.push_back(buf(v));
    Value out = buf(op->getResult(0));
    stage(ins, {out});
    SmallVector<double, 2> params = ew.getScalarParams();
    forEachElement(cast<MemRefType>(out.getType()).getShape(),
                   [&](ValueRange idx) {
                     SmallVector<Value> xs;
                     for (Value in : ins)
                       xs.push_back(loadF32(in, broadcastIndex(in, idx)));
                     storeF32(out, idx,
                              emitScalar(b, loc, ew.getElementwiseKind(),
                                         params, xs));
                   });
    return success();
  }
  if (auto tg = dyn_cast<mt::ThreadGraphOp>(op)) {
    SmallVector<Value> ins, outs;
    for (Value v : tg.getInputs())
      ins.push_back(buf(v));
    for (Value v : tg.getResults())
      outs.push_back(buf(v));
    stage(ins, outs);
    Block &body = tg.getBody().front();
    forEachElement(cast<MemRefType>(outs[0].getType()).getShape(),
                   [&](ValueRange idx) {
                     llvm::DenseMap<Value, Value> scalar;
                     for (auto [arg, in] :
                          llvm::zip_equal(body.getArguments(), ins))
                       scalar[arg] = loadF32(in, broadcastIndex(in, idx));
                     for (Operation &inner : body.without_terminator()) {
                       auto e = cast<ElementwiseOpInterface>(inner);
                       SmallVector<Value> xs;
                       for (Value v : inner.getOperands())
                         xs.push_back(scalar.lookup(v));
                       Value v = emitScalar(b, loc, e.getElementwiseKind(),
                                            e.getScalarParams(), xs);
                       // A conversion in registers rounds to its type (the
                       // value stays f32 for the ops after it).
                       Type to = inner.getResult(0).getType();
                       if (e.getElementwiseKind() == ElementwiseKind::Convert &&
                           !to.isF32())
                         v = arith::ExtFOp::create(
                             b, loc, b.getF32Type(),
                             arith::TruncFOp::create(b, loc, to, v)
                                 .getResult());
                       scalar[inner.getResult(0)] = v;
                     }
                     for (auto [v, out] : llvm::zip_equal(
                              body.getTerminator()->getOperands(), outs))
                       storeF32(out, idx, scalar.lookup(v));
                   });
    return success();
  }
  if (auto mm = dyn_cast<mb::MatmulOp>(op)) {
    Value lhs = buf(mm.getLhs()), rhs = buf(mm.getRhs()),
          out = buf(mm.getResult());
    if (inPlace.contains(mm))
      stage({lhs, rhs, out}, {out});
    else
      stage({lhs, rhs}, {out});
    if (fitsMma(mm)) {
      emitMmaMatmul(mm);
      return success();
    }
    emitFmaMatmul(mm);
    return success();
  }
  if (isa<mb::ReduceSumOp, mb::ReduceMaxOp>(op)) {
    bool isMax = isa<mb::ReduceMaxOp>(op);
    int64_t dim = isMax ? cast<mb::ReduceMaxOp>(op).getDim()
                        : cast<mb::ReduceSumOp>(op).getDim();
    Value in = buf(op->getOperand(0)), out = buf(op->getResult(0));
    Value partials = partialTiles.lookup(op->getResult(0));
    reduceRows(
        in, cast<MemRefType>(out.getType()).getShape(),
        cast<MemRefType>(in.getType()).getDimSize(dim),
        isMax ? RowReduceKind::Max : RowReduceKind::Sum,
        [&](ValueRange idx, Value k) {
          SmallVector<Value> at(idx);
          at[dim] = k;
          return at;
        },
        [&](ValueRange idx, Value v) { storeF32(out, idx, v); }, {}, {out},
        partials);
    return success();
  }
  if (auto rms = dyn_cast<mb::RmsNormOp>(op)) {
    Value in = buf(rms.getInput()), out = buf(rms.getResult());
    Value stat = auxTiles.lookup(rms.getResult());
    Value partials = partialTiles.lookup(rms.getResult());
    Value weight = rms.getWeight() ? buf(rms.getWeight()) : Value();
    int64_t n = rms.getType().getShape().back();
    double eps = rms.getEps().convertToDouble();
    reduceRows(
        in, cast<MemRefType>(stat.getType()).getShape(), n,
        RowReduceKind::SumSquares,
        [&](ValueRange idx, Value k) {
          SmallVector<Value> at(idx);
          at.back() = k;
          return at;
        },
        [&](ValueRange idx, Value ss) {
          Value mean = arith::DivFOp::create(
              b, loc, ss, cF32(b, loc, static_cast<double>(n)));
          store(math::SqrtOp::create(
                    b, loc,
                    arith::AddFOp::create(b, loc, mean, cF32(b, loc, eps))),
                stat, idx);
        },
        {}, {stat}, partials);
    SmallVector<Value> reads{in, stat};
    if (weight)
      reads.push_back(weight);
    stage(reads, {out});
    forEachElement(rms.getType().getShape(), [&](ValueRange idx) {
      SmallVector<Value> row(idx);
      row.back() = cIndex(b, loc, 0);
      Value y =
          arith::DivFOp::create(b, loc, loadF32(in, idx), load(stat, row));
      if (weight)
        y = arith::MulFOp::create(b, loc, y,
                                  loadF32(weight, ValueRange{idx.back()}));
      storeF32(out, idx, y);
    });
    return success();
  }
  if (auto tr = dyn_cast<mb::TransposeOp>(op)) {
    Value in = buf(tr.getInput()), out = buf(tr.getResult());
    stage({in}, {out});
    ArrayRef<int64_t> perm = tr.getPerm();
    forEachElement(tr.getType().getShape(), [&](ValueRange idx) {
      SmallVector<Value> at(idx.size());
      for (size_t k = 0; k < perm.size(); ++k)
        at[perm[k]] = idx[k];
      // The input may be an f32 accumulator buffer.
      storeF32(out, idx, loadF32(in, at));
    });
    return success();
  }
  if (auto cat = dyn_cast<mb::ConcatOp>(op)) {
    SmallVector<Value> ins;
    for (Value v : cat.getInputs())
      ins.push_back(buf(v));
    Value out = buf(cat.getResult());
    stage(ins, {out});
    int64_t dim = cat.getDim(), base = 0;
    for (Value in : ins) {
      auto shape = cast<MemRefType>(in.getType()).getShape();
      forEachElement(shape, [&](ValueRange idx) {
        SmallVector<Value> at(idx);
        at[dim] = arith::AddIOp::create(b, loc, idx[dim], cIndex(b, loc, base));
        storeF32(out, at, loadF32(in, idx));
      });
      base += shape[dim];
    }
    return success();
  }
  return op->emitOpError("is not supported by convert-mirage-to-gpu");
}

void KernelEmitter::emitBandMask(mb::BandMaskOp op) {
  Value in = buf(op.getInput()), out = buf(op.getResult());
  stage({in}, {out});
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> origin =
      tileOrigin(shape, op.getImap(), op.getFmap(), loopIv);
  ArrayRef<int64_t> dims = op.getDims();
  std::optional<int64_t> lower = op.getLower(), upper = op.getUpper();
  double fill = op.getFill().convertToDouble();
  bool additive = op.getAdditive();
  forEachElement(shape, [&](ValueRange idx) {
    auto at = [&](int64_t d) {
      return arith::AddIOp::create(b, loc, origin[d], idx[d]).getResult();
    };
    // diff = i[c] - i[r] (i[c] alone for one dim), in the masked tensor.
    Value diff = at(dims.back());
    if (dims.size() == 2)
      diff = arith::SubIOp::create(b, loc, diff, at(dims[0]));
    Value keep;
    auto both = [&](Value c) {
      keep = keep ? arith::AndIOp::create(b, loc, keep, c).getResult() : c;
    };
    if (lower)
      both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, diff,
                                 cIndex(b, loc, *lower)));
    if (upper)
      both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, diff,
                                 cIndex(b, loc, *upper)));
    Value x = loadF32(in, idx);
    Value masked = cF32(b, loc, fill);
    if (additive)
      masked = arith::AddFOp::create(b, loc, x, masked);
    storeF32(out, idx, arith::SelectOp::create(b, loc, keep, x, masked));
  });
}

void KernelEmitter::emitTailMask(mb::TailMaskOp op) {
  Value in = buf(op.getInput()), out = buf(op.getResult());
  int64_t dim = op.getDim();
  ArrayRef<int64_t> shape = op.getType().getShape();
  // No tail where the walked size is known to be a multiple of the tile
  // (a fact, or the unmasked variant): the mask is its input.
  mb::LoopWalk walk = *mb::loopWalk(kernel.getForLoop());
  auto known = divisors.find(
      {walk.iterator.getInput(), static_cast<unsigned>(walk.dim)});
  if (known != divisors.end() && known->second % shape[dim] == 0) {
    tiles[op.getResult()] = in;
    return;
  }
  stage({in}, {out});
  Value extent = walkedExtent;
  // The trip's first element along the walked dim.
  Value start =
      arith::MulIOp::create(b, loc, loopIv, cIndex(b, loc, shape[dim]));
  Value fill = cF32(b, loc, op.getFill().convertToDouble());
  forEachElement(shape, [&](ValueRange idx) {
    Value at = arith::AddIOp::create(b, loc, start, idx[dim]);
    Value keep =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at, extent);
    storeF32(out, idx,
             arith::SelectOp::create(b, loc, keep, loadF32(in, idx), fill));
  });
}

LogicalResult KernelEmitter::emitLoopBody(mb::ForLoopOp loop, Value iv) {
  loopIv = iv;
  llvm::scope_exit clear([&] { loopIv = Value(); });
  emitPipelineStep(iv);
  for (Operation &op : loop.getBody().front()) {
    if (isa<mb::YieldOp>(op))
      continue;
    if (auto it = dyn_cast<mb::InputIterOp>(op)) {
      emitInputIter(it, iv);
      continue;
    }
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
      // A matmul accumulated in place has updated it already.
      if (!inPlace.contains(acc.getAccumulated().getDefiningOp()))
        emitAccumUpdate(acc);
      continue;
    }
    if (failed(emitTileOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult KernelEmitter::emit(gpu::LaunchOp launch) {
  Block &entry = launch.getBody().front();
  b.setInsertionPointToStart(&entry);
  gpu::KernelDim3 t = launch.getThreadIds(), bd = launch.getBlockSize(),
                  bid = launch.getBlockIds();
  blockIds[0] = bid.x;
  blockIds[1] = bid.y;
  blockIds[2] = bid.z;
  // Linear thread id and thread count: every stage strides by them.
  Value xy = arith::MulIOp::create(b, loc, bd.x, bd.y);
  tid = arith::AddIOp::create(
      b, loc, t.x,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, t.y, bd.x),
                            arith::MulIOp::create(b, loc, t.z, xy)));
  nthreads = arith::MulIOp::create(b, loc, xy, bd.z);

  auto rawType = MemRefType::get(
      {ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::AddressSpace::Workgroup));
  Value raw = gpu::DynamicSharedMemoryOp::create(b, loc, rawType);
  rawShared = raw;
  auto view = [&](const Slot &s) {
    return sharedView(s, cIndex(b, loc, s.offset));
  };
  for (auto [v, map] : order) {
    if (map == SlotMap::Aux)
      auxTiles[v] = view(aux.lookup(v));
    else if (map == SlotMap::Partials)
      partialTiles[v] = view(partialSlots.lookup(v));
    else
      tiles[v] = view(slots.lookup(v));
  }
  for (auto [mm, acc] : inPlace)
    tiles[mm->getResult(0)] = tiles.lookup(acc.getResult());

  mb::ForLoopOp loop = kernel.getForLoop();
  // The walked extent, read once (from the walking tensor under a `?`
  // loop, [K21], which makes ceil(extent / tile) trips).
  std::optional<mb::LoopWalk> walk = mb::loopWalk(loop);
  if (walk)
    walkedExtent = ShapedType::isDynamic(walk->extent)
                       ? memref::DimOp::create(
                             b, loc, global.lookup(walk->iterator.getInput()),
                             mb::deviceDimOf(walk->iterator, walk->dim))
                             .getResult()
                       : cIndex(b, loc, walk->extent);
  tripCount = ShapedType::isDynamic(kernel.getForloop())
                  ? arith::CeilDivUIOp::create(b, loc, walkedExtent,
                                               cIndex(b, loc, walk->tile))
                        .getResult()
                  : cIndex(b, loc, kernel.getForloop());
  SmallVector<AccumulatorOpInterface> accs;
  for (Operation &op : loop.getBody().front())
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op))
      accs.push_back(acc);
  for (AccumulatorOpInterface acc : accs)
    emitAccumInit(acc);
  emitLoopPrologue();

  // Accumulators in registers are loop-carried values.
  SmallVector<Value> carried;
  for (auto &[op, vals] : regAccs)
    carried.append(vals.begin(), vals.end());
  auto forOp = scf::ForOp::create(b, loc, cIndex(b, loc, 0), tripCount,
                                  cIndex(b, loc, 1), carried);
  auto rebind = [&](ValueRange values) {
    size_t next = 0;
    for (auto &[op, vals] : regAccs)
      for (Value &v : vals)
        v = values[next++];
  };
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = forOp.getBody();
    if (carried.empty())
      b.setInsertionPoint(body->getTerminator());
    else
      b.setInsertionPointToEnd(body);
    rebind(forOp.getRegionIterArgs());
    if (failed(emitLoopBody(loop, forOp.getInductionVar())))
      return failure();
    // The next iteration overwrites the input tiles other threads read.
    barrier();
    if (!carried.empty()) {
      SmallVector<Value> yielded;
      for (auto &[op, vals] : regAccs)
        yielded.append(vals.begin(), vals.end());
      scf::YieldOp::create(b, loc, yielded);
    }
  }
  rebind(forOp.getResults());
  // The spilled accumulators are dirty: post-loop ops and output savers
  // read elements other threads own (broadcasts, vector chunks).
  for (AccumulatorOpInterface acc : accs)
    if (inRegisters(acc))
      spillRegisterAccum(acc);
  // Loop results are the accumulator buffers.
  auto yield = cast<mb::YieldOp>(loop.getBody().front().getTerminator());
  for (auto [r, v] : llvm::zip_equal(loop.getResults(), yield.getValues()))
    tiles[r] = tiles.lookup(v);
  for (AccumulatorOpInterface acc : accs)
    emitAccumFinal(acc);

  for (Operation &op : kernel.getBody().front()) {
    if (isa<mb::ForLoopOp, mb::ReturnOp>(op))
      continue;
    if (auto saver = dyn_cast<mb::OutputSaverOp>(op)) {
      emitOutputSaver(saver);
      continue;
    }
    // An epilogue input: its tile of this block, once, with the vector
    // copies of the loop's tiles.
    if (auto it = dyn_cast<mb::InputIterOp>(op)) {
      emitInputIter(it, Value());
      continue;
    }
    if (failed(emitTileOp(&op)))
      return failure();
  }
  gpu::TerminatorOp::create(b, loc);
  return success();
}

} // namespace mirage::lowering
