//===- MirageInterfaces.td - Interfaces shared by mk/mb/mt -*- tablegen -*-===//
//
// Behaviour common to the three levels of a uGraph is expressed through these
// interfaces, so that the evaluator, the search and the lowering dispatch on
// an interface instead of on a list of concrete op classes.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INTERFACES_MIRAGEINTERFACES_TD
#define MIRAGE_INTERFACES_MIRAGEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Mirage_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let cppNamespace = "::mirage";
  let description = [{
    An op that applies one scalar function to every element of its operands
    (with numpy broadcasting for binary ops on tensors). Implemented by the
    element-wise ops of all three levels: `mk.exp`, `mb.exp` and `mt.exp` all
    report `ElementwiseKind::Exp`, so an evaluator needs one scalar kernel per
    kind, not one per op.
  }];
  let methods = [
    InterfaceMethod<"Returns the scalar function this op applies.",
      "::mirage::ElementwiseKind", "getElementwiseKind", (ins), "",
      [{ return ConcreteOp::kElementwiseKind; }]>,
    InterfaceMethod<[{
        Returns the constants of the scalar function: `{c}` for mul_scalar and
        add_scalar, `{lo, hi}` for clamp, empty otherwise.
      }],
      "::llvm::SmallVector<double, 2>", "getScalarParams", (ins), "",
      [{ return {}; }]>,
    InterfaceMethod<"Returns the number of tensor (or scalar) operands.",
      "unsigned", "getArity", (ins), "",
      [{ return $_op->getNumOperands(); }]>,
  ];
}

def Mirage_GraphKernelOpInterface : OpInterface<"GraphKernelOpInterface"> {
  let cppNamespace = "::mirage";
  let description = [{
    A graph-defined kernel: an op whose single region holds a block graph run
    by every thread block of a grid. Block-level ops query their enclosing
    kernel through this interface (the kernel dialect depends on the block
    dialect, not the other way round).
  }];
  let methods = [
    InterfaceMethod<"Grid dimensions [gx, gy, gz].",
      "::llvm::ArrayRef<int64_t>", "getGridDims", (ins)>,
    InterfaceMethod<"Thread-block dimensions [tx, ty, tz].",
      "::llvm::ArrayRef<int64_t>", "getBlockDims", (ins)>,
    InterfaceMethod<"Number of for-loop iterations F.",
      "int64_t", "getForloopRange", (ins)>,
  ];
}

def Mirage_AccumulatorOpInterface : OpInterface<"AccumulatorOpInterface"> {
  let cppNamespace = "::mirage";
  let description = [{
    A for-loop accumulator: combines a loop-body value over the F iterations
    of the enclosing for-loop. Its result is only meaningful after the loop.
  }];
  let methods = [
    InterfaceMethod<"Returns the accumulator kind.",
      "::mirage::AccumulatorKind", "getAccumulatorKind", (ins), "",
      [{ return ConcreteOp::kAccumulatorKind; }]>,
    InterfaceMethod<"Returns the loop-body value being accumulated.",
      "::mlir::Value", "getAccumulated", (ins), "",
      [{ return $_op->getOperand(0); }]>,
  ];
}

#endif // MIRAGE_INTERFACES_MIRAGEINTERFACES_TD
