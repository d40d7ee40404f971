// RMSNorm + MatMul with a 2-D grid (x over W's columns, y over X's rows) and
// the division in a post-loop thread graph: X 4x16, W 16x8, grid [2, 2, 1],
// forloop 4. A seed of mirage-mutation-bench (a variant of the known-good
// rmsnorm_matmul tiling).
func.func @rmsnorm_matmul_2d_ref(%X: tensor<4x16xf16>, %W: tensor<16x8xf16>) -> tensor<4x8xf16> {
  %n = mk.rms_norm %X eps = 1.0e-06 : tensor<4x16xf16>
  %o = mk.matmul %n, %W : tensor<4x16xf16>, tensor<16x8xf16> -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}

func.func @rmsnorm_matmul_2d(%x: tensor<4x16xf16>, %w: tensor<16x8xf16>) -> tensor<4x8xf16> attributes {mk.reference = @rmsnorm_matmul_2d_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 2, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x16xf16>, %W: tensor<16x8xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x4xf16>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<4x16xf16> -> tensor<2x4xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<16x8xf16> -> tensor<4x4xf16>
      %m = mb.matmul %xt, %wt : tensor<2x4xf16>, tensor<4x4xf16> -> tensor<2x4xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x4xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x4xf16> -> tensor<2x4xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x4xf16>
    }
    %q = mt.thread_graph (%acc#1, %acc#0) : (tensor<2x4xf16>, tensor<2x1xf16>) -> tensor<2x4xf16> {
    ^bb0(%a: f16, %b: f16):
      %d = mt.div %a, %b : f16
      mt.yield %d : f16
    }
    %o = mb.output_saver %q omap = [1, 0, -1] : tensor<2x4xf16> -> tensor<4x8xf16>
    mb.return %o : tensor<4x8xf16>
  } : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
