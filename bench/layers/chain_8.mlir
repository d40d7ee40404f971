// chain_8: 2 repetition(s) of matmul, rms_norm, weight mul, silu
// (8 x 1024, fp16), written by bench/layers/make-chains for the scaling
// measurement of the partitioned search (issue 10 item 7).

func.func @chain_8(%x: tensor<8x1024xf16>, %W0: tensor<1024x1024xf16>, %w0: tensor<1x1024xf16>, %W1: tensor<1024x1024xf16>, %w1: tensor<1x1024xf16>) -> tensor<8x1024xf16> {
  %m0 = mk.matmul %x, %W0 : tensor<8x1024xf16>, tensor<1024x1024xf16> -> tensor<8x1024xf16>
  %n0 = mk.rms_norm %m0 eps = 1.0e-05 : tensor<8x1024xf16>
  %h0 = mk.mul %n0, %w0 : tensor<8x1024xf16>, tensor<1x1024xf16> -> tensor<8x1024xf16>
  %s0 = mk.silu %h0 : tensor<8x1024xf16>
  %m1 = mk.matmul %s0, %W1 : tensor<8x1024xf16>, tensor<1024x1024xf16> -> tensor<8x1024xf16>
  %n1 = mk.rms_norm %m1 eps = 1.0e-05 : tensor<8x1024xf16>
  %h1 = mk.mul %n1, %w1 : tensor<8x1024xf16>, tensor<1x1024xf16> -> tensor<8x1024xf16>
  %s1 = mk.silu %h1 : tensor<8x1024xf16>
  return %s1 : tensor<8x1024xf16>
}
