// qknorm_gqa, bs = 8: group-query attention after RMSNorm of Q and of V.
//   Qn = rms_norm(Q, eps = 1e-6), Vn = rms_norm(V, eps = 1e-6)  (over the last dim, 64)
//   O = (exp(Qn . K) / reduce_sum(exp(Qn . K), dim 2)) . Vn
//   The original script normalises Q and V (not K), with normalized_shape (64,);
//   this program follows it, as DESIGN.md section 8 says.
// Shapes (fp16): Q [16, 256, 64], K [16, 64, 4096], V [16, 4096, 64] -> O [16, 256, 64].
// Source: Mirage benchmark/qknorm_gqa.py; DESIGN.md section 8;
// mirage-study.md section 5.1.

func.func @qknorm_gqa(%Q: tensor<16x256x64xf16>, %K: tensor<16x64x4096xf16>, %V: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %qn = mk.rms_norm %Q eps = 1.0e-06 : tensor<16x256x64xf16>
  %vn = mk.rms_norm %V eps = 1.0e-06 : tensor<16x4096x64xf16>
  %s = mk.matmul %qn, %K : tensor<16x256x64xf16>, tensor<16x64x4096xf16> -> tensor<16x256x4096xf16>
  %e = mk.exp %s : tensor<16x256x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
  %p = mk.div %e, %d : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
  %o = mk.matmul %p, %vn : tensor<16x256x4096xf16>, tensor<16x4096x64xf16> -> tensor<16x256x64xf16>
  return %o : tensor<16x256x64xf16>
}
