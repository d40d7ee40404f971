// RMSNorm + MatMul with the norm spelled out: the loop accumulates the
// matmul and the mean of the squares (mb.square, accum_mean_last); after the
// loop add_scalar eps, rsqrt and a multiplication. X 2x16, W 16x8,
// grid [2, 1, 1], forloop 4. A seed of mirage-mutation-bench (a variant of the
// known-good rmsnorm_matmul).
func.func @rmsnorm_matmul_manual_ref(%X: tensor<2x16xf32>, %W: tensor<16x8xf32>) -> tensor<2x8xf32> {
  %n = mk.rms_norm %X eps = 1.0e-06 : tensor<2x16xf32>
  %o = mk.matmul %n, %W : tensor<2x16xf32>, tensor<16x8xf32> -> tensor<2x8xf32>
  return %o : tensor<2x8xf32>
}

func.func @rmsnorm_matmul_manual(%x: tensor<2x16xf32>, %w: tensor<16x8xf32>) -> tensor<2x8xf32> attributes {mk.reference = @rmsnorm_matmul_manual_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x16xf32>, %W: tensor<16x8xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x16xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<16x8xf32> -> tensor<4x4xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x4xf32> -> tensor<2x4xf32>
      %sq = mb.square %xt : tensor<2x4xf32>
      %ms = mb.accum_mean_last %sq : tensor<2x4xf32> -> tensor<2x1xf32>
      %s = mb.accum_sum %m : tensor<2x4xf32> -> tensor<2x4xf32>
      mb.yield %ms, %s : tensor<2x1xf32>, tensor<2x4xf32>
    }
    %e = mb.add_scalar %acc#0, 1.0e-06 : tensor<2x1xf32>
    %r = mb.rsqrt %e : tensor<2x1xf32>
    %o = mb.mul %acc#1, %r : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
    %out = mb.output_saver %o omap = [1, -1, -1] : tensor<2x4xf32> -> tensor<2x8xf32>
    mb.return %out : tensor<2x8xf32>
  } : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
