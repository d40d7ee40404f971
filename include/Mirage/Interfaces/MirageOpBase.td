//===- MirageOpBase.td - Op templates shared by the levels -*- tablegen -*-===//
//
// Type constraints and op templates used by more than one dialect. The kernel
// (mk) and block (mb) levels have the same tensor operators with the same
// semantics (on device tensors and on shared-memory tiles respectively); the
// thread level (mt) has the element-wise ones on scalars. Each dialect
// instantiates the multiclasses below with its own dialect and extra traits.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INTERFACES_MIRAGEOPBASE_TD
#define MIRAGE_INTERFACES_MIRAGEOPBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "Mirage/Interfaces/MirageEnums.td"
include "Mirage/Interfaces/MirageInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Mirage_ElementType : AnyTypeOf<[F16, BF16, F32]>;

// [C0.1] Every tensor value of mk and mb is a statically shaped ranked tensor
// of rank 1 to 4 with positive dims and f16, bf16 or f32 elements.
def Mirage_Tensor : Type<And<[
    CPred<"::llvm::isa<::mlir::RankedTensorType>($_self)">,
    CPred<"::mirage::isMirageTensorShape("
          "::llvm::cast<::mlir::RankedTensorType>($_self).getShape())">,
    SubstLeaves<"$_self",
                "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                Mirage_ElementType.predicate>]>,
  "static tensor of rank 1 to 4 with positive dims and f16, bf16 or f32 "
  "elements [C0.1]", "::mlir::RankedTensorType">;

// [C0.1] at the kernel level: a dim may also be dynamic (`?`), where the op's
// rules allow it ([C0.19]-[C0.21]). Graph-defined kernels and the block and
// thread levels stay static.
def Mirage_DynamicTensor : Type<And<[
    CPred<"::llvm::isa<::mlir::RankedTensorType>($_self)">,
    CPred<"::mirage::isMirageDynamicTensorShape("
          "::llvm::cast<::mlir::RankedTensorType>($_self).getShape())">,
    SubstLeaves<"$_self",
                "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                Mirage_ElementType.predicate>]>,
  "tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 "
  "elements [C0.1]", "::mlir::RankedTensorType">;

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

// [C0.2] A block-level op must be nested inside a graph-defined kernel.
def Mirage_InBlockGraph : NativeOpTrait<"InBlockGraph"> {
  let cppNamespace = "::mirage";
}

// Checks the op's shape rules (through its InferTypeOpInterface) before the
// generic inferred-type check, so a violation gives exactly one diagnostic,
// tagged with its constraint, and a written result type that differs from
// the inferred one is reported as [C0.14]. List it before InferTypeOpAdaptor.
def Mirage_ShapeRules : NativeOpTrait<"ShapeRules"> {
  let cppNamespace = "::mirage";
}

//===----------------------------------------------------------------------===//
// Element-wise unary ops (all three levels)
//===----------------------------------------------------------------------===//

class Mirage_UnaryOp<Dialect d, TypeConstraint ty, list<Trait> extra,
                     string mnemonic, string kind, string formula>
    : Op<d, mnemonic, extra # [Pure, SameOperandsAndResultType,
                               Mirage_ElementwiseOpInterface]> {
  let summary = "element-wise " # formula;
  let description = [{
    Applies `}] # formula # [{` to every element of the operand. The result
    has the operand's type.
  }];
  let arguments = (ins ty:$input);
  let results = (outs ty:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::ElementwiseKind kElementwiseKind =
        ::mirage::ElementwiseKind::}] # kind # [{;
  }];
}

// Unary ops with one constant `c`.
// Folds: `op(x, identity)` -> x and `op(op(x, a), b)` -> `op(x, a <combine> b)`.
class Mirage_ScalarOp<Dialect d, TypeConstraint ty, list<Trait> extra,
                      string mnemonic, string kind, string formula,
                      string identity, string combine>
    : Mirage_UnaryOp<d, ty, extra # [DeclareOpInterfaceMethods<
                        Mirage_ElementwiseOpInterface, ["getScalarParams"]>],
                     mnemonic, kind, formula> {
  let arguments = (ins ty:$input, F64Attr:$scalar);
  let assemblyFormat = "$input `,` $scalar attr-dict `:` type($result)";
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::SmallVector<double, 2> $cppClass::getScalarParams() {
      return {getScalar().convertToDouble()};
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      double c = getScalar().convertToDouble();
      if (c == }] # identity # [{)
        return getInput();
      if (auto inner = getInput().getDefiningOp<$cppClass>()) {
        double combined = inner.getScalar().convertToDouble() }] # combine # [{ c;
        setScalarAttr(::mlir::FloatAttr::get(getScalarAttr().getType(),
                                             combined));
        getInputMutable().assign(inner.getInput());
        return getResult();
      }
      return {};
    }
  }];
}

multiclass Mirage_UnaryOps<Dialect d, TypeConstraint ty, list<Trait> extra> {
  def ExpOp : Mirage_UnaryOp<d, ty, extra, "exp", "Exp", "exp(x)">;
  def SquareOp : Mirage_UnaryOp<d, ty, extra, "square", "Square", "x * x">;
  def SqrtOp : Mirage_UnaryOp<d, ty, extra, "sqrt", "Sqrt", "sqrt(x)">;
  def RsqrtOp : Mirage_UnaryOp<d, ty, extra, "rsqrt", "Rsqrt", "1 / sqrt(x)">;
  def SiluOp : Mirage_UnaryOp<d, ty, extra, "silu", "Silu",
                              "x / (1 + exp(-x))">;
  def GeluOp : Mirage_UnaryOp<d, ty, extra, "gelu", "Gelu",
      "0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))">;
  def ReluOp : Mirage_UnaryOp<d, ty, extra, "relu", "Relu", "max(x, 0)">;
  def SigmoidOp : Mirage_UnaryOp<d, ty, extra, "sigmoid", "Sigmoid",
                                 "1 / (1 + exp(-x))">;
  def ReciprocalOp : Mirage_UnaryOp<d, ty, extra, "reciprocal", "Reciprocal",
                                    "1 / x">;
  def TanhOp : Mirage_UnaryOp<d, ty, extra, "tanh", "Tanh",
                              "(exp(2x) - 1) / (exp(2x) + 1)">;
  // The exact GELU; `gelu` is its tanh approximation.
  def GeluErfOp : Mirage_UnaryOp<d, ty, extra, "gelu_erf", "GeluErf",
                                 "0.5 * x * (1 + erf(x / sqrt(2)))">;
  def NegOp : Mirage_UnaryOp<d, ty, extra, "neg", "Neg", "-x"> {
    let hasFolder = 1;
    let extraClassDefinition = [{
      ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
        // neg(neg(x)) -> x
        if (auto inner = getInput().getDefiningOp<$cppClass>())
          return inner.getInput();
        return {};
      }
    }];
  }
  def MulScalarOp : Mirage_ScalarOp<d, ty, extra, "mul_scalar", "MulScalar",
                                    "x * c", "1.0", "*">;
  def AddScalarOp : Mirage_ScalarOp<d, ty, extra, "add_scalar", "AddScalar",
                                    "x + c", "0.0", "+">;
  // [C0.3] clamp: min <= max.
  def ClampOp : Mirage_UnaryOp<d, ty, extra # [DeclareOpInterfaceMethods<
                    Mirage_ElementwiseOpInterface, ["getScalarParams"]>],
                    "clamp", "Clamp", "min(max(x, lo), hi)"> {
    let arguments = (ins ty:$input, F64Attr:$min, F64Attr:$max);
    let assemblyFormat =
        "$input `min` `=` $min `max` `=` $max attr-dict `:` type($result)";
    let hasVerifier = 1;
    let extraClassDefinition = [{
      ::llvm::SmallVector<double, 2> $cppClass::getScalarParams() {
        return {getMin().convertToDouble(), getMax().convertToDouble()};
      }
      ::llvm::LogicalResult $cppClass::verify() {
        // Written as !(min <= max) so that a NaN bound is rejected too.
        if (!(getMin().convertToDouble() <= getMax().convertToDouble()))
          return emitOpError("[C0.3] requires min <= max, got min = ")
                 << getMin().convertToDouble()
                 << " and max = " << getMax().convertToDouble();
        return ::mlir::success();
      }
    }];
  }
}

//===----------------------------------------------------------------------===//
// Element-type conversion (all three levels)
//===----------------------------------------------------------------------===//

// Storage type and compute type are separate (DESIGN 3.4, "Compute
// precision"): a tensor is stored as f16, bf16 or f32, and every op computes
// in f32, rounding its result to its storage type when it writes it. `convert`
// is the one op whose result has another storage type than its operand; on
// values it is the identity (exact for a widening, a rounding to nearest even
// for a narrowing).
class Mirage_ConvertOp<Dialect d, TypeConstraint ty, list<Trait> extra>
    : Op<d, "convert", extra # [Pure, Mirage_ElementwiseOpInterface]> {
  let summary = "element-wise conversion to another storage type";
  let description = [{
    The operand's elements in the result's element type: read and widened to
    the f32 compute type, then rounded (to nearest even) to the result's
    storage type when written. Widening (bf16 or f16 to f32) is exact. It is
    what a frontend's `arith.extf`/`arith.truncf`, `linalg.copy` between
    element types or `tosa.cast` between float types becomes when it does not
    fold into a neighbouring op; inside a graph-defined kernel it fuses into
    thread graphs like the other element-wise ops. The interpreters treat it
    as the identity (f64 and the finite field); the numerics check, like the
    generated code, rounds its result to the result's storage type.
    Constraints: [C0.16] the result has the operand's shape (tensors); equal
    element types are allowed and fold to the operand.

    ```mlir
    %y = mk.convert %x : tensor<32x4096xbf16> -> tensor<32x4096xf32>
    ```
  }];
  let arguments = (ins ty:$input);
  let results = (outs ty:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static constexpr ::mirage::ElementwiseKind kElementwiseKind =
        ::mirage::ElementwiseKind::Convert;
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mirage::verifyConvert(getOperation(), getInput().getType(),
                                     getType());
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      // A conversion to the operand's own type is the identity, and so is a
      // round trip through a wider type (bf16 -> f32 -> bf16).
      if (getInput().getType() == getType())
        return getInput();
      if (auto inner = getInput().getDefiningOp<$cppClass>())
        if (inner.getInput().getType() == getType() &&
            ::mirage::isExactWidening(getType(), inner.getType()))
          return inner.getInput();
      return {};
    }
  }];
}

//===----------------------------------------------------------------------===//
// Masks from index compares (mk, mb)
//===----------------------------------------------------------------------===//

// A band of diagonals kept, the rest filled (DESIGN 3.4, "Masks and
// selects"). `coordArgs`/`coordFormat` add the block level's tile origin.
class Mirage_BandMaskOp<Dialect d, list<Trait> extra, dag coordArgs,
                        string coordFormat, string moreDescription,
                        Type ty = Mirage_Tensor>
    : Op<d, "band_mask", extra # [Pure, SameOperandsAndResultType]> {
  let summary = "keeps a band of diagonals of two dims, fills the rest";
  let description = [{
    A mask computed from element indices, as causal and sliding-window
    attention masks are: with `dims = [r, c]`, element `x[i]` is kept when
    `lower <= i[c] - i[r] <= upper` (a missing bound is no bound), with
    `dims = [c]` when `lower <= i[c] <= upper` (a static length). A masked
    element becomes `fill` (a select), or `x + fill` with `additive` (an
    additive mask written as a tensor of 0 and `fill`). A causal mask keeps
    `upper = 0` (key position at most the query's), a decode step with `p`
    cached positions `upper = p`, a window of `w` keys also `lower = 1 - w`.
    `fill` may be -inf: the masked scores then add nothing to a softmax's
    running max and sum, so the online softmax stays exact. In the finite
    field an infinite fill, which has no image there, is a fixed stand-in
    value (docs/verification.md); f64 and the generated code use it as it is.
    Constraints: [C0.17] `dims` holds one or two distinct dims of the
    operand; at least one bound; `lower <= upper`; `fill` is not NaN.
  }] # moreDescription;
  let arguments = !con((ins ty:$input, DenseI64ArrayAttr:$dims,
                            OptionalAttr<I64Attr>:$lower,
                            OptionalAttr<I64Attr>:$upper, F64Attr:$fill,
                            UnitAttr:$additive), coordArgs);
  let results = (outs ty:$result);
  let assemblyFormat = "$input `dims` `=` $dims (`lower` `=` $lower^)? "
                       "(`upper` `=` $upper^)? `fill` `=` $fill "
                       "(`additive` $additive^)? " # coordFormat #
                       " attr-dict `:` type($result)";
  let hasVerifier = 1;
  code verifyCoordinates = "";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      if (::mlir::failed(::mirage::verifyBandMask(
              getOperation(), getInput().getType(), getDims(), getLower(),
              getUpper(), getFill().convertToDouble())))
        return ::mlir::failure();
      }] # verifyCoordinates # [{
      return ::mlir::success();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Element-wise binary ops
//===----------------------------------------------------------------------===//

// On tensors (mk, mb): numpy broadcasting, each dim equal or 1.
class Mirage_TensorBinaryOp<Dialect d, list<Trait> extra, string mnemonic,
                            string kind, string formula,
                            Type ty = Mirage_Tensor>
    : Op<d, mnemonic, extra # [Pure, Mirage_ShapeRules, InferTypeOpAdaptor,
                               Mirage_ElementwiseOpInterface]> {
  let summary = "element-wise " # formula # " with broadcasting";
  let description = [{
    Computes `}] # formula # [{` element by element. The operands have equal
    rank and each dim pair is equal or one of them is 1 (numpy broadcasting,
    constraint [C0.4]); they have equal element types ([C0.8]). The result
    shape is the element-wise maximum of the operand shapes.
  }];
  let arguments = (ins ty:$lhs, ty:$rhs);
  let results = (outs ty:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let extraClassDeclaration = [{
    static constexpr ::mirage::ElementwiseKind kElementwiseKind =
        ::mirage::ElementwiseKind::}] # kind # [{;
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mirage::inferBroadcastType(loc, getOperationName(),
          adaptor.getLhs().getType(), adaptor.getRhs().getType(), types);
    }
  }];
}

// A select by a mask tensor (DESIGN 3.4, "Masks and selects").
class Mirage_WhereOp<Dialect d, list<Trait> extra,
                     Type ty = Mirage_Tensor>
    : Op<d, "where", extra # [Pure, Mirage_ShapeRules, InferTypeOpAdaptor,
                              DeclareOpInterfaceMethods<
                                  Mirage_ElementwiseOpInterface,
                                  ["getScalarParams"]>]> {
  let summary = "element-wise select by a mask: m != 0 ? x : fill";
  let description = [{
    Keeps `x` where the mask `m` is not 0 and gives `fill` elsewhere (a
    boolean or integer mask converted to float, as `where(mask, scores,
    -inf)` of frontends reads it; `fill` may be infinite). With `inverted`
    it is the other way round, `m != 0 ? fill : x`: torch's
    `masked_fill(mask, value)`, which fills where the mask is true. The
    operands broadcast as the binary ops' ([C0.4]) and have equal element
    types ([C0.8]). In the finite field the test `m != 0` has no meaning (a
    random element is almost never 0): there the op is compared by structure
    only, and the tests give mask arguments the values 0 and 1; f64 and the
    generated code select.

    ```mlir
    %s = mk.where %mask, %scores fill = 0xFFF0000000000000
        : tensor<1x1x128xf32>, tensor<8x128x128xf32> -> tensor<8x128x128xf32>
    %t = mk.where %padding, %scores fill = 0xFFF0000000000000 inverted
        : tensor<1x1x128xf32>, tensor<8x128x128xf32> -> tensor<8x128x128xf32>
    ```
  }];
  let arguments = (ins ty:$mask, ty:$input,
                       F64Attr:$fill, UnitAttr:$inverted);
  let results = (outs ty:$result);
  let assemblyFormat = [{
    $mask `,` $input `fill` `=` $fill (`inverted` $inverted^)? attr-dict `:`
    type($mask) `,` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static constexpr ::mirage::ElementwiseKind kElementwiseKind =
        ::mirage::ElementwiseKind::Where;
  }];
  let extraClassDefinition = [{
    ::llvm::SmallVector<double, 2> $cppClass::getScalarParams() {
      return {getFill().convertToDouble(), getInverted() ? 1.0 : 0.0};
    }
    ::llvm::LogicalResult $cppClass::verify() {
      if (std::isnan(getFill().convertToDouble()))
        return emitOpError("[C0.18] fill must not be NaN");
      return ::mlir::success();
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mirage::inferBroadcastType(loc, getOperationName(),
          adaptor.getMask().getType(), adaptor.getInput().getType(), types);
    }
  }];
}

multiclass Mirage_TensorBinaryOps<Dialect d, list<Trait> extra,
                                  Type ty = Mirage_Tensor> {
  def AddOp : Mirage_TensorBinaryOp<d, extra, "add", "Add", "x + y", ty>;
  def SubOp : Mirage_TensorBinaryOp<d, extra, "sub", "Sub", "x - y", ty>;
  def MulOp : Mirage_TensorBinaryOp<d, extra, "mul", "Mul", "x * y", ty>;
  def DivOp : Mirage_TensorBinaryOp<d, extra, "div", "Div", "x / y", ty>;
  def PowOp : Mirage_TensorBinaryOp<d, extra, "pow", "Pow", "x ^ y", ty>;
  def MaxOp : Mirage_TensorBinaryOp<d, extra, "max", "Max", "max(x, y)", ty>;
  def WhereOp : Mirage_WhereOp<d, extra, ty>;
}

//===----------------------------------------------------------------------===//
// Tensor ops with shape rules (mk, mb)
//===----------------------------------------------------------------------===//

multiclass Mirage_TensorOps<Dialect d, list<Trait> extra,
                            Type ty = Mirage_Tensor> {
  def MatmulOp : Op<d, "matmul", extra # [Pure, Mirage_ShapeRules,
                                           InferTypeOpAdaptorWithIsCompatible]> {
    let summary = "batched matrix multiplication";
    let description = [{
      Contracts the last dim of `lhs` with the second-to-last dim of `rhs`;
      leading dims are batch dims and must be equal. The products and their
      sum are computed in f32 (f32 accumulation) whatever the storage type;
      the result is rounded to its own storage type when written. Constraints:
      [C0.5] both operands have rank >= 2 and equal rank;
      [C0.6] `lhs[-1] == rhs[-2]`; [C0.7] batch dims are equal;
      [C0.8] operand element types are equal;
      [C0.15] the result has the operands' element type, or f32 (a bf16 or
      f16 matmul whose f32 accumulator is written as it is).

      ```mlir
      %y = mk.matmul %x, %w : tensor<2x4096xf16>, tensor<4096x6144xf16>
                               -> tensor<2x6144xf16>
      %z = mk.matmul %a, %b : tensor<32x4096xbf16>, tensor<4096x512xbf16>
                               -> tensor<32x512xf32>
      ```
    }];
    let arguments = (ins ty:$lhs, ty:$rhs);
    let results = (outs ty:$result);
    let assemblyFormat = [{
      $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
    }];
    let extraClassDefinition = [{
      ::llvm::LogicalResult $cppClass::inferReturnTypes(
          ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
          Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
        return ::mirage::inferMatmulType(loc, getOperationName(),
            adaptor.getLhs().getType(), adaptor.getRhs().getType(), types);
      }
      bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                             ::mlir::TypeRange actual) {
        return ::mirage::isCompatibleMatmulResult(inferred, actual);
      }
    }];
  }

  def ReduceSumOp : Op<d, "reduce_sum", extra # [Pure, Mirage_ShapeRules, InferTypeOpAdaptor]> {
    let summary = "sum over one dim, keeping it with size 1";
    let description = [{
      Sums the operand over dim `dim`; the reduced dim is kept with size 1.
      [C0.9] `0 <= dim < rank`.
    }];
    let arguments = (ins ty:$input, I64Attr:$dim);
    let results = (outs ty:$result);
    let assemblyFormat = [{
      $input `dim` `=` $dim attr-dict `:` type($input) `->` type($result)
    }];
    let hasFolder = 1;
    let extraClassDefinition = [{
      ::llvm::LogicalResult $cppClass::inferReturnTypes(
          ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
          Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
        return ::mirage::inferReduceType(loc, getOperationName(),
            adaptor.getInput().getType(), adaptor.getDim(), types);
      }
      ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
        // Reducing a dim of size 1 is the identity.
        if (getInput().getType() == getType())
          return getInput();
        return {};
      }
    }];
  }

  def ReduceMaxOp : Op<d, "reduce_max", extra # [Pure, Mirage_ShapeRules, InferTypeOpAdaptor]> {
    let summary = "maximum over one dim, keeping it with size 1";
    let description = [{
      Takes the maximum of the operand over dim `dim`; the reduced dim is kept
      with size 1. [C0.9] `0 <= dim < rank`.
    }];
    let arguments = (ins ty:$input, I64Attr:$dim);
    let results = (outs ty:$result);
    let assemblyFormat = [{
      $input `dim` `=` $dim attr-dict `:` type($input) `->` type($result)
    }];
    let hasFolder = 1;
    let extraClassDefinition = [{
      ::llvm::LogicalResult $cppClass::inferReturnTypes(
          ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
          Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
        return ::mirage::inferReduceType(loc, getOperationName(),
            adaptor.getInput().getType(), adaptor.getDim(), types);
      }
      ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
        // Reducing a dim of size 1 is the identity.
        if (getInput().getType() == getType())
          return getInput();
        return {};
      }
    }];
  }

  def RmsNormOp : Op<d, "rms_norm", extra # [Pure,
                     AllTypesMatch<["input", "result"]>]> {
    let summary = "RMS normalisation over the last dim";
    let description = [{
      `y = x / sqrt(mean(x^2 over the last dim) + eps)`, then multiplied
      element-wise by `weight` (broadcast over the leading dims) when given.
      [C0.10] `eps >= 0`; [C0.11] `weight` has rank 1, the size of the last
      dim and the element type of the input.
    }];
    let arguments = (ins ty:$input,
                         Optional<ty>:$weight, F64Attr:$eps);
    let results = (outs ty:$result);
    let assemblyFormat = [{
      $input (`weight` `(` $weight^ `:` type($weight) `)`)? `eps` `=` $eps
      attr-dict `:` type($result)
    }];
    let hasVerifier = 1;
    let extraClassDefinition = [{
      ::llvm::LogicalResult $cppClass::verify() {
        return ::mirage::verifyRmsNorm(getOperation(), getInput().getType(),
            getWeight() ? getWeight().getType() : ::mlir::Type(),
            getEps().convertToDouble());
      }
    }];
  }

  def ConcatOp : Op<d, "concat", extra # [Pure, Mirage_ShapeRules, InferTypeOpAdaptor]> {
    let summary = "concatenation along one dim";
    let description = [{
      Concatenates the operands along `dim`. [C0.12] at least two operands of
      equal rank and element type; [C0.9] `0 <= dim < rank`; [C0.13] all other
      dims are equal.
    }];
    let arguments = (ins Variadic<ty>:$inputs, I64Attr:$dim);
    let results = (outs ty:$result);
    let assemblyFormat = [{
      $inputs `dim` `=` $dim attr-dict `:` type($inputs) `->` type($result)
    }];
    let extraClassDefinition = [{
      ::llvm::LogicalResult $cppClass::inferReturnTypes(
          ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
          Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
        return ::mirage::inferConcatType(loc, getOperationName(),
            adaptor.getInputs().getTypes(), adaptor.getDim(), types);
      }
    }];
  }
}

class Mirage_TransposeOp<Dialect d, list<Trait> extra,
                         Type ty = Mirage_Tensor>
    : Op<d, "transpose", extra # [Pure, Mirage_ShapeRules, InferTypeOpAdaptor]> {
  let summary = "permutes the dims of a tensor";
  let description = [{
    Result dim `k` is input dim `perm[k]`:
    `result[i] = input[j]` where `j[perm[k]] = i[k]` for every k.
    Constraints: [K1] `perm` has one entry per dim; [K2] it is a permutation.
  }];
  let arguments = (ins ty:$input, DenseI64ArrayAttr:$perm);
  let results = (outs ty:$result);
  let assemblyFormat = [{
    $input `perm` `=` $perm attr-dict `:` type($input) `->` type($result)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mirage::inferTransposeType(loc, getOperationName(),
          adaptor.getInput().getType(), adaptor.getPerm(), types);
    }
  }];
}

#endif // MIRAGE_INTERFACES_MIRAGEOPBASE_TD
