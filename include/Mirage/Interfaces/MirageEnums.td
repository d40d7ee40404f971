//===- MirageEnums.td - Enums shared by the three levels ---*- tablegen -*-===//
//
// Enumerations used by more than one of the mk / mb / mt dialects.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INTERFACES_MIRAGEENUMS_TD
#define MIRAGE_INTERFACES_MIRAGEENUMS_TD

include "mlir/IR/EnumAttr.td"

def Mirage_ElementwiseKind : I32EnumAttr<"ElementwiseKind",
    "the scalar function an element-wise op applies", [
      I32EnumAttrCase<"Exp", 0, "exp">,
      I32EnumAttrCase<"Square", 1, "square">,
      I32EnumAttrCase<"Sqrt", 2, "sqrt">,
      I32EnumAttrCase<"Rsqrt", 3, "rsqrt">,
      I32EnumAttrCase<"Silu", 4, "silu">,
      I32EnumAttrCase<"Gelu", 5, "gelu">,
      I32EnumAttrCase<"Relu", 6, "relu">,
      I32EnumAttrCase<"Sigmoid", 7, "sigmoid">,
      I32EnumAttrCase<"Neg", 8, "neg">,
      I32EnumAttrCase<"MulScalar", 9, "mul_scalar">,
      I32EnumAttrCase<"AddScalar", 10, "add_scalar">,
      I32EnumAttrCase<"Clamp", 11, "clamp">,
      I32EnumAttrCase<"Reciprocal", 12, "reciprocal">,
      I32EnumAttrCase<"Tanh", 13, "tanh">,
      I32EnumAttrCase<"GeluErf", 14, "gelu_erf">,
      // The identity on values: a conversion to another storage type
      // (the result's element type); compute is f32 on every side.
      I32EnumAttrCase<"Convert", 15, "convert">,
      I32EnumAttrCase<"Add", 20, "add">,
      I32EnumAttrCase<"Sub", 21, "sub">,
      I32EnumAttrCase<"Mul", 22, "mul">,
      I32EnumAttrCase<"Div", 23, "div">,
      I32EnumAttrCase<"Pow", 24, "pow">,
      I32EnumAttrCase<"Max", 25, "max">,
      // where(m, x): x where m is not 0, the op's `fill` elsewhere.
      I32EnumAttrCase<"Where", 26, "where">
    ]> {
  let cppNamespace = "::mirage";
  let genSpecializedAttr = 0;
}

def Mirage_AccumulatorKind : I32EnumAttr<"AccumulatorKind",
    "how a for-loop accumulator combines a body value over the iterations", [
      I32EnumAttrCase<"Sum", 0, "sum">,
      I32EnumAttrCase<"SumLast", 1, "sum_last">,
      I32EnumAttrCase<"MeanLast", 2, "mean_last">,
      I32EnumAttrCase<"RmsLast", 3, "rms_last">,
      I32EnumAttrCase<"SumTo", 4, "sum_to">,
      I32EnumAttrCase<"Max", 5, "max">,
      I32EnumAttrCase<"RescaledSum", 6, "rescaled_sum">
    ]> {
  let cppNamespace = "::mirage";
  let genSpecializedAttr = 0;
}

#endif // MIRAGE_INTERFACES_MIRAGEENUMS_TD
