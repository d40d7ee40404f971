// The comparison of the differential check where values are not finite: a
// NaN on both sides (rsqrt of a negative input), or an infinity of the same
// sign, agrees. By default the reference runs in f64 like the interpreter,
// so f32 overflow and rounding do not enter (OVERFLOW64, ILL64); a fault is
// a mismatch there too. With --import-check-precision=f32 the reference
// runs in f32: where it overflows and the f64 interpreter does not
// (exp(x) * (1 / exp(x)) at |x| > 88), the import is evaluated again in f32
// arithmetic: when it overflows there too, the element is a NOTE, not a
// mismatch. An element that f32 rounding alone moves out of tolerance
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
// At scale 1 nothing overflows.
// RUN: mirage-run --import-check --import-check-precision=f32 %s --func=overflow | FileCheck %s --check-prefix=NOOVERFLOW

// OVERFLOW64: output 0 (f64, 32 elements): max abs err 0.000e+00
// OVERFLOW64-NOT: NOTE
// OVERFLOW64: PASS @overflow
// ILL64-NOT: NOTE
// ILL64: PASS @cancellation
// NAN: output 0: 16 of 32 elements are NaN or inf on both sides (agree; first element 0 [0, 0]: {{-?}}nan)
// NAN: PASS @nan_both
// NANOUT: output 0: 16 of 32 elements are NaN or inf on both sides (agree;
// NANOUT: PASS @nan_outside
// OVERFLOW: NOTE output 0 element 1 [0, 1]: got {{-?}}nan, expected 1, which is {{-?}}nan in f32: the computation overflows in f32 (20 of 32 elements; not counted as a mismatch)
// OVERFLOW: PASS @overflow
// ILL: NOTE output 0 element {{[0-9]+}} [{{.*}}]: got {{.*}}, expected {{.*}}, which is {{.*}} in f32: ill-conditioned in f32 ({{[0-9]+}} of 32 elements where f32 rounding accounts for the difference: within 8x its own error, or not finite in f64 only; not counted as a mismatch)
// ILL: PASS @cancellation
// ROUND: NOTE output 0 element {{[0-9]+}} [{{.*}}]: got {{.*}}, expected inf, which is {{.*}} in f32: ill-conditioned in f32
// ROUND: PASS @rounding_decides
// ILLFAULT: MISMATCH output 0 element 0
// ILLFAULT: FAIL @cancellation
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
