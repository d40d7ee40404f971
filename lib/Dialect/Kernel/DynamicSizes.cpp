//===- DynamicSizes.cpp - Sizes of a function's dynamic dims ---*- C++ -*-===//

#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"
#include <numeric>

using namespace mlir;
using namespace mirage;
using namespace mirage::mk;

bool DynamicSize::admits(int64_t value) const {
  return value >= min && (!max || value <= *max) && value % divisor == 0;
}

std::string DynamicSize::describe() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << name << " (" << min << " <= " << name;
  if (max)
    os << " <= " << *max;
  if (divisor > 1)
    os << ", a multiple of " << divisor;
  os << ")";
  return s;
}

namespace {
using DimKey = std::pair<Value, unsigned>;

/// Union-find over the dynamic dims of one function.
class DimClasses {
public:
  /// Registers the dynamic dims of `value`.
  void add(Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return;
    for (unsigned d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d)) {
        ids.try_emplace({value, d}, parent.size());
        parent.push_back(parent.size());
      }
  }
  std::optional<unsigned> id(Value value, unsigned dim) const {
    auto it = ids.find({value, dim});
    if (it == ids.end())
      return std::nullopt;
    return it->second;
  }
  unsigned find(unsigned i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  }
  /// Relates dim `da` of `a` and `db` of `b` when both are dynamic.
  void unify(Value a, unsigned da, Value b, unsigned db) {
    std::optional<unsigned> x = id(a, da), y = id(b, db);
    if (!x || !y)
      return;
    unsigned rx = find(*x), ry = find(*y);
    // The smaller id is the root: sizes are numbered by first appearance.
    if (rx != ry)
      parent[std::max(rx, ry)] = std::min(rx, ry);
  }
  const llvm::DenseMap<DimKey, unsigned> &all() const { return ids; }

private:
  llvm::DenseMap<DimKey, unsigned> ids;
  std::vector<unsigned> parent;
};

int64_t rankOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? t.getRank() : -1;
}

bool hasDynamicDim(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && !t.hasStaticShape();
}

/// Relates the dynamic dims of `op`'s results to its operands'. Fails when an
/// op with a dynamic result dim is not one whose shape rule is known here.
LogicalResult relateOp(Operation *op, DimClasses &classes) {
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    // [C0.20] a dynamic contraction runs over one size.
    int64_t rank = rankOf(matmul.getResult());
    classes.unify(matmul.getLhs(), rank - 1, matmul.getRhs(), rank - 2);
  }
  if (auto kernel = dyn_cast<GraphKernelOp>(op)) {
    // [K21] the dims a `?` loop walks are one size.
    std::optional<std::pair<Value, int64_t>> first;
    kernel.getBody().walk([&](mb::InputIterOp it) {
      auto arg = dyn_cast<BlockArgument>(it.getInput());
      int64_t fmap = static_cast<int64_t>(it.getFmap());
      if (!arg || fmap < 0)
        return;
      Value operand = kernel.getInputs()[arg.getArgNumber()];
      int64_t walked = mb::deviceDimOf(it, fmap);
      if (walked < 0)
        return;
      if (!first)
        first = {operand, walked};
      else
        classes.unify(first->first, first->second, operand, walked);
    });
  }
  if (op->getNumResults() == 0 ||
      !llvm::any_of(op->getResultTypes(), hasDynamicDim))
    return success();
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    int64_t rank = rankOf(matmul.getResult());
    for (int64_t d = 0; d < rank; ++d) {
      if (d != rank - 1)
        classes.unify(matmul.getLhs(), d, matmul.getResult(), d);
      if (d != rank - 2)
        classes.unify(matmul.getRhs(), d, matmul.getResult(), d);
    }
    return success();
  }
  if (auto kernel = dyn_cast<GraphKernelOp>(op)) {
    // [K19] the dims a `?` grid dim partitions, in the operands (through
    // the input iterators) and the results (through the output savers),
    // are one size.
    Block &body = kernel.getBody().front();
    auto ret = dyn_cast<mb::ReturnOp>(body.getTerminator());
    if (!ret)
      return success();
    ArrayRef<int64_t> grid = kernel.getGrid();
    for (size_t g = 0; g < grid.size(); ++g) {
      if (!ShapedType::isDynamic(grid[g]))
        continue;
      std::optional<std::pair<Value, int64_t>> first;
      auto relate = [&](Value v, int64_t d) {
        if (d < 0)
          return;
        if (!first)
          first = {v, d};
        else
          classes.unify(first->first, first->second, v, d);
      };
      // Through a view, the logical dim the grid partitions is the device
      // dim it passes through to.
      kernel.getBody().walk([&](mb::InputIterOp it) {
        if (auto arg = dyn_cast<BlockArgument>(it.getInput()))
          relate(kernel.getInputs()[arg.getArgNumber()],
                 mb::deviceDimOf(it, it.getImap()[g]));
      });
      for (auto [i, v] : llvm::enumerate(ret.getOutputs()))
        if (auto saver = v.getDefiningOp<mb::OutputSaverOp>())
          relate(kernel.getResult(i),
                 mb::deviceDimOf(saver, saver.getOmap()[g]));
    }
    return success();
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    for (auto [k, p] : llvm::enumerate(transpose.getPerm()))
      classes.unify(transpose.getInput(), p, transpose.getResult(), k);
    return success();
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    // [K16] one dynamic dim on each side, the same size.
    auto in = cast<RankedTensorType>(reshape.getInput().getType());
    auto out = cast<RankedTensorType>(reshape.getType());
    auto dynamicDim = [](RankedTensorType t) {
      for (unsigned d = 0; d < t.getRank(); ++d)
        if (t.isDynamicDim(d))
          return d;
      return 0u;
    };
    classes.unify(reshape.getInput(), dynamicDim(in), reshape.getResult(),
                  dynamicDim(out));
    return success();
  }
  // The other kernel-level ops relate dims by position: element-wise ops
  // (broadcast dims are static 1s), conversions, masks, rms_norm, and the
  // reductions and concat, whose reduced or concatenated dim is static.
  if (isa<MKDialect>(op->getDialect())) {
    for (Value result : op->getResults())
      for (Value operand : op->getOperands())
        if (rankOf(operand) == rankOf(result))
          for (int64_t d = 0; d < rankOf(result); ++d)
            classes.unify(operand, d, result, d);
    return success();
  }
  return op->emitOpError("has a dynamic result dim that the kernel level "
                         "cannot relate to its operands' dims");
}
} // namespace

FailureOr<DynamicSizes> DynamicSizes::analyze(FunctionOpInterface function) {
  DynamicSizes result;
  if (function.isExternal())
    return result;
  Block &body = function.getFunctionBody().front();
  DimClasses classes;
  for (BlockArgument arg : body.getArguments())
    classes.add(arg);
  for (Operation &op : body)
    for (Value v : op.getResults())
      classes.add(v);
  for (Operation &op : body)
    if (failed(relateOp(&op, classes)))
      return failure();

  // One size per class that holds an argument dim, in order of appearance.
  llvm::DenseMap<unsigned, unsigned> sizeOfRoot;
  SmallVector<std::optional<std::pair<unsigned, unsigned>>> namedAt;
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      continue;
    auto facts = function.getArgAttrOfType<ArrayAttr>(
        arg.getArgNumber(), MKDialect::kSizesAttrName);
    unsigned k = 0;
    for (unsigned d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      unsigned root = classes.find(*classes.id(arg, d));
      auto [it, inserted] = sizeOfRoot.try_emplace(root, result.sizes.size());
      if (inserted) {
        DynamicSize size;
        size.argument = arg.getArgNumber();
        size.dim = d;
        result.sizes.push_back(size);
        namedAt.push_back(std::nullopt);
      }
      DynamicSize &size = result.sizes[it->second];
      auto fact =
          facts && k < facts.size() ? dyn_cast<SizeAttr>(facts[k]) : SizeAttr();
      ++k;
      if (!fact)
        continue;
      if (!fact.getName().empty()) {
        if (!size.name.empty() && size.name != fact.getName())
          return function.emitError("dim ")
                 << d << " of argument #" << arg.getArgNumber() << " is named '"
                 << fact.getName() << "' but the ops make it "
                 << "the size of dim " << namedAt[it->second]->second
                 << " of argument #" << namedAt[it->second]->first
                 << ", named '" << size.name << "'";
        size.name = fact.getName().str();
        namedAt[it->second] = {arg.getArgNumber(), d};
      }
      size.min = std::max(size.min, fact.getMin());
      if (fact.getMax())
        size.max =
            size.max ? std::min(*size.max, *fact.getMax()) : *fact.getMax();
      size.divisor = std::lcm(size.divisor, fact.getDivisor());
    }
  }
  for (auto [key, id] : classes.all()) {
    auto it = sizeOfRoot.find(classes.find(id));
    if (it == sizeOfRoot.end())
      return mlir::emitError(key.first.getLoc())
             << "dynamic dim " << key.second
             << " is not the size of any argument dim, so it has no value "
                "at run time";
    result.sizeOfDim[key] = it->second;
  }

  // Unnamed sizes are s0, s1, ... by order of appearance, skipping names in
  // use; every size must admit a value.
  llvm::StringSet<> taken;
  for (const DynamicSize &size : result.sizes)
    if (!size.name.empty())
      taken.insert(size.name);
  unsigned next = 0;
  for (DynamicSize &size : result.sizes) {
    if (size.name.empty()) {
      while (taken.contains("s" + std::to_string(next)))
        ++next;
      size.name = "s" + std::to_string(next++);
    }
    int64_t first = (size.min + size.divisor - 1) / size.divisor * size.divisor;
    if (size.max && first > *size.max)
      return function.emitError("size ")
             << size.describe() << " admits no value";
  }
  return result;
}

std::optional<unsigned> DynamicSizes::findSize(Value value,
                                               unsigned dim) const {
  auto it = sizeOfDim.find({value, dim});
  if (it == sizeOfDim.end())
    return std::nullopt;
  return it->second;
}

std::optional<unsigned> DynamicSizes::lookup(StringRef name) const {
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size.name == name)
      return i;
  return std::nullopt;
}

LogicalResult DynamicSizes::specialize(FunctionOpInterface function,
                                       ArrayRef<int64_t> values) const {
  if (values.size() != sizes.size())
    return function.emitError("expected ")
           << sizes.size() << " size values, got " << values.size();
  for (auto [size, value] : llvm::zip_equal(sizes, values))
    if (!size.admits(value))
      return function.emitError("size ")
             << size.name << " = " << value << " breaks its facts "
             << size.describe();
  if (function.isExternal())
    return success();
  auto staticType = [&](Value v) -> Type {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.hasStaticShape())
      return v.getType();
    SmallVector<int64_t> shape(type.getShape());
    for (unsigned d = 0; d < shape.size(); ++d)
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = values[*findSize(v, d)];
    return type.clone(shape);
  };
  Block &body = function.getFunctionBody().front();
  for (BlockArgument arg : body.getArguments())
    arg.setType(staticType(arg));
  for (Operation &op : body)
    for (Value v : op.getResults())
      v.setType(staticType(v));
  // A dynamic graph-defined kernel: its device tensors take the static
  // types, its `?` grid dims ceil(size / tile) blocks (a tail tiling, [B26],
  // where the tile does not divide the size).
  for (auto kernel : body.getOps<GraphKernelOp>()) {
    Block &kernelBody = kernel.getBody().front();
    for (auto [arg, operand] :
         llvm::zip_equal(kernelBody.getArguments(), kernel.getInputs()))
      arg.setType(operand.getType());
    SmallVector<int64_t> grid(kernel.getGrid());
    for (auto [i, v] :
         llvm::enumerate(kernelBody.getTerminator()->getOperands())) {
      auto saver = v.getDefiningOp<mb::OutputSaverOp>();
      if (!saver)
        continue;
      auto type = cast<RankedTensorType>(kernel.getResult(i).getType());
      saver.getOutput().setType(type);
      for (auto [g, l] : llvm::enumerate(saver.getOmap()))
        if (int64_t d = mb::deviceDimOf(saver, l);
            d >= 0 && ShapedType::isDynamic(grid[g])) {
          int64_t tile = saver.getInput().getType().getDimSize(l);
          grid[g] = (type.getDimSize(d) + tile - 1) / tile;
        }
    }
    kernel.setGrid(grid);
    // A `?` loop makes ceil(size / tile) trips ([K21]; a walked tail, [B26],
    // where the tile does not divide the size).
    if (ShapedType::isDynamic(kernel.getForloop()))
      if (mb::ForLoopOp loop = kernel.getForLoop())
        if (std::optional<mb::LoopWalk> walk = mb::loopWalk(loop))
          kernel.setForloop(walk->trips());
  }
  SmallVector<Type> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(v.getType());
  function.setType(FunctionType::get(function->getContext(),
                                     body.getArgumentTypes(), results));
  for (unsigned i = 0; i < function.getNumArguments(); ++i)
    function.removeArgAttr(i, MKDialect::kSizesAttrName);
  return success();
}

bool mirage::mk::hasDynamicDims(FunctionOpInterface function) {
  if (llvm::any_of(function.getArgumentTypes(), hasDynamicDim) ||
      llvm::any_of(function.getResultTypes(), hasDynamicDim))
    return true;
  WalkResult walk = function->walk([](Operation *op) {
    return llvm::any_of(op->getResultTypes(), hasDynamicDim)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

LogicalResult mirage::mk::rejectDynamicDims(Operation *root,
                                            StringRef consumer) {
  // Only mk ops matter: what else a function holds (ops an import left
  // outside) is lowered upstream, dynamic or not.
  FunctionOpInterface found;
  root->walk([&](Operation *op) {
    if (found || !isa_and_nonnull<MKDialect>(op->getDialect()))
      return;
    if (llvm::any_of(op->getOperandTypes(), hasDynamicDim) ||
        llvm::any_of(op->getResultTypes(), hasDynamicDim))
      found = op->getParentOfType<FunctionOpInterface>();
  });
  if (!found)
    return success();
  return found.emitError() << consumer << " needs static shapes, but @"
                           << found.getName()
                           << " has dynamic dims: give their sizes with "
                              "--mirage-specialize-sizes (docs/dynamic.md)";
}

FailureOr<std::optional<SizeDispatch>> SizeDispatch::read(Operation *op,
                                                          std::string *why) {
  Attribute attr = op->getAttr(MKDialect::kSizeDispatchAttrName);
  if (!attr)
    return std::optional<SizeDispatch>();
  auto bad = [&](const Twine &reason) {
    if (why)
      *why = reason.str();
    return failure();
  };
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!dict || !function)
    return bad("must be a dictionary on a function");
  auto size = dict.getAs<StringAttr>("size");
  auto bounds = dict.getAs<DenseI64ArrayAttr>("bounds");
  auto programs = dict.getAs<ArrayAttr>("programs");
  if (!size || !bounds || !programs || dict.size() != 3)
    return bad("must hold exactly size (a string), bounds (array<i64>) and "
               "programs (an array of function symbols)");
  SizeDispatch d;
  d.size = size.getValue().str();
  d.bounds.assign(bounds.asArrayRef().begin(), bounds.asArrayRef().end());
  for (auto [i, b] : llvm::enumerate(d.bounds))
    if (b < 1 || (i > 0 && b <= d.bounds[i - 1]))
      return bad("bounds must be positive and ascending");
  if (programs.size() != d.bounds.size() + 1)
    return bad("must have one program more than bounds");
  Operation *table = SymbolTable::getNearestSymbolTable(op->getParentOp());
  for (Attribute p : programs) {
    auto ref = dyn_cast<FlatSymbolRefAttr>(p);
    if (!ref)
      return bad("programs must be function symbols");
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        table ? SymbolTable::lookupSymbolIn(table, ref.getAttr()) : nullptr);
    if (!callee || callee.getFunctionType() != function.getFunctionType())
      return bad("program " + ref.getValue() +
                 " is not a function of the same type");
    d.programs.push_back(ref);
  }
  return std::optional<SizeDispatch>(std::move(d));
}

FlatSymbolRefAttr SizeDispatch::programFor(int64_t value) const {
  for (auto [i, b] : llvm::enumerate(bounds))
    if (value <= b)
      return programs[i];
  return programs.back();
}

DictionaryAttr SizeDispatch::toAttr(MLIRContext *context) const {
  Builder b(context);
  SmallVector<Attribute> refs(programs.begin(), programs.end());
  return b.getDictionaryAttr(
      {b.getNamedAttr("size", b.getStringAttr(size)),
       b.getNamedAttr("bounds", b.getDenseI64ArrayAttr(bounds)),
       b.getNamedAttr("programs", b.getArrayAttr(refs))});
}
