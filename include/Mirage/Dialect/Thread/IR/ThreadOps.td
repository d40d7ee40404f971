//===- ThreadOps.td - Mirage thread-graph ops --------------*- tablegen -*-===//

#ifndef MIRAGE_DIALECT_THREAD_IR_THREADOPS_TD
#define MIRAGE_DIALECT_THREAD_IR_THREADOPS_TD

include "Mirage/Dialect/Thread/IR/ThreadDialect.td"
include "Mirage/Interfaces/MirageOpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def MT_Scalar : AnyTypeOf<[F16, BF16, F32]>;

// [T5] The scalar ops and mt.yield are directly in the body of an
// mt.thread_graph (and, by [C0.2], inside a graph-defined kernel). A native
// trait rather than HasParent so that the diagnostic carries the tag.
def MT_InThreadGraph : NativeOpTrait<"InThreadGraph"> {
  let cppNamespace = "::mirage::mt";
}

// Scalar element-wise ops: mt.exp, mt.mul_scalar, ...
defm MT_ : Mirage_UnaryOps<MT_Dialect, MT_Scalar, [MT_InThreadGraph]>;
// mt.convert: the scalar rounded to the result's type (f16, bf16 or f32).
def MT_ConvertOp : Mirage_ConvertOp<MT_Dialect, MT_Scalar, [MT_InThreadGraph]>;

class MT_BinaryOp<string mnemonic, string kind, string formula>
    : MT_Op<mnemonic, [MT_InThreadGraph, Pure, SameOperandsAndResultType,
                       Mirage_ElementwiseOpInterface]> {
  let summary = "scalar " # formula;
  let description = [{
    Computes `}] # formula # [{` on two scalars of the same type.
  }];
  let arguments = (ins MT_Scalar:$lhs, MT_Scalar:$rhs);
  let results = (outs MT_Scalar:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::ElementwiseKind kElementwiseKind =
        ::mirage::ElementwiseKind::}] # kind # [{;
  }];
}

def MT_AddOp : MT_BinaryOp<"add", "Add", "x + y">;
def MT_SubOp : MT_BinaryOp<"sub", "Sub", "x - y">;
def MT_MulOp : MT_BinaryOp<"mul", "Mul", "x * y">;
def MT_DivOp : MT_BinaryOp<"div", "Div", "x / y">;
def MT_PowOp : MT_BinaryOp<"pow", "Pow", "x ^ y">;
def MT_MaxOp : MT_BinaryOp<"max", "Max", "max(x, y)">;
def MT_WhereOp : MT_Op<"where", [MT_InThreadGraph, Pure,
    SameOperandsAndResultType, DeclareOpInterfaceMethods<
        Mirage_ElementwiseOpInterface, ["getScalarParams"]>]> {
  let summary = "scalar m != 0 ? x : fill";
  let description = [{
    The scalar form of `mk.where`/`mb.where`: `input` where `mask` is not 0,
    `fill` elsewhere (with `inverted`: `fill` where `mask` is not 0, `input`
    elsewhere).
  }];
  let arguments = (ins MT_Scalar:$mask, MT_Scalar:$input, F64Attr:$fill,
                       UnitAttr:$inverted);
  let results = (outs MT_Scalar:$result);
  let assemblyFormat = [{
    $mask `,` $input `fill` `=` $fill (`inverted` $inverted^)? attr-dict `:`
    type($result)
  }];
  let extraClassDeclaration = [{
    static constexpr ::mirage::ElementwiseKind kElementwiseKind =
        ::mirage::ElementwiseKind::Where;
  }];
  let extraClassDefinition = [{
    ::llvm::SmallVector<double, 2> $cppClass::getScalarParams() {
      return {getFill().convertToDouble(), getInverted() ? 1.0 : 0.0};
    }
  }];
}

def MT_ThreadGraphOp : MT_Op<"thread_graph", [Pure, Mirage_InBlockGraph,
    IsolatedFromAbove, SingleBlock]> {
  let summary = "a fused element-wise region evaluated in registers";
  let description = [{
    Evaluates its body once per element of the result shape. Block argument
    `i` is the element of input tile `i` at that index (broadcast along dims
    of size 1); the `mt.yield` operands are the elements of the result tiles.

    Constraints:
    - [T1] at least one input and one result;
    - [T2] every result has the same shape, and every input has that rank and
      broadcasts to it (each dim equal or 1);
    - [T3] the body has one block argument per input, typed with the input's
      element type;
    - [T4] the body holds only mt element-wise ops and ends in `mt.yield`
      whose operand types are the result element types;
    - [T5] conversely, mt element-wise ops and `mt.yield` appear only directly
      in the body of an `mt.thread_graph`.

    ```mlir
    %r = mt.thread_graph (%acc, %rms)
        : (tensor<2x24xf16>, tensor<2x1xf16>) -> tensor<2x24xf16> {
    ^bb0(%a: f16, %b: f16):
      %q = mt.div %a, %b : f16
      mt.yield %q : f16
    }
    ```
  }];
  let arguments = (ins Variadic<Mirage_Tensor>:$inputs);
  let results = (outs Variadic<Mirage_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasRegionVerifier = 1;
}

def MT_YieldOp : MT_Op<"yield", [Pure, Terminator, ReturnLike,
                                 MT_InThreadGraph]> {
  let summary = "yields the result elements of a thread graph";
  let arguments = (ins Variadic<MT_Scalar>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // MIRAGE_DIALECT_THREAD_IR_THREADOPS_TD
