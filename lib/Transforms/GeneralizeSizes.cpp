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

/// An input iterator of `it`'s device tensor without its view, where the
/// view is a permutation: the tile read in the device tensor's dim order,
/// then an mb.transpose. Dynamic kernels read without views ([K19]).
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

/// A kernel of one trip whose tiles hold the whole size, which its outputs
/// do not have (a reduction over it, attention's key length at a small
/// representative): its loop walks the size in tiles of `largest` (one trip
/// up to the largest size the program is meant for) or of the extent the
/// search chose. Whether a size of several trips is right is the class
/// checks' to say (Passes.cpp). Left alone otherwise.
LogicalResult walkWholeSize(mk::GraphKernelOp kernel,
                            ArrayRef<mb::InputIterOp> iters,
                            ArrayRef<mb::OutputSaverOp> savers,
                            int64_t largest, std::string &why) {
  if (kernel.getForloop() != 1)
    return success();
  std::optional<int64_t> extent;
  for (mb::InputIterOp it : iters) {
    auto type = cast<RankedTensorType>(it.getInput().getType());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      int64_t e = it.getType().getDimSize(d);
      if (llvm::is_contained(it.getImap(), d) || it.isEpilogue() ||
          (extent && *extent != e))
        return success();
      extent = e;
    }
  }
  if (!extent)
    return success();
  // A band mask's place along the walked dim would not follow the trips.
  bool masked = false;
  kernel.walk([&](mb::BandMaskOp) { masked = true; });
  if (masked) {
    why = "a one-trip kernel with a band mask holds the whole size";
    return failure();
  }
  for (mb::OutputSaverOp saver : savers)
    if (llvm::is_contained(saver.getOutput().getType().getShape(), *extent))
      return success();
  for (mb::InputIterOp it : iters) {
    auto type = cast<RankedTensorType>(it.getInput().getType());
    int64_t walked = -1;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d)) {
        if (walked >= 0) {
          why = "a tile holds the size in two dims";
          return failure();
        }
        walked = d;
      }
    // With one trip a walk of a static dim reads it whole: as fmap -1.
    it.setFmap(walked);
  }
  // A tile of at most four times the extent searched.
  if (largest > *extent && largest <= 4 * *extent)
    setWalkedTile(kernel, largest);
  return success();
}

/// The kernel's tiling of the dynamic dims of its operands: a loop that
/// walks them becomes a `?` loop with its tail masked ([K21], [B28]); the
/// grid dim that partitions the others becomes `?`, the savers' dims it
/// partitions dynamic. Where the search's tile covered the whole dim (a
/// grid dim of one block), a grid dim no tensor uses is given to it.
LogicalResult generalizeKernel(mk::GraphKernelOp kernel, int64_t largest,
                               std::string &why) {
  Block &body = kernel.getBody().front();
  for (auto [arg, in] :
       llvm::zip_equal(body.getArguments(), kernel.getInputs()))
    arg.setType(in.getType());
  // Dynamic kernels read and write without views ([K19]): permutations
  // become transposes of the tiles.
  // A kernel that takes a dynamic dim reads every input without a view
  // (its loop may become `?`, whose kernel has none, [K19]).
  SmallVector<Operation *> viewed;
  kernel.getBody().walk([&](Operation *op) {
    if (auto it = dyn_cast<mb::InputIterOp>(op); it && it.getView())
      viewed.push_back(op);
    // A saver's view matters where the grid partitions the size (then its
    // result is dynamic); the verifier says so if a view is left there.
    if (auto saver = dyn_cast<mb::OutputSaverOp>(op);
        saver && saver.getView() && saver.getView()->isPermutation())
      viewed.push_back(op);
  });
  for (Operation *op : viewed)
    if (failed(isa<mb::InputIterOp>(op)
                   ? unfoldPermutationView(cast<mb::InputIterOp>(op), why)
                   : unfoldPermutationView(cast<mb::OutputSaverOp>(op), why)))
      return failure();
  SmallVector<mb::InputIterOp> iters;
  SmallVector<mb::OutputSaverOp> savers;
  kernel.getBody().walk([&](Operation *op) {
    if (auto it = dyn_cast<mb::InputIterOp>(op))
      iters.push_back(it);
    else if (auto saver = dyn_cast<mb::OutputSaverOp>(op))
      savers.push_back(saver);
  });
  if (failed(walkWholeSize(kernel, iters, savers, largest, why)))
    return failure();
  // [K21] A loop that walks the size becomes a `?` loop of the same tile:
  // every walking iterator walks it, no grid dim splits it, and the
  // reductions across it read its tail masked ([B28]).
  auto walksSize = [](mb::InputIterOp it) {
    int64_t fmap = static_cast<int64_t>(it.getFmap());
    return fmap >= 0 && cast<RankedTensorType>(it.getInput().getType())
                            .isDynamicDim(fmap);
  };
  if (llvm::any_of(iters, walksSize)) {
    for (mb::InputIterOp it : iters) {
      if (static_cast<int64_t>(it.getFmap()) < 0)
        continue;
      if (!walksSize(it)) {
        why = "the for-loop walks the size in one tensor and a static dim "
              "in another";
        return failure();
      }
      if (llvm::is_contained(it.getImap(), it.getFmap())) {
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
  // The grid dim of the size (one size per kernel).
  std::optional<int64_t> sizeGrid;
  int64_t tileExtent = 0;
  bool gridDims = false;
  for (mb::InputIterOp it : iters) {
    auto type = cast<RankedTensorType>(it.getInput().getType());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (it.getView()) {
        why = "a view reads a dynamic dim";
        return failure();
      }
      if (static_cast<int64_t>(it.getFmap()) == d)
        continue; // walked by the `?` loop
      gridDims = true;
      const int64_t *g = llvm::find(it.getImap(), d);
      if (g == it.getImap().end())
        continue;
      int64_t at = g - it.getImap().begin();
      if (sizeGrid && *sizeGrid != at) {
        why = "two grid dims partition dynamic dims";
        return failure();
      }
      sizeGrid = at;
    }
  }
  if (!gridDims) {
    // Only the loop walks the size: the results keep their types.
    auto ret = cast<mb::ReturnOp>(body.getTerminator());
    for (auto [r, v] : llvm::zip_equal(kernel.getResults(), ret.getOutputs()))
      r.setType(v.getType());
    return success();
  }
  SmallVector<int64_t> grid(kernel.getGrid());
  bool freeGrid = false;
  if (!sizeGrid) {
    // The tiles cover the dynamic dims: partition them by a grid dim of one
    // block that nothing maps.
    for (int64_t g = 0; g < 3 && !sizeGrid; ++g) {
      bool used = grid[g] != 1 ||
                  llvm::any_of(iters,
                               [&](mb::InputIterOp it) {
                                 return it.getImap()[g] >= 0;
                               }) ||
                  llvm::any_of(savers, [&](mb::OutputSaverOp s) {
                    return s.getOmap()[g] >= 0;
                  });
      if (!used)
        sizeGrid = g;
    }
    if (!sizeGrid) {
      why = "a tile covers a dynamic dim and no grid dim is free to "
            "partition it";
      return failure();
    }
    freeGrid = true;
  }
  int64_t g = *sizeGrid;
  for (mb::InputIterOp it : iters) {
    auto type = cast<RankedTensorType>(it.getInput().getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d) && it.getImap()[g] != d &&
          static_cast<int64_t>(it.getFmap()) != d) {
        if (!freeGrid) {
          why = "a dynamic dim of an input is not partitioned by the grid "
                "dim of the others";
          return failure();
        }
        SmallVector<int64_t> imap(it.getImap());
        imap[g] = d;
        it.setImap(imap);
        tileExtent = it.getType().getDimSize(d);
      }
  }
  grid[g] = ShapedType::kDynamic;
  kernel.setGrid(grid);
  for (mb::OutputSaverOp saver : savers) {
    auto out = cast<RankedTensorType>(saver.getOutput().getType());
    int64_t d = saver.getOmap()[g];
    if (d < 0) {
      // A saver of a kernel whose tiles covered the size: the one dim with
      // the tile's extent.
      SmallVector<int64_t> dims;
      for (int64_t k = 0; k < out.getRank(); ++k)
        if (out.getDimSize(k) == tileExtent)
          dims.push_back(k);
      if (!freeGrid || dims.size() != 1) {
        why = "cannot tell which dim of an output is the dynamic one";
        return failure();
      }
      d = dims.front();
      SmallVector<int64_t> omap(saver.getOmap());
      omap[g] = d;
      saver.setOmap(omap);
    }
    saver.getOutput().setType(withDynamicDim(out, d));
  }
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
                                      int64_t largest) {
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
      if (failed(generalizeKernel(kernel, largest, why)))
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
