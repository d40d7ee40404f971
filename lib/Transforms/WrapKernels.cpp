//===- WrapKernels.cpp - Wrap mk ops into graph-defined kernels -*- C++ -*-===//
//
// Every mk op outside a graph-defined kernel becomes a trivial graph-defined
// kernel computing it on tiles, so the lowering has one path (DESIGN §6).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/WrapKernels.h"
#include "Mirage/Transforms/AbsorbConversions.h"
#include "Mirage/Transforms/AbsorbViews.h"
#include "Mirage/Transforms/Passes.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>
#include <tuple>

namespace mirage {
#define GEN_PASS_DEF_WRAPKERNELS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

namespace {

/// How the dims of one operand relate to the kernel: `toOutput[i]` is the
/// output dim operand dim i follows, kLoopDim if the for-loop walks it, or
/// kWhole if the tile keeps it whole.
constexpr int64_t kLoopDim = -2;
constexpr int64_t kWhole = -3;

struct OpTiling {
  SmallVector<SmallVector<int64_t>> toOutput; // per operand
  SmallVector<bool> outputWhole;              // output dims kept whole
  int64_t loopSize = 1;                       // size of the walked dim
  int64_t loopFactor = 1;                     // its chunks: cap times this
  bool maxAccumulator = false;                // accum_max instead of sum
};

/// Describes how `op` tiles, or fails saying why.
FailureOr<OpTiling> describe(Operation *op, std::string &why) {
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t r = out.getRank();
  OpTiling t;
  t.outputWhole.assign(r, false);
  auto identity = [&](Value v) {
    auto ty = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> m;
    for (int64_t i = 0; i < ty.getRank(); ++i)
      m.push_back(i);
    return m;
  };
  return TypeSwitch<Operation *, FailureOr<OpTiling>>(op)
      .Case<mk::MatmulOp>([&](mk::MatmulOp mm) -> FailureOr<OpTiling> {
        if (r > 3) {
          why = "a rank-4 matmul needs 4 grid dims";
          return failure();
        }
        SmallVector<int64_t> lhs = identity(mm.getLhs()),
                             rhs = identity(mm.getRhs());
        lhs[r - 1] = kLoopDim;
        rhs[r - 2] = kLoopDim;
        rhs[r - 1] = r - 1;
        t.toOutput = {lhs, rhs};
        t.loopSize = mm.getLhs().getType().getShape().back();
        t.loopFactor = kWrapWalkFactor;
        return t;
      })
      .Case<mk::ReduceSumOp, mk::ReduceMaxOp>([&](Operation *red)
                                                  -> FailureOr<OpTiling> {
        int64_t d = red->getAttrOfType<IntegerAttr>("dim").getInt();
        SmallVector<int64_t> in = identity(red->getOperand(0));
        in[d] = kLoopDim;
        t.toOutput = {in};
        t.outputWhole[d] = true;
        t.loopSize =
            cast<RankedTensorType>(red->getOperand(0).getType()).getDimSize(d);
        t.maxAccumulator = isa<mk::ReduceMaxOp>(red);
        return t;
      })
      .Case<mk::RmsNormOp>([&](mk::RmsNormOp rms) -> FailureOr<OpTiling> {
        t.outputWhole[r - 1] = true;
        t.toOutput.push_back(identity(rms.getInput()));
        if (rms.getWeight())
          t.toOutput.push_back({kWhole});
        return t;
      })
      .Case<mk::ConcatOp>([&](mk::ConcatOp cat) -> FailureOr<OpTiling> {
        t.outputWhole[cat.getDim()] = true;
        for (Value v : cat.getInputs())
          t.toOutput.push_back(identity(v));
        return t;
      })
      .Case<mk::TransposeOp>([&](mk::TransposeOp tr) -> FailureOr<OpTiling> {
        SmallVector<int64_t> in(r);
        for (int64_t k = 0; k < r; ++k)
          in[tr.getPerm()[k]] = k;
        t.toOutput = {in};
        return t;
      })
      .Default([&](Operation *other) -> FailureOr<OpTiling> {
        // A band mask tiles as an element-wise op: its block-level form
        // carries where its tile lies.
        if (!isa<ElementwiseOpInterface, mk::BandMaskOp>(other)) {
          why = "it has no block-level form";
          return failure();
        }
        for (Value v : other->getOperands())
          t.toOutput.push_back(identity(v));
        return t;
      });
}

/// Smallest divisor n of `size` with size / n <= cap.
int64_t splitCount(int64_t size, int64_t cap) {
  for (int64_t n = 1; n <= size; ++n)
    if (size % n == 0 && size / n <= cap)
      return n;
  return size;
}

/// Builds the kernel of one op with tiles of at most a cap.
struct KernelBuilder {
  int64_t blockThreads;
  /// Why the last build failed, and whether smaller tiles cannot help (the
  /// grid is too large, or a dynamic dim has no grid dim).
  std::string failure;
  bool noSmallerTile = false;

  /// Builds the kernel for `op` with tiles of at most `cap`; returns null
  /// after erasing it if it does not verify within the limits.
  mk::GraphKernelOp build(Operation *op, const OpTiling &t, int64_t cap);
};

struct WrapKernelsPass : public mirage::impl::WrapKernelsBase<WrapKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockThreads < 1 || blockThreads > 1024) {
      getOperation()->emitError("mirage-wrap-kernels: block-threads must be "
                                "in [1, 1024], got ")
          << static_cast<int64_t>(blockThreads);
      return signalPassFailure();
    }
    if (maxTile < 1) {
      getOperation()->emitError("mirage-wrap-kernels: max-tile must be >= 1, "
                                "got ")
          << static_cast<int64_t>(maxTile);
      return signalPassFailure();
    }
    // The compute ops first, so that a conversion between two of them moves
    // into one of their kernels and the layout ops around them become their
    // views; the conversions and layout ops left are wrapped last.
    if (failed(wrapAll(/*rest=*/false)))
      return signalPassFailure();
    absorbConversions(getOperation());
    for (Region &region : getOperation()->getRegions())
      absorbViews(region);
    if (failed(wrapAll(/*rest=*/true)))
      return signalPassFailure();
  }

  /// Wraps every mk op other than graph-defined kernels and reshapes: the
  /// conversions and layout ops (`rest`), or every other op.
  LogicalResult wrapAll(bool rest) {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      // A reshape is a view of its buffer, not a kernel.
      if (isa<mk::MKDialect>(op->getDialect()) &&
          !isa<mk::GraphKernelOp, mk::ReshapeOp>(op) &&
          (isa<mk::ConvertOp>(op) || isLayoutOp(op)) == rest)
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      std::string why;
      mk::GraphKernelOp kernel = wrapInKernel(op, maxTile, blockThreads, why);
      if (!kernel) {
        op->emitOpError("cannot be wrapped into a graph-defined kernel: ")
            << why;
        return mlir::failure();
      }
      op->getResult(0).replaceAllUsesWith(kernel.getResult(0));
      op->erase();
      ++numWrapped;
    }
    return success();
  }
};

mk::GraphKernelOp KernelBuilder::build(Operation *op, const OpTiling &t,
                                       int64_t cap) {
  Location loc = op->getLoc();
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t r = outType.getRank();
  ArrayRef<int64_t> shape = outType.getShape();

  // Grid: up to three partitionable output dims, innermost first on x. A
  // dynamic dim ([K19]) gets a '?' grid dim and the tile its limit gives a
  // dim of unbounded size (`dynTile`, per grid dim).
  SmallVector<int64_t> grid, omap, dynTile;
  // Leading dims are split fully. The last two are tiled by `cap` (the last
  // one by `lastCap`), except that when the last dim is whole (a row op) or
  // 1 (a reduction over it) the rows are the only parallelism and are split
  // fully too.
  bool rowsOnly = t.outputWhole[r - 1] || shape[r - 1] == 1;
  auto partition = [&](int64_t lastCap) {
    grid = {1, 1, 1};
    omap = {-1, -1, -1};
    dynTile = {0, 0, 0};
    int g = 0;
    for (int64_t d = r - 1; d >= 0 && g < 3; --d) {
      if (t.outputWhole[d] || shape[d] == 1)
        continue;
      int64_t limit = d == r - 1 ? lastCap : d == r - 2 && !rowsOnly ? cap : 1;
      if (ShapedType::isDynamic(shape[d])) {
        grid[g] = ShapedType::kDynamic;
        omap[g] = d;
        dynTile[g] = limit;
        ++g;
        continue;
      }
      int64_t n = splitCount(shape[d], limit);
      if (n == 1)
        continue;
      grid[g] = n;
      omap[g] = d;
      ++g;
    }
    // A '?' grid dim counts as one block: the size may be small (decode).
    int64_t blocks = 1;
    for (int64_t n : grid)
      blocks *= ShapedType::isDynamic(n) ? 1 : n;
    return blocks;
  };
  // A grid of few blocks leaves most SMs idle (a decode matmul of 8 rows
  // and 512 columns: 8 blocks of 64 columns): the last dim's tile halves,
  // down to kWrapMinTile elements, until the grid has kWrapMinBlocks.
  int64_t lastCap = cap;
  while (partition(lastCap) < kWrapMinBlocks && !rowsOnly &&
         lastCap / 2 >= kWrapMinTile)
    lastCap /= 2;
  // The largest split goes on x, whose limit is 2^31-1 (65535 on y and z);
  // a '?' one counts as the largest.
  SmallVector<std::tuple<int64_t, int64_t, int64_t>> dims;
  for (int gg = 0; gg < 3; ++gg)
    dims.push_back({grid[gg], omap[gg], dynTile[gg]});
  auto splitKey = [](int64_t n) {
    return ShapedType::isDynamic(n) ? std::numeric_limits<int64_t>::max() : n;
  };
  // Three entries: a stable insertion sort, largest first.
  for (size_t i = 1; i < dims.size(); ++i)
    for (size_t j = i; j > 0 && splitKey(std::get<0>(dims[j])) >
                                    splitKey(std::get<0>(dims[j - 1]));
         --j)
      std::swap(dims[j], dims[j - 1]);
  for (int gg = 0; gg < 3; ++gg)
    std::tie(grid[gg], omap[gg], dynTile[gg]) = dims[gg];
  // The static twin of the grid and of a tensor's shape ([K19]): '?' grid
  // dims as 1, the dims they partition as one tile.
  SmallVector<int64_t> twinGrid(grid);
  for (int64_t &n : twinGrid)
    if (ShapedType::isDynamic(n))
      n = 1;
  auto twinShape = [&](ArrayRef<int64_t> tensorShape, ArrayRef<int64_t> map) {
    SmallVector<int64_t> twin(tensorShape);
    for (int gg = 0; gg < 3; ++gg)
      if (ShapedType::isDynamic(grid[gg]) && map[gg] >= 0)
        twin[map[gg]] = dynTile[gg];
    return twin;
  };
  for (int64_t d = 0; d < r; ++d)
    if (ShapedType::isDynamic(shape[d]) && !llvm::is_contained(omap, d)) {
      failure = "its dynamic dim " + std::to_string(d) +
                " is not partitioned by a grid dim (there are three)";
      noSmallerTile = true;
      return {};
    }
  if (grid[1] > 65535 || grid[2] > 65535) {
    failure = "its grid [" + std::to_string(grid[0]) + ", " +
              std::to_string(grid[1]) + ", " + std::to_string(grid[2]) +
              "] exceeds the device limits (65535 blocks on y and z)";
    noSmallerTile = true;
    return {};
  }
  // A dynamic walked dim ([K21]): a `?` loop of tiles of the cap, the last
  // trip a tail.
  bool dynamicLoop = ShapedType::isDynamic(t.loopSize);
  int64_t forloop = dynamicLoop        ? ShapedType::kDynamic
                    : t.loopSize > 1 ? splitCount(t.loopSize, t.loopFactor * cap)
                                     : 1;

  OpBuilder b(op);
  SmallVector<Type> argTypes(op->getOperandTypes());
  auto kernel = mk::GraphKernelOp::create(
      b, loc, TypeRange{outType}, op->getOperands(), grid,
      SmallVector<int64_t>{blockThreads, 1, 1}, forloop);
  Block *body = b.createBlock(&kernel.getBody());
  for (Type ty : argTypes)
    body->addArgument(ty, loc);

  // Build the loop body first, then the loop with its result type.
  b.setInsertionPointToStart(body);
  auto loop = mb::ForLoopOp::create(b, loc, TypeRange{});
  Block *loopBody = b.createBlock(&loop.getBody());
  OpBuilder lb = OpBuilder::atBlockBegin(loopBody);
  SmallVector<Value> tiles;
  bool ok = true;
  for (auto [i, arg] : llvm::enumerate(body->getArguments())) {
    auto ty = cast<RankedTensorType>(arg.getType());
    SmallVector<int64_t> imap = {-1, -1, -1};
    int64_t fmap = -1;
    for (int64_t dim = 0; dim < ty.getRank(); ++dim) {
      int64_t to = t.toOutput[i][dim];
      if (to == kLoopDim) {
        fmap = dim;
        continue;
      }
      if (to < 0 || ty.getDimSize(dim) != shape[to])
        continue; // whole or broadcast
      for (int gg = 0; gg < 3; ++gg)
        if (omap[gg] == to)
          imap[gg] = dim;
    }
    std::string why;
    SmallVector<int64_t> twin = twinShape(ty.getShape(), imap);
    int64_t twinLoop = forloop;
    if (dynamicLoop) {
      // The twin of a `?` loop makes one trip of a tile.
      twinLoop = 1;
      if (fmap >= 0)
        twin[fmap] = t.loopFactor * cap;
    }
    FailureOr<SmallVector<int64_t>> tile =
        llvm::any_of(twin, ShapedType::isDynamic)
            ? FailureOr<SmallVector<int64_t>>(mlir::failure())
            : mb::computeInputTileShape(twin, twinGrid, twinLoop, imap, fmap,
                                        why);
    if (failed(tile)) {
      ok = false;
      break;
    }
    tiles.push_back(mb::InputIterOp::create(
        lb, loc, RankedTensorType::get(*tile, ty.getElementType()), arg, imap,
        fmap, /*view=*/AffineMapAttr()));
  }
  if (ok && isa<mk::BandMaskOp>(op)) {
    // The mask's tile is its input tile: it lies where that tile does.
    auto m = cast<mk::BandMaskOp>(op);
    auto it = tiles.front().getDefiningOp<mb::InputIterOp>();
    Value masked = mb::BandMaskOp::create(
        lb, loc, tiles.front().getType(), tiles.front(), m.getDimsAttr(),
        m.getLowerAttr(), m.getUpperAttr(), m.getFillAttr(),
        m.getAdditiveAttr(), it.getImapAttr(), it.getFmapAttr());
    tiles.assign({masked});
  } else if (ok) {
    // The same op at block level: same mnemonic, same properties, result
    // type inferred from the tiles by the mb op's own shape rule.
    OperationState state(loc, ("mb." + op->getName().stripDialect()).str());
    state.addOperands(tiles);
    state.propertiesAttr = op->getPropertiesAsAttribute();
    // Element-wise unary ops and rms_norm keep their operand's type; the
    // others infer it.
    state.addTypes(tiles.front().getType());
    Operation *tileOp = lb.create(state);
    if (auto infer = dyn_cast<InferTypeOpInterface>(tileOp)) {
      SmallVector<Type> inferred;
      if (failed(infer.inferReturnTypes(
              op->getContext(), loc, tileOp->getOperands(),
              tileOp->getRawDictionaryAttrs(), tileOp->getPropertiesStorage(),
              tileOp->getRegions(), inferred)))
        ok = false;
      else
        tileOp->getResult(0).setType(inferred[0]);
    }
    // The tile is stored in the kernel result's element type (a convert's
    // target type, a bf16 matmul's f32 result).
    if (ok) {
      auto tileType = cast<RankedTensorType>(tileOp->getResult(0).getType());
      tileOp->getResult(0).setType(
          tileType.clone(outType.getElementType()));
    }
  }
  if (!ok) {
    kernel.erase();
    return {};
  }
  Value value = loopBody->back().getResult(0);
  Value acc;
  if (t.maxAccumulator)
    acc = mb::AccumMaxOp::create(lb, loc, value.getType(), value);
  else
    acc = mb::AccumSumOp::create(lb, loc, value.getType(), value);
  mb::YieldOp::create(lb, loc, acc);
  b.setInsertionPoint(loop);
  auto newLoop = mb::ForLoopOp::create(b, loc, TypeRange{acc.getType()});
  newLoop.getBody().takeBody(loop.getBody());
  loop.erase();
  b.setInsertionPointAfter(newLoop);
  std::string why;
  FailureOr<SmallVector<int64_t>> saved = mb::computeOutputShape(
      cast<RankedTensorType>(acc.getType()).getShape(), twinGrid, omap, why);
  auto saver = mb::OutputSaverOp::create(b, loc, outType, newLoop.getResult(0),
                                         omap, /*view=*/AffineMapAttr());
  mb::ReturnOp::create(b, loc, saver.getResult());
  // The reductions across a walked tail read it masked ([B28]).
  std::string tailWhy;
  if (failed(mb::maskLoopTail(kernel, tailWhy))) {
    failure = tailWhy;
    noSmallerTile = true;
    kernel.erase();
    return {};
  }
  if (failed(saved) ||
      ArrayRef<int64_t>(*saved) != ArrayRef<int64_t>(twinShape(shape, omap)) ||
      kernel.computeSharedMemoryBytes() > kernel.getSharedMemoryLimit()) {
    kernel.erase();
    return {};
  }
  return kernel;
}

} // namespace

mk::GraphKernelOp mirage::wrapInKernel(Operation *op, int64_t maxTile,
                                       int64_t blockThreads, std::string &why) {
  FailureOr<OpTiling> t = describe(op, why);
  if (failed(t))
    return {};
  KernelBuilder builder{blockThreads,
                        "it does not fit the shared-memory limit"};
  mk::GraphKernelOp kernel;
  // Smaller tiles need less shared memory but more blocks.
  for (int64_t cap = maxTile; cap >= 1 && !kernel && !builder.noSmallerTile;
       cap /= 2)
    kernel = builder.build(op, *t, cap);
  if (!kernel)
    why = builder.failure;
  return kernel;
}
