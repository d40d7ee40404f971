//===- BlockDialect.cpp - Mirage block-graph dialect ------------*- C++ -*-===//
//
// Ops of the block level. Checks that need the whole block graph (where
// values flow, shared-memory footprint) are in the verifier of the enclosing
// mk.graph_kernel; the checks here are local to one op and its kernel.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Block/IR/View.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::mb;

#include "Mirage/Dialect/Block/IR/BlockOpsDialect.cpp.inc"

void MBDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Mirage/Dialect/Block/IR/BlockOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shape helpers
//===----------------------------------------------------------------------===//

/// Checks a 3-entry grid map (imap/omap): -1 or a dim of `rank`, no repeats.
static bool checkGridMap(ArrayRef<int64_t> map, int64_t rank,
                         std::string &why) {
  llvm::raw_string_ostream os(why);
  if (map.size() != 3) {
    os << "must have 3 entries (one per grid dim), got " << map.size();
    return false;
  }
  llvm::SmallBitVector seen(rank);
  for (int64_t d : map) {
    if (d == -1)
      continue;
    if (d < 0 || d >= rank) {
      os << "entry " << d << " is neither -1 nor a dim of a rank-" << rank
         << " tensor";
      return false;
    }
    if (seen.test(d)) {
      os << "maps dim " << d << " twice";
      return false;
    }
    seen.set(d);
  }
  return true;
}

FailureOr<SmallVector<int64_t>>
mb::computeInputTileShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> grid,
                          int64_t forloop, ArrayRef<int64_t> imap, int64_t fmap,
                          std::string &why) {
  int64_t rank = shape.size();
  // Callers outside the verifier (passes, the search) may pass anything.
  if (grid.size() != 3 || llvm::any_of(grid, [](int64_t g) { return g < 1; }) ||
      forloop < 1) {
    why = "[K3] grid must have 3 entries >= 1 and [K5] forloop must be >= 1";
    return failure();
  }
  if (!checkGridMap(imap, rank, why)) {
    why = "[B5] imap " + why;
    return failure();
  }
  llvm::raw_string_ostream os(why);
  if (fmap != -1 && (fmap < 0 || fmap >= rank)) {
    os << "[B6] fmap " << fmap << " is neither -1 nor a dim of a rank-" << rank
       << " tensor";
    return failure();
  }
  SmallVector<int64_t> tile(shape);
  for (int g = 0; g < 3; ++g) {
    if (imap[g] < 0)
      continue;
    if (tile[imap[g]] % grid[g] != 0) {
      os << "[B7] dim " << imap[g] << " of size " << tile[imap[g]]
         << " is not divisible by grid dim " << g << " = " << grid[g];
      return failure();
    }
    tile[imap[g]] /= grid[g];
  }
  if (fmap >= 0) {
    if (tile[fmap] % forloop != 0) {
      os << "[B7] dim " << fmap << " of size " << tile[fmap]
         << " (after grid partitioning) is not divisible by forloop = "
         << forloop;
      return failure();
    }
    tile[fmap] /= forloop;
  }
  return tile;
}

FailureOr<SmallVector<int64_t>> mb::computeOutputShape(ArrayRef<int64_t> tile,
                                                       ArrayRef<int64_t> grid,
                                                       ArrayRef<int64_t> omap,
                                                       std::string &why) {
  if (grid.size() != 3 || llvm::any_of(grid, [](int64_t g) { return g < 1; })) {
    why = "[K3] grid must have 3 entries >= 1";
    return failure();
  }
  if (!checkGridMap(omap, tile.size(), why)) {
    why = "[B15] omap " + why;
    return failure();
  }
  SmallVector<int64_t> shape(tile);
  for (int g = 0; g < 3; ++g) {
    if (omap[g] >= 0) {
      shape[omap[g]] *= grid[g];
    } else if (grid[g] > 1) {
      llvm::raw_string_ostream(why)
          << "[B16] grid dim " << g << " = " << grid[g]
          << " is not mapped to an output dim, so blocks would overwrite "
             "each other's tiles";
      return failure();
    }
  }
  return shape;
}

/// The static twin of a dynamic kernel's tiling ([K19]): the dims of
/// `shape` partitioned by a `?` grid dim take the tile's extent there, and
/// those grid dims become 1. Fails when a dynamic dim is not partitioned by
/// a `?` grid dim or a `?` grid dim partitions a static dim.
static LogicalResult staticTwin(ArrayRef<int64_t> shape, ArrayRef<int64_t> tile,
                                ArrayRef<int64_t> grid, ArrayRef<int64_t> map,
                                int64_t forloop, int64_t fmap,
                                SmallVectorImpl<int64_t> &twinShape,
                                SmallVectorImpl<int64_t> &twinGrid,
                                std::string &why) {
  twinShape.assign(shape.begin(), shape.end());
  twinGrid.assign(grid.begin(), grid.end());
  if (map.size() != 3 || grid.size() != 3 || tile.size() != shape.size()) {
    why = "[K19] malformed tiling of a dynamic kernel";
    return failure();
  }
  for (int g = 0; g < 3; ++g) {
    if (!ShapedType::isDynamic(grid[g]))
      continue;
    twinGrid[g] = 1;
    int64_t d = map[g];
    if (d >= 0 && d < static_cast<int64_t>(shape.size())) {
      if (!ShapedType::isDynamic(shape[d])) {
        why = "[K19] a '?' grid dim partitions static dim " + std::to_string(d);
        return failure();
      }
      twinShape[d] = tile[d];
    }
  }
  // [K21] the dim a `?` loop walks: one trip of the tile.
  if (ShapedType::isDynamic(forloop) && fmap >= 0 &&
      fmap < static_cast<int64_t>(shape.size()) &&
      ShapedType::isDynamic(shape[fmap]))
    twinShape[fmap] = tile[fmap];
  for (auto [d, size] : llvm::enumerate(twinShape))
    if (ShapedType::isDynamic(size)) {
      why = "[K19] dynamic dim " + std::to_string(d) +
            " must be partitioned by a '?' grid dim or walked by a '?' loop";
      return failure();
    }
  return success();
}

/// Appended to a tiling diagnostic of a tile without a view.
static constexpr const char *kNoTailTiling =
    "; nor is it a tail tiling ([B26]: a grid dim of ceil(size / tile) "
    "blocks along a dim the loop does not walk, or a loop of "
    "ceil(size / tile) trips along a dim the grid does not partition)";

/// The dims along which `tile` tiles `shape` with a tail ([B26]), in
/// order; empty when it is not a tail tiling (an exact one included).
static SmallVector<int64_t> tailTiledDims(ArrayRef<int64_t> shape,
                                          ArrayRef<int64_t> tile,
                                          ArrayRef<int64_t> grid,
                                          int64_t forloop,
                                          ArrayRef<int64_t> map, int64_t fmap) {
  int64_t rank = shape.size();
  std::string why;
  if (static_cast<int64_t>(tile.size()) != rank || grid.size() != 3 ||
      llvm::any_of(
          grid, [](int64_t g) { return g < 1 && !ShapedType::isDynamic(g); }) ||
      (forloop < 1 && !ShapedType::isDynamic(forloop)) ||
      !checkGridMap(map, rank, why) || fmap < -1 || fmap >= rank)
    return {};
  SmallVector<int64_t> tails;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t *g = llvm::find(map, d);
    int64_t blocks = g == map.end() ? 1 : grid[g - map.begin()];
    int64_t walk = d == fmap ? forloop : 1;
    if (tile[d] < 1)
      return {};
    // [K21] A '?' loop walks a dynamic dim in ceil(size / tile) trips: the
    // last one may overhang at any size.
    if (d == fmap && ShapedType::isDynamic(forloop)) {
      if (!ShapedType::isDynamic(shape[d]) || blocks != 1)
        return {};
      tails.push_back(d);
      continue;
    }
    // [K19] A '?' grid dim partitions a dynamic dim into ceil(size / tile)
    // blocks: the last one may overhang at any size.
    if (ShapedType::isDynamic(blocks) || ShapedType::isDynamic(shape[d])) {
      if (!ShapedType::isDynamic(blocks) || !ShapedType::isDynamic(shape[d]) ||
          d == fmap)
        return {};
      tails.push_back(d);
      continue;
    }
    if (tile[d] * blocks * walk == shape[d])
      continue;
    // A walked tail: the loop's trips cover the dim of one block, the last
    // trip starting inside the tensor.
    if (d == fmap) {
      if (blocks != 1 || walk != (shape[d] + tile[d] - 1) / tile[d])
        return {};
      tails.push_back(d);
      continue;
    }
    // A tail: partitioned by the grid, not walked by the loop, and the
    // last block starts inside the tensor.
    if (g == map.end() || d == fmap ||
        blocks != (shape[d] + tile[d] - 1) / tile[d])
      return {};
    tails.push_back(d);
  }
  return tails;
}

bool mb::isTailTiling(ArrayRef<int64_t> shape, ArrayRef<int64_t> tile,
                      ArrayRef<int64_t> grid, int64_t forloop,
                      ArrayRef<int64_t> map, int64_t fmap) {
  return !tailTiledDims(shape, tile, grid, forloop, map, fmap).empty();
}

SmallVector<int64_t> mb::tailDims(Operation *op) {
  auto kernel = op->getParentOfType<GraphKernelOpInterface>();
  if (!kernel)
    return {};
  // Through a view, the logical shape has the device's extent along the
  // dims it passes through, and only there can a tile overhang.
  if (auto it = dyn_cast<InputIterOp>(op))
    return tailTiledDims(it.getLogicalShape(),
                         it.getTile().getType().getShape(),
                         kernel.getGridDims(), kernel.getForloopRange(),
                         it.getImap(), static_cast<int64_t>(it.getFmap()));
  if (auto saver = dyn_cast<OutputSaverOp>(op))
    return tailTiledDims(saver.getLogicalShape(),
                         saver.getInput().getType().getShape(),
                         kernel.getGridDims(), /*forloop=*/1, saver.getOmap(),
                         /*fmap=*/-1);
  return {};
}

int64_t mb::deviceDimOf(Operation *op, int64_t dim) {
  std::optional<AffineMap> view;
  if (auto it = dyn_cast<InputIterOp>(op))
    view = it.getView();
  else if (auto saver = dyn_cast<OutputSaverOp>(op))
    view = saver.getView();
  if (dim < 0 || !view)
    return dim;
  SmallVector<int64_t> passed = passedThroughDims(*view);
  const int64_t *d = llvm::find(passed, dim);
  return d == passed.end() ? -1 : d - passed.begin();
}

bool mb::keptInF32(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<ForLoopOp, AccumulatorOpInterface>(def))
    return true;
  return isa<MatmulOp>(def) && !v.use_empty() &&
         llvm::all_of(v.getUsers(), [](Operation *user) {
           return isa<AccumulatorOpInterface>(user) &&
                  !isa<AccumRescaledSumOp>(user);
         });
}

AccumSumOp mb::accumulatedInPlace(MatmulOp mm) {
  if (!mm->hasOneUse())
    return {};
  return dyn_cast<AccumSumOp>(*mm->user_begin());
}

LogicalResult mb::verifyInForLoop(Operation *op) {
  if (failed(verifyInBlockGraph(op)))
    return failure();
  if (!isa_and_nonnull<ForLoopOp>(op->getParentOp()))
    return op->emitOpError("[B19] must be directly in the body of an "
                           "mb.for_loop");
  return success();
}

LogicalResult mb::verifyTileCoordinates(Operation *op, ArrayRef<int64_t> imap,
                                        int64_t fmap) {
  int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  std::string why;
  if (!checkGridMap(imap, rank, why))
    return op->emitOpError("[B20] imap ") << why;
  if (fmap != -1 && (fmap < 0 || fmap >= rank))
    return op->emitOpError("[B20] fmap ")
           << fmap << " is neither -1 nor a dim of a rank-" << rank
           << " tensor";
  if (fmap != -1 && !isa_and_nonnull<ForLoopOp>(op->getParentOp()))
    return op->emitOpError("[B20] fmap ")
           << fmap << " names a dim the for-loop walks, but the op is not "
           << "in the for-loop's body";
  return success();
}

static GraphKernelOpInterface getKernel(Operation *op) {
  return op->getParentOfType<GraphKernelOpInterface>();
}

//===----------------------------------------------------------------------===//
// InputIterOp
//===----------------------------------------------------------------------===//

bool InputIterOp::isEpilogue() {
  return !isa_and_nonnull<ForLoopOp>(getOperation()->getParentOp());
}

LogicalResult InputIterOp::verify() {
  GraphKernelOpInterface kernel = getKernel(*this);
  if (!kernel)
    return emitOpError("[C0.2] must be nested inside a graph-defined kernel");
  if (isEpilogue()) {
    // [B19] outside a loop body only as an epilogue input, [B21] after the
    // loop and not walking it.
    Operation *parent = getOperation()->getParentOp();
    if (parent != kernel.getOperation())
      return emitOpError("[B19] must be directly in the body of an "
                         "mb.for_loop or, as an epilogue input, directly in "
                         "the body of the graph-defined kernel");
    for (Operation &op : *getOperation()->getBlock())
      if (isa<ForLoopOp>(op) && !op.isBeforeInBlock(getOperation()))
        return emitOpError("[B21] an epilogue input (in the kernel body) "
                           "must come after the mb.for_loop");
    // fmap is stored unsigned; -1: no loop walk.
    if (static_cast<int64_t>(getFmap()) != -1)
      return emitOpError("[B21] an epilogue input is read once after the "
                         "loop: fmap must be -1, got ")
             << static_cast<int64_t>(getFmap());
  }
  auto arg = dyn_cast<BlockArgument>(getInput());
  if (!arg || arg.getOwner()->getParentOp() != kernel.getOperation())
    return emitOpError("[B4] operand must be an argument of the enclosing "
                       "graph-defined kernel (a device tensor)");
  std::string why;
  ArrayRef<int64_t> device = getInput().getType().getShape();
  SmallVector<int64_t> logical = getLogicalShape();
  // [K19] a dynamic kernel's iterator checks as its static twin ([K21]:
  // one trip of a `?` loop); through a view whose strides do not depend on
  // the size.
  int64_t forloop = kernel.getForloopRange();
  if (!getInput().getType().hasStaticShape() ||
      llvm::any_of(kernel.getGridDims(), ShapedType::isDynamic) ||
      ShapedType::isDynamic(forloop)) {
    SmallVector<int64_t> shape, grid;
    if (getView() && failed(checkDynamicView(*getView(), logical, device, why)))
      return emitOpError("[K19] ") << why;
    int64_t fmap = static_cast<int64_t>(getFmap());
    int64_t rank = logical.size();
    if (ShapedType::isDynamic(forloop) && fmap >= 0 && fmap < rank &&
        !ShapedType::isDynamic(logical[fmap]))
      return emitOpError("[K21] a '?' loop walks dim ")
             << fmap << " of " << getInput().getType()
             << ", which is not dynamic";
    if (!ShapedType::isDynamic(forloop) && fmap >= 0 && fmap < rank &&
        ShapedType::isDynamic(logical[fmap]))
      return emitOpError("[K21] a loop of ")
             << forloop << " trips walks dynamic dim " << fmap
             << ": a loop that walks a dynamic dim is '?'";
    if (failed(staticTwin(logical, getTile().getType().getShape(),
                          kernel.getGridDims(), getImap(), forloop, fmap, shape,
                          grid, why)))
      return emitOpError(why);
    if (ShapedType::isDynamic(forloop))
      forloop = 1;
    FailureOr<SmallVector<int64_t>> tile = computeInputTileShape(
        shape, grid, forloop, getImap(), getFmap(), why);
    if (failed(tile))
      return emitOpError(why);
    auto expected =
        RankedTensorType::get(*tile, getInput().getType().getElementType());
    if (expected != getTile().getType())
      return emitOpError("[B8] result type ")
             << getTile().getType() << " is not the tile type " << expected;
    return verifyView(shape, device);
  }
  // [B26] a tail tile along grid-partitioned dims (through a view, dims it
  // passes through).
  if (isTailTiling(logical, getTile().getType().getShape(),
                   kernel.getGridDims(), kernel.getForloopRange(), getImap(),
                   static_cast<int64_t>(getFmap()))) {
    if (getTile().getType().getElementType() !=
        getInput().getType().getElementType())
      return emitOpError("[B8] result element type ")
             << getTile().getType().getElementType() << " is not the input's "
             << getInput().getType().getElementType();
    return verifyView(logical, device);
  }
  FailureOr<SmallVector<int64_t>> tile = computeInputTileShape(
      logical, kernel.getGridDims(), kernel.getForloopRange(), getImap(),
      getFmap(), why);
  if (failed(tile))
    return emitOpError(why) << (getView() ? "" : kNoTailTiling);
  auto expected =
      RankedTensorType::get(*tile, getInput().getType().getElementType());
  if (expected != getTile().getType())
    return emitOpError("[B8] result type ")
           << getTile().getType() << " is not the tile type " << expected
           << (getView() ? "" : kNoTailTiling);
  return verifyView(logical, device);
}

LogicalResult InputIterOp::verifyView(ArrayRef<int64_t> logical,
                                      ArrayRef<int64_t> device) {
  std::optional<AffineMap> view = getView();
  if (!view)
    return success();
  std::string why;
  StridedView::Error error;
  if (failed(StridedView::analyze(*view, logical,
                                  staticDeviceShape(*view, logical, device),
                                  why, &error)))
    return emitOpError(error == StridedView::Error::Arity  ? "[B22] "
                       : error == StridedView::Error::Form ? "[B23] "
                                                           : "[B24] ")
           << why;
  return success();
}

/// The tile scaled by the grid along `imap` and by `forloop` along `fmap`.
static SmallVector<int64_t> scaleTile(ArrayRef<int64_t> tile,
                                      ArrayRef<int64_t> grid, int64_t forloop,
                                      ArrayRef<int64_t> imap, int64_t fmap) {
  SmallVector<int64_t> shape(tile);
  int64_t rank = shape.size();
  auto scale = [](int64_t &extent, int64_t times) {
    extent = ShapedType::isDynamic(times) || ShapedType::isDynamic(extent)
                 ? ShapedType::kDynamic
                 : extent * times;
  };
  for (auto [g, d] : llvm::enumerate(imap))
    if (d >= 0 && d < rank && g < grid.size())
      scale(shape[d], grid[g]);
  if (fmap >= 0 && fmap < rank)
    scale(shape[fmap], forloop);
  return shape;
}

/// The logical shape of a view whose tiles scaled by the grid (and the
/// loop) give `scaled`: that, except along a logical dim the view passes
/// through to a device dim that is dynamic or that a `?` grid dim or loop
/// partitions ([K19], [K21]), or that the scaled tiles overhang (a tail,
/// [B26]): there it is the device dim's extent.
static SmallVector<int64_t> viewLogicalShape(AffineMap view,
                                             SmallVector<int64_t> scaled,
                                             ArrayRef<int64_t> device) {
  for (auto [d, l] : llvm::enumerate(passedThroughDims(view))) {
    if (l < 0 || l >= static_cast<int64_t>(scaled.size()) || d >= device.size())
      continue;
    if (ShapedType::isDynamic(device[d]) || ShapedType::isDynamic(scaled[l]) ||
        scaled[l] > device[d])
      scaled[l] = device[d];
  }
  return scaled;
}

SmallVector<int64_t> InputIterOp::getLogicalShape() {
  ArrayRef<int64_t> device = getInput().getType().getShape();
  GraphKernelOpInterface kernel = getKernel(*this);
  if (!getView() || !kernel)
    return SmallVector<int64_t>(device);
  return viewLogicalShape(*getView(),
                          scaleTile(getTile().getType().getShape(),
                                    kernel.getGridDims(),
                                    kernel.getForloopRange(), getImap(),
                                    static_cast<int64_t>(getFmap())),
                          device);
}

//===----------------------------------------------------------------------===//
// Accumulators
//===----------------------------------------------------------------------===//

/// The result must be the input with its last dim replaced by `last`.
static LogicalResult verifyLastDimResult(Operation *op, RankedTensorType in,
                                         RankedTensorType out, int64_t last,
                                         StringRef tag) {
  SmallVector<int64_t> shape(in.getShape());
  shape.back() = last;
  auto expected = RankedTensorType::get(shape, in.getElementType());
  if (out != expected)
    return op->emitOpError(tag)
           << " result type " << out << " should be " << expected;
  return success();
}

static LogicalResult verifySameType(Operation *op, Type in, Type out) {
  if (in != out)
    return op->emitOpError("[B9] result type ")
           << out << " should equal the input type " << in;
  return success();
}

LogicalResult AccumSumOp::verify() {
  return verifySameType(*this, getInput().getType(), getType());
}
LogicalResult AccumMaxOp::verify() {
  return verifySameType(*this, getInput().getType(), getType());
}
LogicalResult AccumSumLastOp::verify() {
  return verifyLastDimResult(*this, getInput().getType(), getType(), 1,
                             "[B10]");
}
LogicalResult AccumMeanLastOp::verify() {
  return verifyLastDimResult(*this, getInput().getType(), getType(), 1,
                             "[B10]");
}
LogicalResult AccumRmsLastOp::verify() {
  if (!(getEps().convertToDouble() >= 0.0))
    return emitOpError("[B11] eps must be >= 0, got ")
           << getEps().convertToDouble();
  return verifyLastDimResult(*this, getInput().getType(), getType(), 1,
                             "[B10]");
}
LogicalResult AccumSumToOp::verify() {
  int64_t n = getInput().getType().getShape().back();
  int64_t dimx = getDimx();
  if (dimx < 1 || n % dimx != 0)
    return emitOpError("[B12] dimx = ")
           << dimx << " must be >= 1 and divide the last dim " << n;
  return verifyLastDimResult(*this, getInput().getType(), getType(), dimx,
                             "[B12]");
}
LogicalResult AccumRescaledSumOp::verify() {
  RankedTensorType x = getInput().getType(), m = getMax().getType();
  FailureOr<SmallVector<int64_t>> b =
      broadcastShapes(m.getShape(), x.getShape());
  if (m.getElementType() != x.getElementType() || failed(b) ||
      ArrayRef<int64_t>(*b) != x.getShape())
    return emitOpError("[B13] max operand ")
           << m << " must have the element type and rank of " << x
           << " and broadcast to it";
  return verifySameType(*this, x, getType());
}

//===----------------------------------------------------------------------===//
// ForLoopOp
//===----------------------------------------------------------------------===//

LogicalResult ForLoopOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 0)
    return emitOpError("[B2] body must have no arguments");
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("[B2] body must end in mb.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError("[B2] yields ")
           << yield.getValues().size()
           << " values whose types do not match the loop's result types";
  for (Value v : yield.getValues()) {
    Operation *def = v.getDefiningOp();
    if (!def || !isa<AccumulatorOpInterface>(def) || def->getBlock() != &body)
      return yield.emitOpError("[B3] yields a value that is not the result of "
                               "an accumulator of this loop; loop-body values "
                               "must pass through an accumulator");
  }
  for (Operation &op : body)
    if (isa<AccumulatorOpInterface>(op))
      for (Operation *user : op.getUsers())
        if (!isa<YieldOp>(user))
          return user->emitOpError("[B3] uses an accumulator result inside "
                                   "the loop; accumulated values only exist "
                                   "after the loop");
  return success();
}

//===----------------------------------------------------------------------===//
// OutputSaverOp
//===----------------------------------------------------------------------===//

LogicalResult OutputSaverOp::verify() {
  auto kernel =
      dyn_cast_or_null<GraphKernelOpInterface>(getOperation()->getParentOp());
  if (!kernel)
    return emitOpError("[B14] must be directly in the body of a "
                       "graph-defined kernel, after the loop");
  for (Operation *user : getOutput().getUsers())
    if (!isa<ReturnOp>(user))
      return emitOpError("[B14] result is a device tensor and may only be "
                         "used by mb.return");
  std::string why;
  Type elementType = getInput().getType().getElementType();
  ArrayRef<int64_t> device = getOutput().getType().getShape();
  SmallVector<int64_t> logical = getLogicalShape();
  // [K19] a dynamic kernel's saver checks as its static twin; through a
  // view whose strides do not depend on the size.
  if (!getOutput().getType().hasStaticShape() ||
      llvm::any_of(kernel.getGridDims(), ShapedType::isDynamic)) {
    SmallVector<int64_t> shape, grid;
    if (getView() && failed(checkDynamicView(*getView(), logical, device, why)))
      return emitOpError("[K19] ") << why;
    if (failed(staticTwin(logical, getInput().getType().getShape(),
                          kernel.getGridDims(), getOmap(), /*forloop=*/1,
                          /*fmap=*/-1, shape, grid, why)))
      return emitOpError(why);
    FailureOr<SmallVector<int64_t>> saved = computeOutputShape(
        getInput().getType().getShape(), grid, getOmap(), why);
    if (failed(saved))
      return emitOpError(why);
    if (ArrayRef<int64_t>(*saved) != ArrayRef<int64_t>(shape) ||
        getOutput().getType().getElementType() != elementType)
      return emitOpError("[B17] result type ")
             << getOutput().getType()
             << " is not the tile scaled by the grid along omap";
    return verifyView(shape, device);
  }
  // [B26] a tail tile along grid-partitioned dims (through a view, dims it
  // passes through).
  if (isTailTiling(logical, getInput().getType().getShape(),
                   kernel.getGridDims(),
                   /*forloop=*/1, getOmap(), /*fmap=*/-1)) {
    if (getOutput().getType().getElementType() != elementType)
      return emitOpError("[B17] result element type ")
             << getOutput().getType().getElementType() << " should be "
             << elementType;
    return verifyView(logical, device);
  }
  FailureOr<SmallVector<int64_t>> shape = computeOutputShape(
      getInput().getType().getShape(), kernel.getGridDims(), getOmap(), why);
  if (failed(shape))
    return emitOpError(why) << (getView() ? "" : kNoTailTiling);
  if (getView()) {
    if (getOutput().getType().getElementType() != elementType)
      return emitOpError("[B17] result element type ")
             << getOutput().getType().getElementType() << " should be "
             << elementType;
    return verifyView(*shape, device);
  }
  auto expected = RankedTensorType::get(*shape, elementType);
  if (expected != getOutput().getType())
    return emitOpError("[B17] result type ")
           << getOutput().getType() << " should be " << expected
           << " (the tile scaled by the grid along omap)" << kNoTailTiling;
  return success();
}

LogicalResult OutputSaverOp::verifyView(ArrayRef<int64_t> logical,
                                        ArrayRef<int64_t> device) {
  std::optional<AffineMap> view = getView();
  if (!view)
    return success();
  std::string why;
  FailureOr<StridedView> v = StridedView::analyze(
      *view, logical, staticDeviceShape(*view, logical, device), why);
  if (failed(v) || !v->isOneToOne(why))
    return emitOpError("[B25] ") << why;
  return success();
}

SmallVector<int64_t> OutputSaverOp::getLogicalShape() {
  auto kernel =
      dyn_cast_or_null<GraphKernelOpInterface>(getOperation()->getParentOp());
  if (!getView() || !kernel)
    return SmallVector<int64_t>(getOutput().getType().getShape());
  return viewLogicalShape(*getView(),
                          scaleTile(getInput().getType().getShape(),
                                    kernel.getGridDims(), 0, getOmap(), -1),
                          getOutput().getType().getShape());
}

FailureOr<std::optional<StridedView>> mb::analyzeView(Operation *op,
                                                      std::string &why) {
  std::optional<AffineMap> map;
  SmallVector<int64_t> logical;
  ArrayRef<int64_t> device;
  if (auto it = dyn_cast<InputIterOp>(op)) {
    map = it.getView();
    logical = it.getLogicalShape();
    device = it.getInput().getType().getShape();
  } else if (auto saver = dyn_cast<OutputSaverOp>(op)) {
    map = saver.getView();
    logical = saver.getLogicalShape();
    device = saver.getOutput().getType().getShape();
  }
  if (!map)
    return std::optional<StridedView>();
  // [K19] a dynamic dim, passed through the view, is analysed at a stand-in
  // extent larger than any size (its strides do not depend on it): its
  // digit is kept whole, never reduced modulo an extent, and, being odd, it
  // gives no vector run along it.
  constexpr int64_t kAnySize = (int64_t{1} << 31) - 1;
  for (int64_t &extent : logical)
    if (ShapedType::isDynamic(extent))
      extent = kAnySize;
  FailureOr<StridedView> view = StridedView::analyze(
      *map, logical, staticDeviceShape(*map, logical, device), why);
  if (failed(view))
    return failure();
  return std::optional<StridedView>(std::move(*view));
}

#define GET_OP_CLASSES
#include "Mirage/Dialect/Block/IR/BlockOps.cpp.inc"
