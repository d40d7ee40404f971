//===- GeneralizeSizes.cpp - Dynamic dims back into a program -------------===//
//
// See GeneralizeSizes.h.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/GeneralizeSizes.h"
#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;
using namespace mirage;

namespace {

/// The smallest walked tile a generalised kernel shrinks to.
constexpr int64_t kMinWalkedTile = 16;

/// `type` with dim `d` dynamic.
RankedTensorType withDynamicDim(RankedTensorType type, int64_t d) {
  SmallVector<int64_t> shape(type.getShape());
  shape[d] = ShapedType::kDynamic;
  return type.clone(shape);
}

int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

/// [K16] The reshape's result keeps its input's dynamic dim whole: the
/// result dim with the same static dims before and after it.
LogicalResult generalizeReshape(mk::ReshapeOp reshape, std::string &why) {
  auto in = cast<RankedTensorType>(reshape.getInput().getType());
  auto out = cast<RankedTensorType>(reshape.getType());
  SmallVector<int64_t> dynamicDims;
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (in.isDynamicDim(d))
      dynamicDims.push_back(d);
  if (dynamicDims.size() != 1) {
    why = "a reshape of more than one dynamic dim";
    return failure();
  }
  int64_t i = dynamicDims.front();
  int64_t before = product(in.getShape().take_front(i));
  int64_t after = product(in.getShape().drop_front(i + 1));
  for (int64_t d = 0; d < out.getRank(); ++d)
    if (product(out.getShape().take_front(d)) == before &&
        product(out.getShape().drop_front(d + 1)) == after) {
      reshape.getResult().setType(withDynamicDim(out, d));
      return success();
    }
  why = "a reshape merges a dynamic dim with static ones";
  return failure();
}

/// A view that is a permutation (a transpose the search folded into a read
/// or write) in the device tensor's terms: device dim j is logical dim
/// `logicalOf[j]`, logical dim i device dim `deviceOf[i]`.
struct PermutationView {
  SmallVector<int64_t> logicalOf, deviceOf;

  static std::optional<PermutationView> of(AffineMap map) {
    if (!map.isPermutation())
      return std::nullopt;
    PermutationView v;
    for (AffineExpr e : map.getResults())
      v.logicalOf.push_back(cast<AffineDimExpr>(e).getPosition());
    v.deviceOf.resize(v.logicalOf.size());
    for (auto [j, logical] : llvm::enumerate(v.logicalOf))
      v.deviceOf[logical] = j;
    return v;
  }
  /// A logical tile's shape in the device tensor's dim order.
  SmallVector<int64_t> deviceShape(ArrayRef<int64_t> logical) const {
    SmallVector<int64_t> shape;
    for (int64_t i : logicalOf)
      shape.push_back(logical[i]);
    return shape;
  }
  /// A grid map (imap, omap) of logical dims as one of device dims.
  SmallVector<int64_t> deviceMap(ArrayRef<int64_t> map) const {
    SmallVector<int64_t> out;
    for (int64_t d : map)
      out.push_back(d < 0 ? d : deviceOf[d]);
    return out;
  }
};

/// A view found at a size of 1 has lost the dim of that size (its index is
/// always 0: `(h, t, d) -> (0, h * 32 + d)`). Gives device dim `deviceDim`
/// back logical dim `logical` (with `logical` -1: the first logical dim of
/// extent 1 in `shape` that no result reads), where the device dim's result
/// is 0 and that dim is read by no result; the map unchanged otherwise.
AffineMap reattachUnitDim(AffineMap view, int64_t deviceDim, int64_t logical,
                          ArrayRef<int64_t> shape) {
  auto zero = dyn_cast<AffineConstantExpr>(view.getResult(deviceDim));
  if (!zero || zero.getValue() != 0)
    return view;
  auto unread = [&](int64_t l) {
    return llvm::none_of(view.getResults(),
                         [&](AffineExpr e) { return e.isFunctionOfDim(l); });
  };
  for (int64_t l = 0; logical < 0 && l < static_cast<int64_t>(shape.size());
       ++l)
    if (shape[l] == 1 && unread(l))
      logical = l;
  if (logical < 0 || !unread(logical))
    return view;
  SmallVector<AffineExpr> results(view.getResults());
  results[deviceDim] = getAffineDimExpr(logical, view.getContext());
  return AffineMap::get(view.getNumDims(), 0, results, view.getContext());
}

/// An input iterator of `it`'s device tensor without its view, where the
/// view is a permutation: the tile read in the device tensor's dim order,
/// then an mb.transpose: for a view whose strides would depend on a
/// dynamic size ([K19]).
LogicalResult unfoldPermutationView(mb::InputIterOp it, std::string &why) {
  std::optional<PermutationView> view = PermutationView::of(*it.getView());
  if (!view) {
    why = "a view that is not a permutation reads a dynamic dim";
    return failure();
  }
  int64_t fmap = static_cast<int64_t>(it.getFmap());
  OpBuilder b(it);
  auto read = mb::InputIterOp::create(
      b, it.getLoc(), it.getType().clone(view->deviceShape(it.getType().getShape())),
      it.getInput(), view->deviceMap(it.getImap()),
      fmap < 0 ? fmap : view->deviceOf[fmap], /*view=*/AffineMapAttr());
  auto transposed = mb::TransposeOp::create(b, it.getLoc(), it.getType(),
                                            read.getTile(), view->deviceOf);
  it.getTile().replaceAllUsesWith(transposed.getResult());
  it.erase();
  return success();
}

/// The same for an output saver: the tile transposed into the device
/// tensor's dim order, saved without the view.
LogicalResult unfoldPermutationView(mb::OutputSaverOp saver,
                                    std::string &why) {
  std::optional<PermutationView> view = PermutationView::of(*saver.getView());
  if (!view) {
    why = "a view that is not a permutation writes a dynamic dim";
    return failure();
  }
  auto logicalTile = saver.getInput().getType();
  OpBuilder b(saver);
  auto transposed = mb::TransposeOp::create(
      b, saver.getLoc(),
      logicalTile.clone(view->deviceShape(logicalTile.getShape())),
      saver.getInput(), view->logicalOf);
  auto plain = mb::OutputSaverOp::create(
      b, saver.getLoc(), saver.getOutput().getType(), transposed.getResult(),
      view->deviceMap(saver.getOmap()), /*view=*/AffineMapAttr());
  saver.getOutput().replaceAllUsesWith(plain.getOutput());
  saver.erase();
  return success();
}

/// Recomputes the result types of a block graph after its walked tiles
/// changed: each op's shape from its operands' (its shape rule; an
/// element-wise op's, a mask's or an accumulator's from its operand), its
/// element type kept; the loop's results from what it yields.
void retypeBlockGraph(mk::GraphKernelOp kernel) {
  auto shapeOf = [](Value v) {
    return SmallVector<int64_t>(cast<RankedTensorType>(v.getType()).getShape());
  };
  auto retype = [&](Operation &op) {
    if (isa<mb::InputIterOp, mb::OutputSaverOp>(op) ||
        op.getNumResults() != 1 || op.getNumOperands() == 0)
      return;
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type)
      return;
    SmallVector<int64_t> shape = shapeOf(op.getOperand(0));
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
      AccumulatorKind kind = acc.getAccumulatorKind();
      if (kind == AccumulatorKind::SumLast ||
          kind == AccumulatorKind::MeanLast || kind == AccumulatorKind::RmsLast)
        shape.back() = 1;
      else if (kind == AccumulatorKind::SumTo)
        shape.back() = type.getShape().back();
    } else if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
      SmallVector<Type> types;
      if (failed(infer.inferReturnTypes(
              op.getContext(), op.getLoc(), op.getOperands(),
              op.getRawDictionaryAttrs(), op.getPropertiesStorage(),
              op.getRegions(), types)))
        return;
      shape.assign(cast<RankedTensorType>(types.front()).getShape().begin(),
                   cast<RankedTensorType>(types.front()).getShape().end());
    }
    op.getResult(0).setType(type.clone(shape));
  };
  mb::ForLoopOp loop = kernel.getForLoop();
  for (Operation &op : loop.getBody().front())
    retype(op);
  auto yield = cast<mb::YieldOp>(loop.getBody().front().getTerminator());
  for (auto [r, v] : llvm::zip_equal(loop.getResults(), yield.getValues()))
    r.setType(v.getType());
  for (Operation &op : kernel.getBody().front())
    if (!isa<mb::ForLoopOp>(op))
      retype(op);
}

/// Sets the walked extent of every walking iterator of `kernel` to `tile`
/// and retypes the block graph.
void setWalkedTile(mk::GraphKernelOp kernel, int64_t tile) {
  kernel.getBody().walk([&](mb::InputIterOp it) {
    int64_t fmap = static_cast<int64_t>(it.getFmap());
    if (fmap < 0)
      return;
    SmallVector<int64_t> shape(it.getType().getShape());
    shape[fmap] = tile;
    it.getTile().setType(it.getType().clone(shape));
  });
  retypeBlockGraph(kernel);
}

/// How a kernel tiles one dynamic dim of an input: split by a grid dim,
/// walked by the loop or held whole by every block's tile, and which size
/// it stands for, told by its extent at the sizes searched (the tile times
/// the grid dim's blocks or the loop's trips, or the tile).
struct DimTiling {
  mutable mb::InputIterOp it;
  int64_t dim = -1;
  enum Kind { Grid, Walked, Whole } kind = Whole;
  int64_t grid = -1;
  int64_t extent = 0;
};

SmallVector<DimTiling> dimTilings(mk::GraphKernelOp kernel,
                                  ArrayRef<mb::InputIterOp> iters) {
  SmallVector<DimTiling> dims;
  ArrayRef<int64_t> grid = kernel.getGrid();
  for (mb::InputIterOp it : iters) {
    // Through a view, the logical dim the view passes the dynamic dim
    // through from (generalizeKernel kept only such views).
    SmallVector<int64_t> logical = it.getLogicalShape();
    for (int64_t d = 0; d < static_cast<int64_t>(logical.size()); ++d) {
      if (!ShapedType::isDynamic(logical[d]))
        continue;
      DimTiling t;
      t.it = it;
      t.dim = d;
      int64_t tile = it.getType().getDimSize(d);
      const int64_t *g = llvm::find(it.getImap(), d);
      if (g != it.getImap().end()) {
        t.kind = DimTiling::Grid;
        t.grid = g - it.getImap().begin();
        t.extent = tile * grid[t.grid];
      } else if (static_cast<int64_t>(it.getFmap()) == d) {
        t.kind = DimTiling::Walked;
        t.extent = tile * kernel.getForloop();
      } else {
        t.extent = tile;
      }
      dims.push_back(t);
    }
  }
  return dims;
}

/// A kernel of one trip whose tiles hold a whole size, which its outputs
/// do not have (a reduction over it, attention's key length at a small
/// representative): its loop walks the size in tiles of the largest size
/// the program is meant for (`bounds`: one trip up to it) or of the extent
/// the search chose. `whole` are the dims that hold it. Whether a size of
/// several trips is right is the class checks' to say (Passes.cpp).
LogicalResult walkWholeSize(mk::GraphKernelOp kernel, ArrayRef<DimTiling> whole,
                            ArrayRef<SizeBound> bounds, std::string &why) {
  int64_t extent = whole.front().extent;
  // A band mask's place along the walked dim would not follow the trips.
  bool masked = false;
  kernel.walk([&](mb::BandMaskOp) { masked = true; });
  if (masked) {
    why = "a one-trip kernel with a band mask holds the whole size";
    return failure();
  }
  for (const DimTiling &t : whole) {
    if (llvm::count_if(whole,
                       [&](const DimTiling &o) { return o.it == t.it; }) > 1) {
      why = "a tile holds the size in two dims";
      return failure();
    }
    // With one trip a walk of a static dim reads it whole: as fmap -1.
    t.it.setFmap(t.dim);
  }
  kernel.getBody().walk([&](mb::InputIterOp it) {
    if (llvm::none_of(whole, [&](const DimTiling &t) { return t.it == it; }) &&
        !it.isEpilogue())
      it.setFmap(-1);
  });
  // The bound of the size searched at this extent (the smaller one where
  // several were); a tile of at most four times the extent searched.
  std::optional<int64_t> largest;
  for (const SizeBound &b : bounds)
    if (b.searchedAt == extent)
      largest = std::min(largest.value_or(b.largest), b.largest);
  if (largest && *largest > extent && *largest <= 4 * extent)
    setWalkedTile(kernel, *largest);
  return success();
}

/// The kernel's tiling of the dynamic dims of its operands, size by size
/// (a function may have several: a prefill attention's queries and keys):
/// a loop that walks one becomes a `?` loop with its tail masked ([K21],
/// [B28]); the grid dim that partitions one becomes `?`, the savers' dims
/// it partitions dynamic. Where the search's tile covered the whole dim (a
/// grid dim of one block), a grid dim no tensor uses is given to it.
LogicalResult generalizeKernel(mk::GraphKernelOp kernel,
                               ArrayRef<SizeBound> bounds, std::string &why) {
  Block &body = kernel.getBody().front();
  for (auto [arg, in] :
       llvm::zip_equal(body.getArguments(), kernel.getInputs()))
    arg.setType(in.getType());
  // An input read through a view keeps it where the view passes the
  // dynamic dim through with strides that do not depend on the size
  // ([K19]: a head split of the tokens dim); otherwise a permutation
  // becomes a transpose of the tile read without it.
  SmallVector<mb::InputIterOp> viewed;
  kernel.getBody().walk([&](mb::InputIterOp it) {
    auto device = cast<RankedTensorType>(it.getInput().getType());
    for (int64_t d = 0; it.getView() && d < device.getRank(); ++d)
      if (device.isDynamicDim(d))
        it.setViewAttr(AffineMapAttr::get(
            reattachUnitDim(*it.getView(), d, -1, it.getLogicalShape())));
    if (it.getView() &&
        failed(mb::checkDynamicView(*it.getView(), it.getLogicalShape(),
                                    it.getInput().getType().getShape(), why)))
      viewed.push_back(it);
  });
  for (mb::InputIterOp it : viewed)
    if (failed(unfoldPermutationView(it, why)))
      return failure();
  SmallVector<mb::InputIterOp> iters;
  SmallVector<mb::OutputSaverOp> savers;
  kernel.getBody().walk([&](Operation *op) {
    if (auto it = dyn_cast<mb::InputIterOp>(op))
      iters.push_back(it);
    else if (auto saver = dyn_cast<mb::OutputSaverOp>(op))
      savers.push_back(saver);
  });
  SmallVector<DimTiling> dims = dimTilings(kernel, iters);
  // The sizes, each tiled one way in every tensor that has it.
  std::map<int64_t, SmallVector<DimTiling>> sizes;
  for (const DimTiling &t : dims) {
    SmallVector<DimTiling> &same = sizes[t.extent];
    if (!same.empty() &&
        (same.front().kind != t.kind || same.front().grid != t.grid)) {
      why = same.front().kind == DimTiling::Grid || t.kind == DimTiling::Grid
                ? "a dynamic dim of an input is not partitioned by the grid "
                  "dim of the others"
                : "the for-loop walks the size in one tensor and not in "
                  "another";
      return failure();
    }
    same.push_back(t);
  }
  // A one-trip kernel walks the size it holds whole and does not write: a
  // reduction over it.
  if (kernel.getForloop() == 1) {
    SmallVector<int64_t> reduced;
    for (auto &[extent, same] : sizes) {
      bool written = llvm::any_of(savers, [&, e = extent](mb::OutputSaverOp s) {
        return llvm::is_contained(s.getOutput().getType().getShape(), e);
      });
      bool epilogue = llvm::any_of(
          same, [](const DimTiling &t) { return t.it.isEpilogue(); });
      if (same.front().kind == DimTiling::Whole && !written && !epilogue)
        reduced.push_back(extent);
    }
    if (reduced.size() > 1) {
      why = "a one-trip kernel holds two sizes whole that its outputs do not "
            "have";
      return failure();
    }
    if (reduced.size() == 1) {
      SmallVector<DimTiling> &whole = sizes[reduced.front()];
      if (failed(walkWholeSize(kernel, whole, bounds, why)))
        return failure();
      for (DimTiling &t : whole)
        t.kind = DimTiling::Walked;
    }
  }
  if (llvm::count_if(sizes, [](const auto &entry) {
        return entry.second.front().kind == DimTiling::Walked;
      }) > 1) {
    why = "the for-loop walks two dynamic sizes";
    return failure();
  }
  // [K21] A loop that walks a size becomes a `?` loop of the same tile:
  // every walking iterator walks it, no grid dim splits it, and the
  // reductions across it read its tail masked ([B28]).
  if (llvm::any_of(sizes, [](const auto &entry) {
        return entry.second.front().kind == DimTiling::Walked;
      })) {
    for (mb::InputIterOp it : iters) {
      int64_t fmap = static_cast<int64_t>(it.getFmap());
      if (fmap < 0)
        continue;
      if (!ShapedType::isDynamic(it.getLogicalShape()[fmap])) {
        why = "the for-loop walks the size in one tensor and a static dim "
              "in another";
        return failure();
      }
      if (llvm::is_contained(it.getImap(), fmap)) {
        why = "the grid and the for-loop both split the size";
        return failure();
      }
    }
    kernel.setForloop(ShapedType::kDynamic);
    if (failed(mb::maskLoopTail(kernel, why)))
      return failure();
    // A walked tile that no longer fits (a view became a transposed copy of
    // the tile, masks were added) halves: the trips accumulate the same at
    // any tile.
    int64_t tile = mb::loopWalk(kernel.getForLoop())->tile;
    while (kernel.computeSharedMemoryBytes() > kernel.getSharedMemoryLimit() &&
           tile % 2 == 0 && tile > kMinWalkedTile) {
      tile /= 2;
      setWalkedTile(kernel, tile);
    }
  }
  // Each other size: a `?` grid dim, the one that partitions it or, where
  // the tiles held it whole, a grid dim of one block that nothing maps.
  SmallVector<int64_t> grid(kernel.getGrid());
  for (auto &[extent, same] : sizes) {
    DimTiling::Kind kind = same.front().kind;
    if (kind == DimTiling::Walked)
      continue;
    int64_t g = same.front().grid;
    bool freeGrid = kind == DimTiling::Whole;
    if (freeGrid) {
      for (int64_t c = 0; c < 3 && g < 0; ++c) {
        bool used = grid[c] != 1 ||
                    llvm::any_of(iters,
                                 [&](mb::InputIterOp it) {
                                   return it.getImap()[c] >= 0;
                                 }) ||
                    llvm::any_of(savers, [&](mb::OutputSaverOp s) {
                      return s.getOmap()[c] >= 0;
                    });
        if (!used)
          g = c;
      }
      if (g < 0) {
        why = "a tile covers a dynamic dim and no grid dim is free to "
              "partition it";
        return failure();
      }
      for (DimTiling &t : same) {
        SmallVector<int64_t> imap(t.it.getImap());
        imap[g] = t.dim;
        t.it.setImap(imap);
      }
    }
    grid[g] = ShapedType::kDynamic;
    for (mb::OutputSaverOp saver : savers) {
      auto out = cast<RankedTensorType>(saver.getOutput().getType());
      int64_t l = saver.getOmap()[g];
      if (l < 0) {
        if (!freeGrid)
          continue;
        // A saver of a kernel whose tiles covered the size: the one dim
        // with the size's extent (through a view, the logical dim it
        // passes through).
        SmallVector<int64_t> logical = saver.getLogicalShape();
        SmallVector<int64_t> at;
        for (int64_t k = 0; k < static_cast<int64_t>(logical.size()); ++k)
          if (logical[k] == extent)
            at.push_back(k);
        if (at.size() != 1) {
          why = "cannot tell which dim of an output is the dynamic one";
          return failure();
        }
        l = at.front();
        SmallVector<int64_t> omap(saver.getOmap());
        omap[g] = l;
        saver.setOmap(omap);
      }
      int64_t d = mb::deviceDimOf(saver, l);
      if (std::optional<AffineMap> view = saver.getView(); view && d < 0)
        for (int64_t k = 0; k < out.getRank() && d < 0; ++k)
          if (out.getDimSize(k) == 1) {
            saver.setViewAttr(AffineMapAttr::get(
                reattachUnitDim(*view, k, l, saver.getLogicalShape())));
            d = mb::deviceDimOf(saver, l);
          }
      if (d < 0) {
        why = "an output's view mixes the dynamic dim with static ones";
        return failure();
      }
      saver.getOutput().setType(withDynamicDim(out, d));
    }
  }
  // A saver's view whose strides would depend on the size ([K19]) gives
  // way, where it is a permutation, to a transpose of the tile.
  for (mb::OutputSaverOp saver : savers)
    if (std::optional<AffineMap> view = saver.getView();
        view &&
        failed(mb::checkDynamicView(*view, saver.getLogicalShape(),
                                    saver.getOutput().getType().getShape(),
                                    why)) &&
        failed(unfoldPermutationView(saver, why)))
      return failure();
  kernel.setGrid(grid);
  auto ret = cast<mb::ReturnOp>(body.getTerminator());
  for (auto [r, v] : llvm::zip_equal(kernel.getResults(), ret.getOutputs()))
    r.setType(v.getType());
  return success();
}

bool hasDynamicOperand(Operation &op) {
  return llvm::any_of(op.getOperandTypes(), [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && !tensor.hasStaticShape();
  });
}

} // namespace

LogicalResult mirage::generalizeSizes(func::FuncOp function,
                                      func::FuncOp dynamic, std::string &why,
                                      ArrayRef<SizeBound> bounds) {
  FunctionType want = dynamic.getFunctionType();
  if (function.getFunctionType().getNumInputs() != want.getNumInputs() ||
      function.getFunctionType().getNumResults() != want.getNumResults() ||
      function.getBody().empty()) {
    why = "the signatures differ";
    return failure();
  }
  Block &body = function.getBody().front();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto have = dyn_cast<RankedTensorType>(arg.getType());
    auto type = dyn_cast<RankedTensorType>(want.getInput(i));
    if (!have || !type || have.getRank() != type.getRank() ||
        have.getElementType() != type.getElementType()) {
      why = "argument #" + std::to_string(i) + " has another type";
      return failure();
    }
    arg.setType(type);
    function.setArgAttrs(i, dynamic.getArgAttrDict(i));
  }
  for (Operation &op : body.without_terminator()) {
    if (!hasDynamicOperand(op))
      continue;
    if (auto kernel = dyn_cast<mk::GraphKernelOp>(op)) {
      if (failed(generalizeKernel(kernel, bounds, why)))
        return failure();
      continue;
    }
    if (auto reshape = dyn_cast<mk::ReshapeOp>(op)) {
      if (failed(generalizeReshape(reshape, why)))
        return failure();
      continue;
    }
    auto infer = dyn_cast<InferTypeOpInterface>(op);
    if (!infer || !isa<mk::MKDialect>(op.getDialect())) {
      why = "'" + op.getName().getStringRef().str() +
            "' takes a dynamic dim and is not an mk op";
      return failure();
    }
    SmallVector<Type> types;
    if (failed(infer.inferReturnTypes(
            op.getContext(), op.getLoc(), op.getOperands(),
            op.getRawDictionaryAttrs(), op.getPropertiesStorage(),
            op.getRegions(), types))) {
      why = "'" + op.getName().getStringRef().str() +
            "' has no result type at a dynamic size";
      return failure();
    }
    for (auto [r, t] : llvm::zip_equal(op.getResults(), types))
      r.setType(t);
  }
  Operation *ret = body.getTerminator();
  if (TypeRange(ret->getOperandTypes()) != want.getResults()) {
    why = "the results do not come out with the dynamic function's types";
    return failure();
  }
  function.setType(want);
  for (unsigned i = 0; i < function.getNumResults(); ++i)
    function.setResultAttrs(i, dynamic.getResultAttrDict(i));
  // The rewritten program must verify ([K19], [B26], the shape rules).
  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(function.getContext(), [&](Diagnostic &d) {
      if (diagnostics.empty())
        diagnostics = d.str();
      return success();
    });
    if (succeeded(verify(function)))
      return success();
  }
  why = "the program does not verify with dynamic dims: " + diagnostics;
  return failure();
}
