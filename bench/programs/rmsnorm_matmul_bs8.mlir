// rmsnorm_matmul, bs = 8: RMSNorm followed by a matmul.
//   O = matmul(rms_norm(X, eps = 1e-6), W)
//   rms_norm over the last dim: x / sqrt(mean(x^2) + eps)
// Shapes (fp16): X [16, 4096] (2*bs rows), W [4096, 6144] -> O [16, 6144].
// Source: Mirage benchmark/rmsnorm.py (OSDI'25 evaluation); DESIGN.md section 8;
// mirage-study.md section 5.1.

func.func @rmsnorm_matmul(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %n = mk.rms_norm %X eps = 1.0e-06 : tensor<16x4096xf16>
  %o = mk.matmul %n, %W : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
  return %o : tensor<16x6144xf16>
}
