//===- KernelDialect.cpp - Mirage kernel-graph dialect ----------*- C++ -*-===//
//
// Ops of the kernel level, and the whole-graph checks of a graph-defined
// kernel's block graph (value flow, shared memory).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h" // the generated attribute code

using namespace mlir;
using namespace mirage;
using namespace mirage::mk;

#include "Mirage/Dialect/Kernel/IR/KernelOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Mirage/Dialect/Kernel/IR/KernelAttrs.cpp.inc"

void MKDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Mirage/Dialect/Kernel/IR/KernelOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Mirage/Dialect/Kernel/IR/KernelAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Dynamic sizes
//===----------------------------------------------------------------------===//

LogicalResult SizeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringRef name, int64_t min,
                               std::optional<int64_t> max, int64_t divisor) {
  if (min < 1)
    return emitError() << "[K17] #mk.size min must be >= 1, got " << min;
  if (max && *max < min)
    return emitError() << "[K17] #mk.size max = " << *max
                       << " is below min = " << min;
  if (divisor < 1)
    return emitError() << "[K17] #mk.size divisor must be >= 1, got "
                       << divisor;
  auto isIdentifier = [](StringRef s) {
    return !s.empty() && (llvm::isAlpha(s.front()) || s.front() == '_') &&
           llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  };
  if (!name.empty() && !isIdentifier(name))
    return emitError() << "[K17] #mk.size name '" << name
                       << "' is not an identifier";
  return success();
}

LogicalResult MKDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  if (attr.getName() != kSizesAttrName)
    return op->emitError("[K13] unknown mk dialect argument attribute '")
           << attr.getName().getValue() << "'";
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || regionIndex != 0 ||
      argIndex >= function.getArgumentTypes().size())
    return op->emitError("[K18] '")
           << kSizesAttrName << "' belongs on a function argument";
  auto type = dyn_cast<RankedTensorType>(function.getArgumentTypes()[argIndex]);
  auto sizes = dyn_cast<ArrayAttr>(attr.getValue());
  if (!sizes || !llvm::all_of(sizes, llvm::IsaPred<SizeAttr>))
    return op->emitError("[K18] '")
           << kSizesAttrName << "' of argument #" << argIndex
           << " must be an array of #mk.size, got " << attr.getValue();
  int64_t dynamicDims = type ? type.getNumDynamicDims() : 0;
  if (static_cast<int64_t>(sizes.size()) != dynamicDims)
    return op->emitError("[K18] '")
           << kSizesAttrName << "' of argument #" << argIndex << " has "
           << sizes.size() << " entries but the argument has " << dynamicDims
           << " dynamic dims";
  return success();
}

LogicalResult MKDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == kSmemLimitAttrName) {
    // [K11] A positive byte count that fits in int64_t; a bool (i1) is not a
    // number of bytes, and reading a wider value with getInt() would
    // silently truncate it.
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getType().isInteger(1) ||
        value.getValue().getSignificantBits() > 64 || value.getInt() <= 0)
      return op->emitError("[K11] '")
             << kSmemLimitAttrName
             << "' must be a positive integer number of bytes, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kReferenceAttrName) {
    // Names the reference program a candidate must be equivalent to.
    if (!isa<FlatSymbolRefAttr>(attr.getValue()))
      return op->emitError("[K12] '")
             << kReferenceAttrName
             << "' must be a flat symbol reference to a function, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kSizeDispatchAttrName) {
    std::string why;
    if (failed(SizeDispatch::read(op, &why)))
      return op->emitError("[K20] '") << kSizeDispatchAttrName << "' " << why;
    return success();
  }
  return op->emitError("[K13] unknown mk dialect attribute '")
         << attr.getName().getValue() << "'";
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPerm();
  // transpose(transpose(x, p), q) -> transpose(x, p o q)
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t q : perm)
      composed.push_back(inner.getPerm()[q]);
    setPerm(composed);
    getInputMutable().assign(inner.getInput());
    perm = getPerm();
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return getResult();
  }
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// GraphKernelOp
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> GraphKernelOp::getGridDims() { return getGrid(); }
ArrayRef<int64_t> GraphKernelOp::getBlockDims() { return getBlock(); }
int64_t GraphKernelOp::getForloopRange() { return getForloop(); }

mb::ForLoopOp GraphKernelOp::getForLoop() {
  for (Operation &op : getBody().front())
    if (auto loop = dyn_cast<mb::ForLoopOp>(op))
      return loop;
  return {};
}

int64_t MKDialect::getSharedMemoryLimit(Operation *at) {
  for (Operation *p = at; p; p = p->getParentOp())
    if (auto limit = p->getAttrOfType<IntegerAttr>(kSmemLimitAttrName))
      return limit.getInt();
  return kDefaultSmemLimit;
}

int64_t GraphKernelOp::getSharedMemoryLimit() {
  return MKDialect::getSharedMemoryLimit(getOperation()->getParentOp());
}

int64_t GraphKernelOp::computeSharedMemoryBytes() {
  int64_t bytes = 0;
  // Every tile the block graph defines lives in shared memory. Loop results
  // alias their accumulators, output savers write device memory, and values
  // inside thread graphs live in registers.
  getBody().walk([&](Operation *op) {
    if (isa<mb::ForLoopOp, mb::OutputSaverOp>(op) ||
        op->getParentOfType<mt::ThreadGraphOp>())
      return;
    for (Type t : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        bytes +=
            tensor.getNumElements() * elementByteWidth(tensor.getElementType());
  });
  return bytes;
}

LogicalResult GraphKernelOp::verify() {
  ArrayRef<int64_t> grid = getGrid(), block = getBlock();
  if (grid.size() != 3 || llvm::any_of(grid, [](int64_t g) {
        return g < 1 && !ShapedType::isDynamic(g);
      }))
    return emitOpError("[K3] grid must have 3 entries >= 1 or '?'");
  auto above = [](int64_t g, int64_t limit) {
    return !ShapedType::isDynamic(g) && g > limit;
  };
  if (above(grid[0], 2147483647) || above(grid[1], 65535) ||
      above(grid[2], 65535))
    return emitOpError("[K3] grid [")
           << grid[0] << ", " << grid[1] << ", " << grid[2]
           << "] exceeds the device limits (2^31-1, 65535, 65535)";
  if (block.size() != 3 || llvm::any_of(block, [](int64_t t) { return t < 1; }))
    return emitOpError("[K4] block must have 3 entries >= 1");
  // Saturate at 1025 so that the product of huge entries cannot overflow.
  int64_t threads = 1;
  for (int64_t t : block)
    threads = std::min<int64_t>(threads * std::min<int64_t>(t, 1025), 1025);
  if (threads > 1024)
    return emitOpError("[K4] block [")
           << block[0] << ", " << block[1] << ", " << block[2]
           << "] has more than 1024 threads";
  if (getForloop() < 1 && !ShapedType::isDynamic(getForloop()))
    return emitOpError("[K5] forloop must be >= 1 or '?', got ")
           << getForloop();
  return success();
}

/// [K10]: a tile value without a use is a path that never reaches an output.
static LogicalResult verifyUsed(Operation *op, StringRef where) {
  for (Value v : op->getResults())
    if (v.use_empty())
      return op->emitOpError("[K10] result is never used; every ") << where;
  return success();
}

LogicalResult GraphKernelOp::verifyRegions() {
  Block &body = getBody().front();
  // [K6] region signature.
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("[K6] region has ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " operands";
  for (auto [arg, in] : llvm::zip_equal(body.getArguments(), getInputs()))
    if (arg.getType() != in.getType())
      return emitOpError("[K6] region argument #")
             << arg.getArgNumber() << " has type " << arg.getType()
             << " but operand has type " << in.getType();
  auto ret = dyn_cast<mb::ReturnOp>(body.getTerminator());
  if (!ret)
    return emitOpError("[K6] block graph must end in mb.return");
  if (ret.getOutputs().getTypes() != getResultTypes())
    return ret.emitOpError("[K6] returns types that differ from the kernel's "
                           "result types");
  for (Value v : ret.getOutputs())
    if (!v.getDefiningOp<mb::OutputSaverOp>())
      return ret.emitOpError("[B18] operands must be mb.output_saver results");

  // [K9] kernel arguments are only read by input iterators.
  for (BlockArgument arg : body.getArguments())
    for (Operation *user : arg.getUsers())
      if (!isa<mb::InputIterOp>(user))
        return user->emitOpError("[K9] reads kernel argument #")
               << arg.getArgNumber()
               << " directly; device tensors are read through mb.input_iter";

  // [B1] exactly one for-loop, directly in the body; [K8] only block ops.
  int numLoops = 0;
  for (Operation &op : body) {
    if (isa<mb::ForLoopOp>(op)) {
      ++numLoops;
      continue;
    }
    if (isa<mb::ReturnOp>(op))
      continue;
    if (isa<mb::OutputSaverOp>(op)) {
      if (op.getResult(0).use_empty())
        return op.emitOpError("[K10] result is never returned; every saved "
                              "output must be returned by mb.return");
      continue;
    }
    // Input iterators here are epilogue inputs ([B21], checked by their
    // verifier); they are read like post-loop values.
    if ((!op.hasTrait<InBlockGraph>() && !isa<mb::InputIterOp>(op)) ||
        isa<AccumulatorOpInterface>(op))
      return op.emitOpError("[K8] is not allowed directly in a block graph; "
                            "the body holds the for-loop, epilogue inputs, "
                            "post-loop tile ops, output savers and "
                            "mb.return");
    if (failed(verifyUsed(&op, "post-loop value must reach an output saver")))
      return failure();
  }
  if (numLoops != 1)
    return emitOpError("[B1] block graph must have exactly one mb.for_loop, "
                       "found ")
           << numLoops;
  if (getNumResults() == 0)
    return emitOpError("[K6] a graph-defined kernel must write at least one "
                       "device tensor");
  if (failed(verifyDynamicGrid()) || failed(verifyDynamicLoop()) ||
      failed(mb::verifyLoopTail(*this)))
    return failure();
  mb::ForLoopOp loop = getForLoop();
  for (Value r : loop.getResults())
    if (r.use_empty())
      return loop.emitOpError("[K10] result #")
             << cast<OpResult>(r).getResultNumber()
             << " is never used; every accumulated value must reach an "
                "output saver";

  // Loop body: input iterators, tile ops, accumulators, mb.yield.
  for (Operation &op : loop.getBody().front()) {
    if (isa<mb::YieldOp>(op))
      continue;
    // An accumulator that is not yielded drops everything that flows into it.
    if (isa<AccumulatorOpInterface>(op)) {
      if (failed(verifyUsed(&op, "accumulator must be yielded by mb.yield")))
        return failure();
      continue;
    }
    if (!op.hasTrait<InBlockGraph>() && !isa<mb::InputIterOp>(op))
      return op.emitOpError("[K8] is not allowed in a for-loop body");
    if (isa<mb::ForLoopOp>(op))
      return op.emitOpError("[B1] for-loops do not nest");
    if (failed(verifyUsed(&op, "loop-body value must reach an accumulator")))
      return failure();
  }

  // [K7] shared-memory footprint.
  int64_t bytes = computeSharedMemoryBytes();
  int64_t limit = getSharedMemoryLimit();
  if (bytes > limit)
    return emitOpError("[K7] block graph needs ")
           << bytes << " bytes of shared memory but the target allows "
           << limit;
  return success();
}

/// `grid = [256, ?, 1]`: the grid's entries, `?` for a dynamic one.
static ParseResult parseGridDims(OpAsmParser &parser, DenseI64ArrayAttr &grid) {
  SmallVector<int64_t> dims;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            if (succeeded(parser.parseOptionalQuestion())) {
              dims.push_back(ShapedType::kDynamic);
              return success();
            }
            int64_t d;
            if (parser.parseInteger(d))
              return failure();
            dims.push_back(d);
            return success();
          }))
    return failure();
  grid = DenseI64ArrayAttr::get(parser.getContext(), dims);
  return success();
}

static void printGridDims(OpAsmPrinter &printer, Operation *,
                          DenseI64ArrayAttr grid) {
  printer << '[';
  llvm::interleaveComma(grid.asArrayRef(), printer, [&](int64_t g) {
    if (ShapedType::isDynamic(g))
      printer << '?';
    else
      printer << g;
  });
  printer << ']';
}

static ParseResult parseLoopRange(OpAsmParser &parser, IntegerAttr &range) {
  int64_t n = ShapedType::kDynamic;
  if (failed(parser.parseOptionalQuestion()) && parser.parseInteger(n))
    return failure();
  range = parser.getBuilder().getI64IntegerAttr(n);
  return success();
}

static void printLoopRange(OpAsmPrinter &printer, Operation *,
                           IntegerAttr range) {
  if (ShapedType::isDynamic(range.getInt()))
    printer << '?';
  else
    printer << range.getInt();
}

LogicalResult GraphKernelOp::verifyDynamicLoop() {
  if (!ShapedType::isDynamic(getForloop()))
    return success();
  // [K21] an iterator walks the loop (each checks that it walks a dynamic
  // dim; verifyDynamicGrid that no `?` grid dim splits it).
  bool walks = false;
  getBody().walk([&](mb::InputIterOp it) {
    walks |= static_cast<int64_t>(it.getFmap()) >= 0;
  });
  if (!walks)
    return emitOpError("[K21] forloop is '?' but no input iterator walks "
                       "the loop");
  return success();
}

LogicalResult GraphKernelOp::verifyDynamicGrid() {
  ArrayRef<int64_t> grid = getGrid();
  if (!llvm::any_of(grid, ShapedType::isDynamic))
    return success();
  // Each iterator and saver checks its own dims against the `?` grid dims
  // (its static twin, BlockDialect.cpp); what it cannot see is a loop walk
  // along such a dim and a saver that leaves one out.
  WalkResult walk = getBody().walk([&](Operation *op) {
    if (auto it = dyn_cast<mb::InputIterOp>(op)) {
      int64_t fmap = static_cast<int64_t>(it.getFmap());
      for (auto [g, d] : llvm::enumerate(it.getImap()))
        if (d >= 0 && d == fmap && ShapedType::isDynamic(grid[g]))
          return it.emitOpError("[K19] dim ")
                     << d << ", partitioned by the '?' grid dim " << g
                     << ", is walked by the loop",
                 WalkResult::interrupt();
    }
    if (auto saver = dyn_cast<mb::OutputSaverOp>(op))
      for (auto [g, extent] : llvm::enumerate(grid))
        if (ShapedType::isDynamic(extent) && saver.getOmap()[g] < 0)
          return saver.emitOpError("[K19] '?' grid dim ")
                     << g
                     << " is not in omap: blocks would overwrite each "
                        "other's tiles",
                 WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

#define GET_OP_CLASSES
#include "Mirage/Dialect/Kernel/IR/KernelOps.cpp.inc"
