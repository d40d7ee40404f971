// Small-shape copy of test/Programs/lora_fused.mlir: X 4x16, W 16x16,
// A 16x4, B 4x16, grid [4, 1, 1], forloop 4. A seed of mirage-mutation-bench.
func.func @lora_ref(%X: tensor<4x16xf16>, %W: tensor<16x16xf16>, %A: tensor<16x4xf16>, %B: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %xw = mk.matmul %X, %W : tensor<4x16xf16>, tensor<16x16xf16> -> tensor<4x16xf16>
  %xa = mk.matmul %X, %A : tensor<4x16xf16>, tensor<16x4xf16> -> tensor<4x4xf16>
  %xab = mk.matmul %xa, %B : tensor<4x4xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  %o = mk.add %xw, %xab : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  return %o : tensor<4x16xf16>
}

func.func @lora_fused(%x: tensor<4x16xf16>, %w: tensor<16x16xf16>, %a: tensor<16x4xf16>, %b: tensor<4x16xf16>) -> tensor<4x16xf16> attributes {mk.reference = @lora_ref} {
  %y = mk.graph_kernel (%x, %w, %a, %b) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x16xf16>, %W: tensor<16x16xf16>, %A: tensor<16x4xf16>, %B: tensor<4x16xf16>):
    %acc = mb.for_loop -> (tensor<4x4xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x16xf16> -> tensor<4x4xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<16x16xf16> -> tensor<4x4xf16>
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 0 : tensor<16x4xf16> -> tensor<4x4xf16>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<4x16xf16> -> tensor<4x4xf16>
      %xw = mb.matmul %xt, %wt : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf16>
      %xa = mb.matmul %xt, %at : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf16>
      %xab = mb.matmul %xa, %bt : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf16>
      %sum = mb.add %xw, %xab : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf16>
      %s = mb.accum_sum %sum : tensor<4x4xf16> -> tensor<4x4xf16>
      mb.yield %s : tensor<4x4xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x4xf16> -> tensor<4x16xf16>
    mb.return %o : tensor<4x16xf16>
  } : (tensor<4x16xf16>, tensor<16x16xf16>, tensor<16x4xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}
