// Small-shape copy of test/Programs/rmsnorm_matmul_fused.mlir (same kernel
// structure, every division exact): X 2x16, W 16x24, grid [4, 1, 1],
// forloop 4. A seed of mirage-mutation-bench.
func.func @rmsnorm_matmul_ref(%X: tensor<2x16xf16>, %W: tensor<16x24xf16>) -> tensor<2x24xf16> {
  %n = mk.rms_norm %X eps = 1.0e-06 : tensor<2x16xf16>
  %o = mk.matmul %n, %W : tensor<2x16xf16>, tensor<16x24xf16> -> tensor<2x24xf16>
  return %o : tensor<2x24xf16>
}

func.func @rmsnorm_matmul_fused(%x: tensor<2x16xf16>, %w: tensor<16x24xf16>) -> tensor<2x24xf16> attributes {mk.reference = @rmsnorm_matmul_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x16xf16>, %W: tensor<16x24xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x6xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x16xf16> -> tensor<2x4xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<16x24xf16> -> tensor<4x6xf16>
      %m = mb.matmul %xt, %wt : tensor<2x4xf16>, tensor<4x6xf16> -> tensor<2x6xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x4xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x6xf16> -> tensor<2x6xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x6xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x6xf16>, tensor<2x1xf16> -> tensor<2x6xf16>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x6xf16> -> tensor<2x24xf16>
    mb.return %o : tensor<2x24xf16>
  } : (tensor<2x16xf16>, tensor<16x24xf16>) -> tensor<2x24xf16>
  return %y : tensor<2x24xf16>
}
