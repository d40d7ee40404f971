//===- KernelEmitterCopies.cpp - Tile copies of a graph-defined kernel ----===//
//
// The global-memory traffic of KernelEmitter: input iterators (loop-invariant
// tiles loaded once before the loop, walking tiles in a multi-stage cp.async
// pipeline, the rest with vector loads) and output savers (vector stores).
// Every copy moves the widest chunk, 16, 8 or 4 bytes, that is contiguous
// and aligned in both memories; one element at a time only where the rows
// (or a view of the device tensor) allow no chunk, with a remark that says
// why (docs/lowering.md). A device tensor read or written through a view is
// addressed by the view's offsets (sideIndex, viewOffset).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace mirage::lowering {

/// `v` (a float scalar or vector) converted to `type`, the same shape with
/// another float element type.
static Value convertFloat(OpBuilder &b, Location loc, Value v, Type type) {
  unsigned from = getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  unsigned to = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  if (from > to)
    return arith::TruncFOp::create(b, loc, type, v);
  if (from < to)
    return arith::ExtFOp::create(b, loc, type, v);
  return v;
}

Value KernelEmitter::collapseForCopy(Value memref, const TileCopy &plan) {
  auto type = cast<MemRefType>(memref.getType());
  if (plan.mergeFrom + 1 >= type.getRank())
    return memref;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < plan.mergeFrom; ++d)
    groups.push_back({d});
  groups.emplace_back();
  for (int64_t d = plan.mergeFrom; d < type.getRank(); ++d)
    groups.back().push_back(d);
  Value collapsed = memref::CollapseShapeOp::create(b, loc, memref, groups);
  // The merged rows hold whole rows of the tile: the same layout.
  auto layout = viewLayouts.find(memref);
  if (layout != viewLayouts.end()) {
    LaidOutView laidOut = layout->second;
    viewLayouts[collapsed] = laidOut;
  }
  return collapsed;
}

/// Whether `memref` is in shared (workgroup) memory.
static bool inWorkgroup(Value memref) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
      cast<MemRefType>(memref.getType()).getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

SmallVector<Value> KernelEmitter::collapseOrigin(ArrayRef<Value> origin,
                                                 ArrayRef<int64_t> shape,
                                                 const TileCopy &plan) {
  SmallVector<Value> out(origin.begin(), origin.begin() + plan.mergeFrom);
  Value merged = cIndex(b, loc, 0);
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= plan.mergeFrom; --d) {
    merged = arith::AddIOp::create(
        b, loc, merged,
        arith::MulIOp::create(b, loc, origin[d], cIndex(b, loc, stride)));
    // The outermost merged dim's extent (dynamic in a dynamic kernel) is
    // no stride.
    if (d > plan.mergeFrom)
      stride *= shape[d];
  }
  out.push_back(merged);
  return out;
}

FailureOr<std::optional<mb::StridedView>>
KernelEmitter::analyzeView(Operation *op, std::string &why) {
  FailureOr<std::optional<mb::StridedView>> view = mb::analyzeView(op, why);
  // The identity view is lowered as no view.
  if (succeeded(view) && *view && (*view)->isIdentity())
    return std::optional<mb::StridedView>();
  return view;
}

const mb::StridedView *KernelEmitter::viewOf(Operation *op) {
  auto it = deviceViews.find(op);
  if (it == deviceViews.end()) {
    std::string why;
    FailureOr<std::optional<mb::StridedView>> view = analyzeView(op, why);
    // The pass checked every view before planning (MirageToGPU.cpp).
    it = deviceViews.try_emplace(op, succeeded(view) ? *view : std::nullopt)
             .first;
  }
  return it->second ? &*it->second : nullptr;
}

TileCopy KernelEmitter::planCopy(ArrayRef<int64_t> tile,
                                 ArrayRef<int64_t> device, Type element,
                                 const mb::StridedView *view) {
  int64_t width = elementByteWidth(element);
  if (!view)
    return planTileCopy(tile, device, width);
  return planViewCopy(tile, view->getShape(), width, [&](int64_t maxElems) {
    return view->contiguousRun(maxElems);
  });
}

TileCopy KernelEmitter::inputCopy(mb::InputIterOp op) {
  auto in = op.getInput().getType();
  return planCopy(op.getType().getShape(), in.getShape(), in.getElementType(),
                  viewOf(op));
}

Value KernelEmitter::viewOffset(const mb::StridedView &view,
                                ArrayRef<Value> idx) {
  Value off = cIndex(b, loc, view.getOffset());
  ArrayRef<int64_t> shape = view.getShape();
  // Indices are non-negative: unsigned division and remainder. A digit
  // whose radix times extent covers its dim never wraps (StridedView
  // clamps extents to the dim), so it needs no remainder.
  for (const mb::ViewMode &m : view.getModes()) {
    Value digit = idx[m.dim];
    if (m.radix > 1)
      digit = arith::DivUIOp::create(b, loc, digit, cIndex(b, loc, m.radix));
    if (m.radix * m.extent < shape[m.dim])
      digit = arith::RemUIOp::create(b, loc, digit, cIndex(b, loc, m.extent));
    off = arith::AddIOp::create(
        b, loc, off,
        arith::MulIOp::create(b, loc, digit, cIndex(b, loc, m.stride)));
  }
  return off;
}

Value KernelEmitter::dynamicExtent(Value mem, unsigned index,
                                   const TileCopy &plan) {
  // The dims of merged index `index` of `mem`: one, or from mergeFrom on.
  auto type = cast<MemRefType>(mem.getType());
  int64_t last = index < plan.mergeFrom ? index : type.getRank() - 1;
  Value extent = cIndex(b, loc, 1);
  for (int64_t d = index; d <= last; ++d)
    extent = arith::MulIOp::create(
        b, loc, extent,
        type.isDynamicDim(d) ? memref::DimOp::create(b, loc, mem, d).getResult()
                             : cIndex(b, loc, type.getDimSize(d)));
  return extent;
}

KernelEmitter::CopySide
KernelEmitter::copySide(Value mem, ArrayRef<Value> origin, const TileCopy &plan,
                        const mb::StridedView *view, Operation *tiled) {
  CopySide side;
  side.chunk = plan.chunk;
  auto type = cast<MemRefType>(mem.getType());
  SmallVector<int64_t> tailDims =
      tiled ? tailDimsOf(tiled) : SmallVector<int64_t>();
  int64_t walkedDim = tiled ? walkedTailDim(tiled, tailDims) : -1;
  if (!view) {
    side.origin = collapseOrigin(origin, type.getShape(), plan);
    side.mem = collapseForCopy(mem, plan);
    // A tail dim at or after mergeFrom is the merged index (the dims after
    // it span their device dims, so rows past the end lie past its extent).
    for (int64_t d : tailDims) {
      unsigned i = std::min(d, plan.mergeFrom);
      if (llvm::any_of(side.tails,
                       [&](const CopySide::Tail &t) { return t.index == i; }))
        continue;
      side.tails.push_back({i,
                            ShapedType::isDynamic(plan.global[i])
                                ? dynamicExtent(mem, i, plan)
                                : cIndex(b, loc, plan.global[i]),
                            d == walkedDim});
    }
    return side;
  }
  // The device tensor as one row-major dim, indexed by the view's offsets;
  // a tail along a logical dim that the view passes through ends at the
  // extent of the device dim (a dynamic one read at run time, [K19]).
  side.view = view;
  side.origin.assign(origin.begin(), origin.end());
  for (int64_t l : tailDims) {
    // (The verifier allows a tail through a view only along such a dim.)
    int64_t d = mb::deviceDimOf(tiled, l);
    if (d < 0)
      continue;
    side.tails.push_back(
        {static_cast<unsigned>(l),
         type.isDynamicDim(d)
             ? memref::DimOp::create(b, loc, mem, d).getResult()
             : cIndex(b, loc, type.getDimSize(d)),
         l == walkedDim});
  }
  auto flat = MemRefType::get(
      {type.hasStaticShape() ? type.getNumElements() : ShapedType::kDynamic},
      type.getElementType());
  if (type.getRank() == 0)
    side.mem = memref::ExpandShapeOp::create(b, loc, flat, mem,
                                             ArrayRef<ReassociationIndices>{});
  else
    side.mem = emitReshape(b, loc, mem, flat);
  return side;
}

SmallVector<Value> KernelEmitter::sideIndex(const CopySide &side,
                                            ValueRange idx, bool clampTails) {
  SmallVector<Value> at = offsetIndex(side.origin, idx);
  if (clampTails)
    for (const CopySide::Tail &t : side.tails) {
      // The innermost index moves by chunks, which divide its extent.
      int64_t back = t.index + 1 == at.size() ? side.chunk : 1;
      Value last;
      if (std::optional<int64_t> extent = getConstantIntValue(t.extent))
        last = cIndex(b, loc, *extent - back);
      else
        last = arith::SubIOp::create(b, loc, t.extent, cIndex(b, loc, back));
      at[t.index] = arith::MinUIOp::create(b, loc, at[t.index], last);
    }
  if (!side.view)
    return at;
  return {viewOffset(*side.view, at)};
}

Value KernelEmitter::insideTails(const CopySide &side, ArrayRef<Value> at,
                                 bool walkedOnly) {
  Value inside;
  for (const CopySide::Tail &t : side.tails) {
    if (walkedOnly && !t.walked)
      continue;
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                     at[t.index], t.extent);
    inside = inside ? arith::AndIOp::create(b, loc, inside, in) : in;
  }
  return inside;
}

int64_t KernelEmitter::asyncChunk(mb::InputIterOp op) {
  int64_t chunk = inputCopy(op).chunk;
  return chunk * elementByteWidth(op.getType().getElementType()) >=
                 search::kMinAsyncCopyBytes
             ? chunk
             : 0;
}

SmallVector<int64_t> KernelEmitter::tailDimsOf(Operation *op) {
  Value device;
  RankedTensorType tile;
  if (auto it = dyn_cast<mb::InputIterOp>(op)) {
    device = it.getInput();
    tile = it.getType();
  } else {
    auto saver = cast<mb::OutputSaverOp>(op);
    device = saver.getOutput();
    tile = saver.getInput().getType();
  }
  SmallVector<int64_t> tails = mb::tailDims(op);
  llvm::erase_if(tails, [&](int64_t l) {
    int64_t d = mb::deviceDimOf(op, l);
    auto it = divisors.find({device, static_cast<unsigned>(d)});
    return it != divisors.end() && it->second % tile.getDimSize(l) == 0;
  });
  return tails;
}

int64_t KernelEmitter::walkedTailDim(Operation *op, ArrayRef<int64_t> tails) {
  auto it = dyn_cast<mb::InputIterOp>(op);
  // fmap is stored unsigned; -1: no loop walk.
  int64_t fmap = it ? static_cast<int64_t>(it.getFmap()) : -1;
  return fmap >= 0 && llvm::is_contained(tails, fmap) ? fmap : -1;
}

bool KernelEmitter::isLoopInvariant(mb::InputIterOp op) {
  // fmap is stored unsigned; -1: no loop walk.
  return !search::tileWalksLoop(static_cast<int64_t>(op.getFmap()) >= 0,
                                staticTrips(kernel));
}

SmallVector<Value> KernelEmitter::inputOrigin(mb::InputIterOp op, Value iv) {
  return tileOrigin(op.getType().getShape(), op.getImap(), op.getFmap(), iv);
}

SmallVector<Value> KernelEmitter::tileOrigin(ArrayRef<int64_t> tile,
                                             ArrayRef<int64_t> imap,
                                             int64_t fmap, Value iv) {
  // Tile origin (DESIGN §3.2): block index, then the loop index inside it.
  SmallVector<Value> off(tile.size(), cIndex(b, loc, 0));
  for (int g = 0; g < 3; ++g)
    if (imap[g] >= 0)
      off[imap[g]] = blockIds[g];
  if (fmap >= 0)
    off[fmap] = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, off[fmap], tripCount), iv);
  for (size_t d = 0; d < tile.size(); ++d)
    off[d] = arith::MulIOp::create(b, loc, off[d], cIndex(b, loc, tile[d]));
  return off;
}

void KernelEmitter::remarkScalarCopy(Operation *op, const TileCopy &plan,
                                     Type element) {
  int64_t width = elementByteWidth(element);
  if (plan.chunk * width >= search::kMinAsyncCopyBytes)
    return;
  InFlightDiagnostic diag = op->emitRemark();
  diag << (isa<mb::InputIterOp>(op) ? "input tile" : "output tile")
       << " copied one element (" << width << " bytes) at a time: ";
  const mb::StridedView *view = plan.viewRun > 0 ? viewOf(op) : nullptr;
  if (plan.tile.back() * width < 4) {
    diag << "its contiguous rows of " << plan.tile.back()
         << " element(s) are narrower than 4 bytes";
  } else if (view && plan.viewRun * width < 4) {
    // The lowest digit of the last logical dim.
    const mb::ViewMode *inner = nullptr;
    for (const mb::ViewMode &m : view->getModes())
      if (m.dim + 1 == view->getShape().size() && m.radix == 1)
        inner = &m;
    if (!inner || inner->stride != 1)
      diag << "the view's last dim is not contiguous in the device tensor "
           << "(stride " << (inner ? inner->stride : 0) << ")";
    else
      diag << "the view's runs along its last dim are contiguous in the "
           << "device tensor but not aligned to 4 bytes (offset "
           << view->getOffset() << ")";
  } else if (view) {
    diag << "no 16-, 8- or 4-byte chunk divides both its rows ("
         << plan.tile.back() << " elements) and the view's contiguous runs ("
         << plan.viewRun << ")";
  } else
    diag << "no 16-, 8- or 4-byte chunk divides both its contiguous rows ("
         << plan.tile.back() << " elements) and the device tensor's ("
         << plan.global.back() << ")";
}

void KernelEmitter::forEachChunk(const TileCopy &plan,
                                 function_ref<void(ValueRange)> body) {
  SmallVector<int64_t> chunks(plan.tile.begin(), plan.tile.end());
  chunks.back() /= plan.chunk;
  forEachElement(chunks, [&](ValueRange chunkIdx) {
    SmallVector<Value> idx(chunkIdx);
    idx.back() = arith::MulIOp::create(b, loc, chunkIdx.back(),
                                       cIndex(b, loc, plan.chunk));
    body(idx);
  });
}

SmallVector<Value> KernelEmitter::offsetIndex(ArrayRef<Value> origin,
                                              ValueRange idx) {
  SmallVector<Value> out;
  for (auto [o, i] : llvm::zip_equal(origin, idx))
    out.push_back(arith::AddIOp::create(b, loc, o, i));
  return out;
}

void KernelEmitter::copyTile(Operation *at, Value src,
                             ArrayRef<Value> srcOrigin, Value dst,
                             ArrayRef<Value> dstOrigin, const TileCopy &plan,
                             const mb::StridedView *view) {
  // A tail tile ([B26]) clamps its loads and drops its stores past the end
  // of the device tensor; along the dim the loop walks its loads past the
  // end are zeros.
  CopySide from0 = inWorkgroup(src) ? copySide(src, srcOrigin, plan, nullptr)
                                    : copySide(src, srcOrigin, plan, view, at);
  CopySide to0 = inWorkgroup(dst) ? copySide(dst, dstOrigin, plan, nullptr)
                                  : copySide(dst, dstOrigin, plan, view, at);
  bool walksTail = llvm::any_of(
      from0.tails, [](const CopySide::Tail &t) { return t.walked; });
  src = from0.mem;
  dst = to0.mem;
  Type srcElement = cast<MemRefType>(src.getType()).getElementType();
  Type dstElement = cast<MemRefType>(dst.getType()).getElementType();
  int64_t chunk = plan.chunk;
  for (Value side : {src, dst})
    if (inWorkgroup(side))
      checkBanks(
          at, side == dst ? "the copy into its tile" : "the copy of its tile",
          search::copySharedCost(
              plan, layoutOf(side),
              elementByteWidth(
                  cast<MemRefType>(side.getType()).getElementType())));
  forEachChunk(plan, [&](ValueRange idx) {
    Value keep = walksTail ? insideTails(from0, offsetIndex(from0.origin, idx),
                                         /*walkedOnly=*/true)
                           : Value();
    SmallVector<Value> from = sideIndex(from0, idx, /*clampTails=*/true);
    SmallVector<Value> to = sideIndex(to0, idx);
    // Stores past a tail's end are dropped.
    std::optional<OpBuilder::InsertionGuard> guard;
    // (Through a view the tails are on the logical index, before the
    // view's offsets.)
    if (Value inside = insideTails(to0, to0.view && !to0.tails.empty()
                                            ? offsetIndex(to0.origin, idx)
                                            : to)) {
      guard.emplace(b);
      auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    auto zeroPastEnd = [&](Value v) -> Value {
      if (!keep)
        return v;
      return arith::SelectOp::create(
          b, loc, keep, v,
          arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType())));
    };
    if (chunk == 1) {
      Value v = zeroPastEnd(load(src, from));
      store(convertFloat(b, loc, v, dstElement), dst, to);
      return;
    }
    // Both addresses are multiples of the chunk's bytes on either side.
    auto align = [&](Type element) {
      return llvm::MaybeAlign(
          std::min<int64_t>(16, chunk * elementByteWidth(element)));
    };
    // A chunk lies within one 16-byte unit of a swizzled tile, which the
    // swizzle moves whole, and within one row of a padded one.
    SharedRef from1 = sharedAccess(src, from), to1 = sharedAccess(dst, to);
    Value v = vector::LoadOp::create(
        b, loc, VectorType::get({chunk}, srcElement), from1.mem, from1.idx,
        /*nontemporal=*/false, align(srcElement));
    v = convertFloat(b, loc, zeroPastEnd(v),
                     VectorType::get({chunk}, dstElement));
    vector::StoreOp::create(b, loc, v, to1.mem, to1.idx,
                            /*nontemporal=*/false, align(dstElement));
  });
}

void KernelEmitter::emitInputIter(mb::InputIterOp op, Value iv) {
  if (llvm::is_contained(pipelined, op) || llvm::is_contained(hoisted, op))
    return; // Loaded by emitPipelineStep or before the loop.
  Value dst = buf(op.getTile());
  stage({}, {dst});
  emitSyncInputCopy(op, iv, dst);
}

void KernelEmitter::emitSyncInputCopy(mb::InputIterOp op, Value iv,
                                      Value dst) {
  TileCopy plan = inputCopy(op);
  remarkScalarCopy(op, plan, op.getType().getElementType());
  SmallVector<Value> zero(op.getType().getRank(), cIndex(b, loc, 0));
  copyTile(op, global.lookup(op.getInput()), inputOrigin(op, iv), dst, zero,
           plan, viewOf(op));
}

void KernelEmitter::emitAsyncCopy(mb::InputIterOp op, Value iv, Value dst) {
  TileCopy plan = inputCopy(op);
  int64_t chunk = plan.chunk;
  CopySide src = copySide(global.lookup(op.getInput()), inputOrigin(op, iv),
                          plan, viewOf(op), op);
  dst = collapseForCopy(dst, plan);
  // Only 16-byte copies may bypass L1 (cp.async.cg); tiles are streamed once
  // per block, so they should.
  int64_t elementBytes = elementByteWidth(op.getType().getElementType());
  bool cg = chunk * elementBytes == 16;
  checkBanks(op, "the cp.async copy into its tile",
             search::copySharedCost(plan, layoutOf(dst), elementBytes));
  forEachChunk(plan, [&](ValueRange idx) {
    SharedRef to = sharedAccess(dst, idx);
    // A chunk past the end of the walked dim copies no element: zeros.
    Value srcElements;
    if (Value keep = llvm::any_of(src.tails,
                                  [](const CopySide::Tail &t) {
                                    return t.walked;
                                  })
                         ? insideTails(src, offsetIndex(src.origin, idx),
                                       /*walkedOnly=*/true)
                         : Value())
      srcElements = arith::SelectOp::create(b, loc, keep, cIndex(b, loc, chunk),
                                            cIndex(b, loc, 0));
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), to.mem,
        to.idx, src.mem, sideIndex(src, idx, /*clampTails=*/true),
        b.getIndexAttr(chunk), srcElements,
        cg ? b.getUnitAttr() : UnitAttr());
  });
}

Value KernelEmitter::commitGroup() {
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ValueRange{});
}

int64_t KernelEmitter::pipelineStride(mb::InputIterOp op) {
  // The tile's slot as reserved, padded rows included.
  return search::sharedTileBytes(
      slots.find(op.getTile())->second.layout, op.getType().getNumElements(),
      elementByteWidth(op.getType().getElementType()));
}

Value KernelEmitter::stageView(mb::InputIterOp op, Value iteration) {
  const Slot &s = slots.find(op.getTile())->second;
  int64_t stride = pipelineStride(op);
  Value offset = arith::AddIOp::create(
      b, loc, cIndex(b, loc, s.offset),
      arith::MulIOp::create(
          b, loc,
          arith::RemUIOp::create(b, loc, iteration, cIndex(b, loc, stages)),
          cIndex(b, loc, stride)));
  return sharedView(s, offset);
}

void KernelEmitter::emitLoopPrologue() {
  bool async = false;
  // Loop-invariant tiles: copied once, asynchronously with iteration 0's
  // group where they can be.
  for (mb::InputIterOp it : hoisted) {
    Value dst = buf(it.getTile());
    if (asyncCopies && asyncChunk(it) > 0) {
      emitAsyncCopy(it, cIndex(b, loc, 0), dst);
      async = true;
    } else {
      emitSyncInputCopy(it, cIndex(b, loc, 0), dst);
    }
  }
  // Pipelined tiles: iterations 0 .. stages - 2, one group each (those a
  // `?` loop makes, [K21]).
  for (int64_t i = 0; i + 1 < stages && !pipelined.empty(); ++i) {
    std::optional<OpBuilder::InsertionGuard> guard;
    if (ShapedType::isDynamic(kernel.getForloop())) {
      guard.emplace(b);
      auto ifOp = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                cIndex(b, loc, i), tripCount),
          /*withElseRegion=*/false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    for (mb::InputIterOp it : pipelined)
      emitAsyncCopy(it, cIndex(b, loc, i), stageView(it, cIndex(b, loc, i)));
    guard.reset();
    commitGroup();
  }
  if (pipelined.empty() && async) {
    // Nothing to overlap with: wait here, once.
    nvgpu::DeviceAsyncWaitOp::create(b, loc, commitGroup(),
                                     b.getI32IntegerAttr(0));
  }
  if (!hoisted.empty() && pipelined.empty())
    barrier();
}

void KernelEmitter::emitPipelineStep(Value iv) {
  if (pipelined.empty())
    return;
  // Iteration iv + stages - 1 goes into the buffer iteration iv - 1 read;
  // that iteration ended with a barrier.
  Value ahead = arith::AddIOp::create(b, loc, iv, cIndex(b, loc, stages - 1));
  Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ahead,
                                     tripCount);
  auto prefetch = scf::IfOp::create(b, loc, more, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&prefetch.getThenRegion().front());
    for (mb::InputIterOp it : pipelined)
      emitAsyncCopy(it, ahead, stageView(it, ahead));
  }
  // One group per iteration, empty near the end, so that waiting for all
  // but the newest stages - 1 groups always means iteration iv has landed.
  nvgpu::DeviceAsyncWaitOp::create(b, loc, commitGroup(),
                                   b.getI32IntegerAttr(stages - 1));
  // Other threads' copies become visible at the next barrier.
  for (mb::InputIterOp it : pipelined) {
    Value cur = stageView(it, iv);
    tiles[it.getTile()] = cur;
    dirty.insert(cur);
  }
  for (mb::InputIterOp it : hoisted)
    dirty.insert(buf(it.getTile()));
}

void KernelEmitter::emitOutputSaver(mb::OutputSaverOp op) {
  ArrayRef<int64_t> tile = op.getInput().getType().getShape();
  ArrayRef<int64_t> omap = op.getOmap();
  SmallVector<Value> off(tile.size(), cIndex(b, loc, 0));
  for (int g = 0; g < 3; ++g)
    if (omap[g] >= 0)
      off[omap[g]] = arith::MulIOp::create(b, loc, blockIds[g],
                                           cIndex(b, loc, tile[omap[g]]));
  Value src = buf(op.getInput());
  Value dst = global.lookup(op.getOutput());
  auto out = op.getOutput().getType();
  const mb::StridedView *view = viewOf(op);
  TileCopy plan = planCopy(tile, out.getShape(), out.getElementType(), view);
  remarkScalarCopy(op, plan, out.getElementType());
  stage({src}, {});
  SmallVector<Value> zero(tile.size(), cIndex(b, loc, 0));
  copyTile(op, src, zero, dst, off, plan, view);
}

} // namespace mirage::lowering
