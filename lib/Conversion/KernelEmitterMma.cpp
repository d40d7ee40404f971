//===- KernelEmitterMma.cpp - Tile matmuls -------------------------------===//
//
// mb.matmul tiles: those that fit the mma.sync shapes on tensor cores,
// through nvgpu, the others as f32 FMA strips (KernelEmitter.h).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace mirage::lowering {

/// Whether a tile matmul with `m` rows runs with its operand roles swapped:
/// C^T = W^T X^T, so that the n columns fill the 16 rows of m16n8k16 and the
/// few rows of a decode matmul (M = 1..15, or any M that is not a multiple
/// of 16) are padded to the 8 columns of the mma tile instead of its 16
/// rows (docs/codegen.md, "Decode matmuls").
using search::mmaSwapsOperands;

bool KernelEmitter::fitsMma(mb::MatmulOp mm) {
  if (!tensorCores)
    return false;
  ArrayRef<int64_t> blk = kernel.getBlock();
  ArrayRef<int64_t> a = mm.getLhs().getType().getShape();
  ArrayRef<int64_t> w = mm.getRhs().getType().getShape();
  int64_t r = a.size();
  // Operands read straight from f16 buffers (not f32 accumulators); one
  // batch dim at most. (Asked while the shared memory is planned, before
  // the buffers exist: the planned slots' types.)
  auto isF16Buffer = [&](Value v) { return tileElementType(v).isF16(); };
  if (r > 3 || (blk[0] * blk[1] * blk[2]) % 32 != 0 ||
      !isF16Buffer(mm.getLhs()) || !isF16Buffer(mm.getRhs()))
    return false;
  // Swapped roles: n fills the 16 rows; m is padded to multiples of 8.
  return search::mmaFitsShape(a[r - 2], w[r - 1], a[r - 1]);
}

void KernelEmitter::emitMmaMatmul(mb::MatmulOp mm) {
  Value lhs = buf(mm.getLhs()), rhs = buf(mm.getRhs());
  ArrayRef<int64_t> outShape = mm.getType().getShape();
  int64_t r = outShape.size();
  int64_t m = outShape[r - 2], n = outShape[r - 1];
  int64_t k = mm.getLhs().getType().getShape().back();
  int64_t batch = r == 3 ? outShape[0] : 1;
  // Swapped roles: the mma's 16 rows walk n, its 8 columns m (padded).
  bool swapped = mmaSwapsOperands(m);
  int64_t tilesM = swapped ? n / 16 : m / 16;
  int64_t tilesN = swapped ? (m + 7) / 8 : n / 8;
  Value c32 = cIndex(b, loc, 32);
  Value warp = arith::DivUIOp::create(b, loc, tid, c32);
  Value lane = arith::RemUIOp::create(b, loc, tid, c32);
  Value nwarps = arith::DivUIOp::create(b, loc, nthreads, c32);
  // PTX m16n8k16 fragment layout: group g = lane / 4, thread t = lane % 4.
  Value g = arith::DivUIOp::create(b, loc, lane, cIndex(b, loc, 4));
  Value t2 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, cIndex(b, loc, 4)),
      cIndex(b, loc, 2));
  auto add = [&](Value x, int64_t c) {
    return c == 0 ? x : arith::AddIOp::create(b, loc, x, cIndex(b, loc, c));
  };
  // Every warp runs the same number of rounds (warps past the last tile
  // recompute it and store nothing), so warp-collective code, and its CPU
  // emulation with block-wide barriers, stays uniform.
  int64_t numTiles = batch * tilesM * tilesN;
  Value rounds = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, cIndex(b, loc, numTiles - 1), nwarps),
      nwarps);
  auto tileLoop = scf::ForOp::create(b, loc, cIndex(b, loc, 0), rounds,
                                     cIndex(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tileLoop.getBody());
  Value tRaw = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, tileLoop.getInductionVar(), nwarps),
      warp);
  Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tRaw,
                                       cIndex(b, loc, numTiles));
  Value tIdx = arith::MinUIOp::create(b, loc, tRaw, cIndex(b, loc, numTiles - 1));
  Value tn = arith::RemUIOp::create(b, loc, tIdx, cIndex(b, loc, tilesN));
  Value rest = arith::DivUIOp::create(b, loc, tIdx, cIndex(b, loc, tilesN));
  Value tm = arith::RemUIOp::create(b, loc, rest, cIndex(b, loc, tilesM));
  Value bi = arith::DivUIOp::create(b, loc, rest, cIndex(b, loc, tilesM));
  Value row0 = arith::MulIOp::create(b, loc, tm, cIndex(b, loc, 16));
  Value col0 = arith::MulIOp::create(b, loc, tn, cIndex(b, loc, 8));
  // Fragments come from shared memory through ldmatrix: every lane gives
  // the address of one 16-byte row of an 8x8 f16 matrix (tiles are 16-byte
  // aligned and their rows are multiples of 8 elements, as fitsMma checks).
  // Lane l addresses row l % 16; for A, its second column block of 8 is
  // given by lanes 16..31.
  auto inWorkgroup = [](Value v) {
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
        cast<MemRefType>(v.getType()).getMemorySpace());
    return space && space.getValue() == gpu::AddressSpace::Workgroup;
  };
  bool ldmatrix = inWorkgroup(lhs) && inWorkgroup(rhs);
  // The static bank rule on every ldmatrix and scalar fragment load of
  // this matmul, under the operands' layouts (CodePlan.h).
  if (ldmatrix)
    checkBanks(mm, "the tensor-core operand loads (ldmatrix, fragments)",
               search::mmaSharedCost(mm.getLhs().getType().getShape(),
                                     mm.getRhs().getType().getShape(),
                                     layoutOf(lhs), layoutOf(rhs)));
  Value laneRow = arith::RemUIOp::create(b, loc, lane, cIndex(b, loc, 16));
  Value laneColA = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, lane, cIndex(b, loc, 16)),
      cIndex(b, loc, 8));
  auto at = [&](Value row, Value col) {
    SmallVector<Value> idx;
    if (r == 3)
      idx.push_back(bi);
    idx.push_back(row);
    idx.push_back(col);
    return idx;
  };
  Type f32 = b.getF32Type(), f16 = b.getF16Type();
  auto accType = VectorType::get({2, 2}, f32);
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  auto kLoop = scf::ForOp::create(b, loc, cIndex(b, loc, 0),
                                  cIndex(b, loc, k), cIndex(b, loc, 16),
                                  ValueRange{zero});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value k0 = kLoop.getInductionVar();
    auto fragAType = VectorType::get({4, 2}, f16);
    auto fragBType = VectorType::get({2, 2}, f16);
    // The A fragment by scalar loads: a0..a7 are A(r, c) at (g, 2t),
    // (g, 2t+1), (g+8, 2t), (g+8, 2t+1), then 8 columns on, with r from
    // row0 and c from k0; `src` holds A, or A's transpose (the swapped
    // roles' W) when `transposed`.
    auto scalarFragA = [&](Value src, bool transposed) -> Value {
      Value r = arith::AddIOp::create(b, loc, row0, g);
      Value c = arith::AddIOp::create(b, loc, k0, t2);
      SmallVector<Value> a;
      for (int64_t dc : {0, 8})
        for (int64_t dr : {0, 8})
          for (int64_t j : {0, 1}) {
            Value ri = add(r, dr), ci = add(c, dc + j);
            a.push_back(load(src, transposed ? at(ci, ri) : at(ri, ci)));
          }
      return vector::FromElementsOp::create(b, loc, fragAType, a);
    };
    Value fragA, fragB;
    if (swapped) {
      // A' = W^T: A'(i, kk) = W(k0 + kk, row0 + i). Through ldmatrix.x4
      // with transpose, lane l gives the address of a 16-byte row of W:
      // k0 + l % 8 (+ 8 for lanes 16..31), columns row0 (+ 8 for lanes
      // 8..15 and 24..31), so that the four transposed 8x8 blocks are A''s
      // (rows 0-7, 8-15) x (columns 0-7, 8-15) in the fragment's order.
      if (inWorkgroup(rhs)) {
        Value kRow = arith::AddIOp::create(
            b, loc, k0,
            arith::AddIOp::create(
                b, loc, arith::RemUIOp::create(b, loc, lane, cIndex(b, loc, 8)),
                laneColA));
        Value nCol = arith::AddIOp::create(
            b, loc, row0,
            arith::MulIOp::create(
                b, loc,
                arith::RemUIOp::create(
                    b, loc,
                    arith::DivUIOp::create(b, loc, lane, cIndex(b, loc, 8)),
                    cIndex(b, loc, 2)),
                cIndex(b, loc, 8)));
        SharedRef w = sharedAccess(rhs, at(kRow, nCol));
        fragA = nvgpu::LdMatrixOp::create(b, loc, fragAType, w.mem, w.idx,
                                          /*transpose=*/true, /*numTiles=*/4);
      } else {
        fragA = scalarFragA(rhs, /*transposed=*/true);
      }
      // B' = X^T: B'(kk, j) = X(col0 + j, k0 + kk). A padding column
      // j >= m reads row m - 1: it only feeds D''s column j, which is not
      // stored.
      Value mRow = arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, col0, g), cIndex(b, loc, m - 1));
      Value kB = arith::AddIOp::create(b, loc, k0, t2);
      SmallVector<Value> bv;
      for (int64_t dr : {0, 1, 8, 9})
        bv.push_back(load(lhs, at(mRow, add(kB, dr))));
      fragB = vector::FromElementsOp::create(b, loc, fragBType, bv);
    } else if (ldmatrix) {
      // x4: the four 8x8 blocks of the 16x16 A tile, rows then columns.
      SharedRef a =
          sharedAccess(lhs, at(arith::AddIOp::create(b, loc, row0, laneRow),
                               arith::AddIOp::create(b, loc, k0, laneColA)));
      fragA = nvgpu::LdMatrixOp::create(b, loc, fragAType, a.mem, a.idx,
                                        /*transpose=*/false, /*numTiles=*/4);
      // x2, transposed: B is stored k-major, the fragment wants n-major.
      SharedRef w = sharedAccess(
          rhs, at(arith::AddIOp::create(b, loc, k0, laneRow), col0));
      fragB = nvgpu::LdMatrixOp::create(b, loc, fragBType, w.mem, w.idx,
                                        /*transpose=*/true, /*numTiles=*/2);
    } else {
      fragA = scalarFragA(lhs, /*transposed=*/false);
      // b0..b3: (k = 2t, 2t+1, 2t+8, 2t+9; n = g).
      Value colB = arith::AddIOp::create(b, loc, col0, g);
      Value rowB = arith::AddIOp::create(b, loc, k0, t2);
      SmallVector<Value> bv;
      for (int64_t dr : {0, 1, 8, 9})
        bv.push_back(load(rhs, at(add(rowB, dr), colB)));
      fragB = vector::FromElementsOp::create(b, loc, fragBType, bv);
    }
    Value d = nvgpu::MmaSyncOp::create(
        b, loc, fragA, fragB, kLoop.getRegionIterArgs()[0],
        b.getI64ArrayAttr({16, 8, 16}));
    scf::YieldOp::create(b, loc, d);
  }
  // c0..c3: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1).
  Value acc = kLoop.getResult(0);
  auto ifActive = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifActive.getThenRegion().front());
  Value rowC = arith::AddIOp::create(b, loc, row0, g);
  Value colC = arith::AddIOp::create(b, loc, col0, t2);
  for (int64_t i : {0, 1})
    for (int64_t j : {0, 1}) {
      Value v = vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j});
      if (!swapped) {
        storeMatmulElement(mm, at(add(rowC, 8 * i), add(colC, j)), v);
        continue;
      }
      // D'(i, j) is C(col0 + j, row0 + i); padding columns are not stored.
      Value mIdx = add(colC, j);
      OpBuilder::InsertionGuard inRange(b);
      if (m % 8 != 0) {
        auto ifRow = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, mIdx,
                                  cIndex(b, loc, m)),
            /*withElseRegion=*/false);
        b.setInsertionPointToStart(&ifRow.getThenRegion().front());
      }
      storeMatmulElement(mm, at(mIdx, add(rowC, 8 * i)), v);
    }
  ++numMma;
}

/// How many outputs of one row a thread of an FMA tile matmul computes
/// with `shape` (the output tile's) and `threads` per block: 4 or 2 where
/// the row divides and every thread still has a strip, else 1.
static int64_t fmaStripLength(ArrayRef<int64_t> shape, int64_t threads) {
  int64_t n = shape.empty() ? 1 : shape.back(), elements = 1;
  for (int64_t d : shape)
    elements *= d;
  for (int64_t s : {4, 2})
    if (n % s == 0 && elements / s >= threads)
      return s;
  return 1;
}

void KernelEmitter::emitFmaMatmul(mb::MatmulOp mm) {
  Value lhs = buf(mm.getLhs()), rhs = buf(mm.getRhs());
  ArrayRef<int64_t> shape = mm.getType().getShape();
  int64_t k = mm.getLhs().getType().getShape().back();
  // A strip of s outputs of one row, n / s columns apart: one load of
  // A(i, kk) feeds s FMAs, and each of the s loads of B reads, across
  // consecutive threads, consecutive columns (no bank conflicts).
  int64_t s = fmaStripLength(shape, blockThreads());
  int64_t n = shape.back(), apart = n / s;
  SmallVector<int64_t> strips(shape);
  strips.back() = apart;
  forEachElement(strips, [&](ValueRange first) {
    SmallVector<SmallVector<Value>> outs;
    for (int64_t t = 0; t < s; ++t) {
      SmallVector<Value> idx(first);
      if (t > 0)
        idx.back() = arith::AddIOp::create(b, loc, idx.back(),
                                           cIndex(b, loc, t * apart));
      outs.push_back(idx);
    }
    SmallVector<Value> zeros(s, cF32(b, loc, 0.0));
    auto loop = scf::ForOp::create(b, loc, cIndex(b, loc, 0), cIndex(b, loc, k),
                                   cIndex(b, loc, 1), zeros);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kk = loop.getInductionVar();
      SmallVector<Value> at(first);
      at.back() = kk;
      Value a = loadF32(lhs, at);
      SmallVector<Value> sums;
      for (auto [t, idx] : llvm::enumerate(outs)) {
        SmallVector<Value> w(idx);
        w[w.size() - 2] = kk;
        Value p = arith::MulFOp::create(b, loc, a, loadF32(rhs, w));
        sums.push_back(
            arith::AddFOp::create(b, loc, loop.getRegionIterArgs()[t], p));
      }
      scf::YieldOp::create(b, loc, sums);
    }
    for (auto [t, idx] : llvm::enumerate(outs))
      storeMatmulElement(mm, idx, loop.getResult(t));
  });
}

void KernelEmitter::storeMatmulElement(mb::MatmulOp mm, ValueRange idx,
                                       Value v) {
  Value out = buf(mm.getResult());
  // In place: the accumulator's element, which only this thread updates,
  // plus this trip's products (acc + sum, as the separate accum_sum adds).
  if (inPlace.contains(mm))
    v = arith::AddFOp::create(b, loc, load(out, idx), v);
  storeF32(out, idx, v);
}

} // namespace mirage::lowering
