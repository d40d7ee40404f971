// The comparison of the differential check where values are not finite: a
// NaN on both sides (rsqrt of a negative input), or an infinity of the same
// sign, agrees. By default the reference runs in f64 like the interpreter,
// so f32 overflow and rounding do not enter (OVERFLOW64, ILL64); a fault is
// a mismatch there too. With --import-check-precision=f32 the reference
// runs in f32: where it overflows and the f64 interpreter does not
// (exp(x) * (1 / exp(x)) at |x| > 88), the import is evaluated again in f32
// arithmetic: when it overflows there too, or the original run in f64
// agrees with the import, the element is a NOTE, not a mismatch. An element that f32 rounding alone moves out of tolerance
// ((x + 1e4) - 1e4 loses x's low bits in f32; the f64 interpreter keeps
// them) is a NOTE when the import evaluated in f32 moves as far; a fault
// added to the import's result is still a mismatch there.
// RUN: mirage-run --import-check %s --func=nan_both | FileCheck %s --check-prefix=NAN
// RUN: mirage-run --import-check %s --func=nan_outside | FileCheck %s --check-prefix=NANOUT
// RUN: mirage-run --import-check %s --func=overflow --input-scale=200 | FileCheck %s --check-prefix=OVERFLOW64
// RUN: mirage-run --import-check %s --func=cancellation | FileCheck %s --check-prefix=ILL64
// RUN: not mirage-run --import-check %s --func=cancellation --import-check-fault=mk | FileCheck %s --check-prefix=ILLFAULT
// RUN: mirage-run --import-check --import-check-precision=f32 %s --func=overflow --input-scale=200 | FileCheck %s --check-prefix=OVERFLOW
// RUN: mirage-run --import-check --import-check-precision=f32 %s --func=cancellation | FileCheck %s --check-prefix=ILL
// rsqrt of what rounds to zero: inf in f64 everywhere; in f32 the rounding
// error of (x + 1e4) - 1e4 - x decides between finite, NaN and inf, and the
// import evaluated in f32 agrees with upstream's kind at every element.
// RUN: mirage-run --import-check --import-check-precision=f32 %s --func=rounding_decides | FileCheck %s --check-prefix=ROUND
// RUN: not mirage-run --import-check --import-check-precision=f32 %s --func=cancellation --import-check-fault=mk | FileCheck %s --check-prefix=ILLFAULT
// A cancellation whose sign rounding decides (the sum of x - mean, under
// rsqrt): upstream and the import disagree between NaN and finite in some
// rows; the import evaluated on inputs moved by 2^-40 relative moves those
// elements as far, so they are NOTE lines (ill-conditioned at these inputs).
// RUN: mirage-run --import-check %s --func=sign_of_cancellation | FileCheck %s --check-prefix=SENSITIVE
// x / y with y subnormal (exp of a < -709 in f64): 1 / y overflows, so the
// interpreter divides as arith.divf does, not by x * (1 / y).
// RUN: mirage-run --import-check %s --func=subnormal_divisor --input-scale=800 | FileCheck %s --check-prefix=SUBNORMAL
// At scale 1 nothing overflows.
// RUN: mirage-run --import-check --import-check-precision=f32 %s --func=overflow | FileCheck %s --check-prefix=NOOVERFLOW

// The import divides (x * (1 / y) is mk.div), upstream multiplies by the
// reciprocal: one rounding apart in f64.
// OVERFLOW64: output 0 (f64, 32 elements): max abs err {{(0.000e\+00|[0-9.]+e-16)}}
// OVERFLOW64-NOT: NOTE
// OVERFLOW64: PASS @overflow
// ILL64-NOT: NOTE
// ILL64: PASS @cancellation
// NAN: output 0: 16 of 32 elements are NaN or inf on both sides (agree; first element 0 [0, 0]: {{-?}}nan)
// NAN: PASS @nan_both
// NANOUT: output 0: 16 of 32 elements are NaN or inf on both sides (agree;
// NANOUT: PASS @nan_outside
// OVERFLOW: NOTE output 0 element 1 [0, 1]: got {{-?}}nan, expected 1, which is {{-?}}nan in f32: the computation overflows in f32 (18 of 32 elements; not counted as a mismatch)
// Where exp(x) is subnormal in f32, upstream's 1 / exp(x) overflows and the
// import's x / y does not: the original run in f64 tells.
// OVERFLOW: NOTE output 0 element 7 [0, 7]: got inf, expected 1, which is 1 computed in f64: an intermediate overflows in f32 (2 of 32 elements; not counted as a mismatch)
// OVERFLOW: PASS @overflow
// ILL: NOTE output 0 element {{[0-9]+}} [{{.*}}]: got {{.*}}, expected {{.*}}, which is {{.*}} in f32: ill-conditioned in f32 ({{[0-9]+}} of 32 elements where f32 rounding accounts for the difference: within 8x its own error, or not finite in f64 only; not counted as a mismatch)
// ILL: PASS @cancellation
// ROUND: NOTE output 0 element {{[0-9]+}} [{{.*}}]: got {{.*}}, expected inf, which is {{.*}} in f32: ill-conditioned in f32
// ROUND: PASS @rounding_decides
// ILLFAULT: MISMATCH output 0 element 0
// ILLFAULT: FAIL @cancellation
// SENSITIVE: NOTE output 0 element {{[0-9]+}} [{{.*}}]: got {{.*}}, expected {{.*}}, which is {{.*}} on inputs moved by 9.09495e-13 relative: ill-conditioned at these inputs ({{[0-9]+}} of 3072 elements; not counted as a mismatch)
// SENSITIVE: PASS @sign_of_cancellation
// SUBNORMAL-NOT: NOTE
// SUBNORMAL: max abs err 0.000e+00
// SUBNORMAL: PASS @subnormal_divisor
// NOOVERFLOW-NOT: NOTE
// NOOVERFLOW: PASS @overflow

func.func @nan_both(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.rsqrt %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @nan_outside(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.rsqrt %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.erf %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
func.func @overflow(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.reciprocal %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = tosa.mul %0, %1, %s : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @cancellation(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %big = arith.constant 1.000000e+04 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %1 = arith.addf %x, %big : f32
    %2 = arith.subf %1, %big : f32
    linalg.yield %2 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @rounding_decides(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %big = arith.constant 1.000000e+04 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %1 = arith.addf %x, %big : f32
    %2 = arith.subf %1, %big : f32
    %3 = arith.subf %2, %x : f32
    %4 = math.rsqrt %3 : f32
    linalg.yield %4 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @sign_of_cancellation(%a: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 4.800000e+01 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %er = tensor.empty() : tensor<64x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<64x1xf32>) -> tensor<64x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
         ins(%a : tensor<64x48xf32>) outs(%z : tensor<64x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %1 = arith.addf %x, %acc : f32
    linalg.yield %1 : f32
  } -> tensor<64x1xf32>
  %mean = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%sum : tensor<64x1xf32>) outs(%er : tensor<64x1xf32>) {
  ^bb0(%s: f32, %o: f32):
    %1 = arith.divf %s, %n : f32
    linalg.yield %1 : f32
  } -> tensor<64x1xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a, %mean : tensor<64x48xf32>, tensor<64x1xf32>) outs(%e : tensor<64x48xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %1 = arith.subf %x, %m : f32
    linalg.yield %1 : f32
  } -> tensor<64x48xf32>
  %dsum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
         ins(%d : tensor<64x48xf32>) outs(%z : tensor<64x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %1 = arith.addf %x, %acc : f32
    linalg.yield %1 : f32
  } -> tensor<64x1xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a, %dsum : tensor<64x48xf32>, tensor<64x1xf32>) outs(%e : tensor<64x48xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %1 = math.rsqrt %s : f32
    %2 = arith.mulf %x, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<64x48xf32>
  return %out : tensor<64x48xf32>
}

func.func @subnormal_divisor(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %0 = linalg.exp ins(%a : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %1 = linalg.div ins(%0, %0 : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %1 : tensor<16x64xf32>
}
