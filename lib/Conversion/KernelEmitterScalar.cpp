//===- KernelEmitterScalar.cpp - Element-wise arithmetic on f32 scalars ---===//
//
// The scalar code of every element-wise kind (thread graphs and tile ops
// alike compute in f32): exp, an erf built from exp for the CPU path, and
// emitScalar's switch over ElementwiseKind. See KernelEmitter.h.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace mirage::lowering {

/// exp(x). On the GPU path it becomes libdevice's __nv_expf, linked into the
/// kernel when the CUDA toolkit is found; on the CPU path llvm.exp.
Value emitExp(OpBuilder &b, Location loc, Value x) {
  return math::ExpOp::create(b, loc, x);
}

/// erf(x) by Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7):
/// 1 - t (a1 + t (a2 + ... + t a5)) exp(-x^2), t = 1 / (1 + p |x|), odd in x.
/// Built from exp, which lowers on both paths, while math.erf has no LLVM
/// intrinsic for the CPU path.
Value emitErf(OpBuilder &b, Location loc, Value x) {
  Value one = cF32(b, loc, 1.0);
  Value a = math::AbsFOp::create(b, loc, x);
  Value t = arith::DivFOp::create(
      b, loc, one,
      arith::AddFOp::create(
          b, loc, one,
          arith::MulFOp::create(b, loc, cF32(b, loc, 0.3275911), a)));
  Value poly = cF32(b, loc, 1.061405429);
  for (double c : {-1.453152027, 1.421413741, -0.284496736, 0.254829592})
    poly = arith::AddFOp::create(b, loc, cF32(b, loc, c),
                                 arith::MulFOp::create(b, loc, t, poly));
  poly = arith::MulFOp::create(b, loc, t, poly);
  Value e = emitExp(
      b, loc,
      arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, a, a)));
  Value y = arith::SubFOp::create(b, loc, one,
                                  arith::MulFOp::create(b, loc, poly, e));
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         cF32(b, loc, 0.0));
  return arith::SelectOp::create(b, loc, negative,
                                 arith::NegFOp::create(b, loc, y), y);
}

/// Computes `kind` on f32 scalars.
Value emitScalar(OpBuilder &b, Location loc, ElementwiseKind kind,
                 ArrayRef<double> params, ValueRange x) {
  auto one = [&] { return cF32(b, loc, 1.0); };
  auto sigmoid = [&](Value v) {
    Value e = emitExp(b, loc, arith::NegFOp::create(b, loc, v));
    return arith::DivFOp::create(b, loc, one(),
                                 arith::AddFOp::create(b, loc, one(), e));
  };
  switch (kind) {
  case ElementwiseKind::Exp:
    return emitExp(b, loc, x[0]);
  case ElementwiseKind::Square:
    return arith::MulFOp::create(b, loc, x[0], x[0]);
  case ElementwiseKind::Sqrt:
    return math::SqrtOp::create(b, loc, x[0]);
  case ElementwiseKind::Rsqrt:
    return math::RsqrtOp::create(b, loc, x[0]);
  case ElementwiseKind::Silu:
    return arith::MulFOp::create(b, loc, x[0], sigmoid(x[0]));
  case ElementwiseKind::Sigmoid:
    return sigmoid(x[0]);
  case ElementwiseKind::Gelu: {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    Value x3 = arith::MulFOp::create(b, loc, x[0],
                                     arith::MulFOp::create(b, loc, x[0], x[0]));
    Value inner = arith::AddFOp::create(
        b, loc, x[0],
        arith::MulFOp::create(b, loc, cF32(b, loc, 0.044715), x3));
    // tanh(z) = 1 - 2 / (exp(2z) + 1): exp lowers on both paths, while
    // math.tanh has no LLVM intrinsic for the CPU path.
    Value z = arith::MulFOp::create(
        b, loc, cF32(b, loc, 2.0 * std::sqrt(2.0 / M_PI)), inner);
    Value t = arith::SubFOp::create(
        b, loc, one(),
        arith::DivFOp::create(
            b, loc, cF32(b, loc, 2.0),
            arith::AddFOp::create(b, loc, emitExp(b, loc, z), one())));
    Value half = arith::MulFOp::create(b, loc, cF32(b, loc, 0.5), x[0]);
    return arith::MulFOp::create(b, loc, half,
                                 arith::AddFOp::create(b, loc, one(), t));
  }
  case ElementwiseKind::Reciprocal:
    return arith::DivFOp::create(b, loc, one(), x[0]);
  case ElementwiseKind::Tanh:
    // libdevice's __nv_tanhf on the GPU path, llvm.tanh (libm) on the CPU.
    return math::TanhOp::create(b, loc, x[0]);
  case ElementwiseKind::GeluErf: {
    // 0.5 x (1 + erf(x / sqrt(2)))
    Value erf = emitErf(
        b, loc, arith::MulFOp::create(b, loc, cF32(b, loc, M_SQRT1_2), x[0]));
    Value half = arith::MulFOp::create(b, loc, cF32(b, loc, 0.5), x[0]);
    return arith::MulFOp::create(b, loc, half,
                                 arith::AddFOp::create(b, loc, one(), erf));
  }
  case ElementwiseKind::Relu:
    return arith::MaximumFOp::create(b, loc, x[0], cF32(b, loc, 0.0));
  case ElementwiseKind::Neg:
    return arith::NegFOp::create(b, loc, x[0]);
  case ElementwiseKind::MulScalar:
    return arith::MulFOp::create(b, loc, x[0], cF32(b, loc, params[0]));
  case ElementwiseKind::AddScalar:
    return arith::AddFOp::create(b, loc, x[0], cF32(b, loc, params[0]));
  case ElementwiseKind::Clamp:
    return arith::MinimumFOp::create(
        b, loc,
        arith::MaximumFOp::create(b, loc, x[0], cF32(b, loc, params[0])),
        cF32(b, loc, params[1]));
  case ElementwiseKind::Add:
    return arith::AddFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Sub:
    return arith::SubFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Mul:
    return arith::MulFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Div:
    return arith::DivFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Pow:
    return math::PowFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Where: {
    // x where m != 0 (unordered: a NaN mask keeps x, as a nonzero value);
    // inverted, x where m == 0 (a NaN mask fills).
    bool inverted = params.size() > 1 && params[1] != 0;
    Value keep = arith::CmpFOp::create(b, loc,
                                       inverted ? arith::CmpFPredicate::OEQ
                                                : arith::CmpFPredicate::UNE,
                                       x[0], cF32(b, loc, 0.0));
    return arith::SelectOp::create(b, loc, keep, x[1], cF32(b, loc, params[0]));
  }
  case ElementwiseKind::Max:
    return arith::MaximumFOp::create(b, loc, x[0], x[1]);
  case ElementwiseKind::Convert:
    // f32 compute: the store rounds to the result's storage type (in a
    // thread graph, emitConvertInRegisters rounds).
    return x[0];
  }
  llvm_unreachable("unknown element-wise kind");
}

} // namespace mirage::lowering
