// A kernel whose walked tiles have rows of 3 f16 in rows of 6: no chunk
// divides them, so its loop copies one element at a time (the negative case
// of ptx-audit.mlir).
func.func @scalar_rows(%a: tensor<64x6xf16>) -> tensor<4x6xf16> {
  %y = mk.graph_kernel (%a) grid = [2, 1, 1] block = [32, 1, 1] forloop = 16 {
  ^bb0(%A: tensor<64x6xf16>):
    %r = mb.for_loop -> (tensor<4x3xf16>) {
      %at = mb.input_iter %A imap = [1, -1, -1] fmap = 0 : tensor<64x6xf16> -> tensor<4x3xf16>
      %s = mb.accum_sum %at : tensor<4x3xf16> -> tensor<4x3xf16>
      mb.yield %s : tensor<4x3xf16>
    }
    %o = mb.output_saver %r omap = [1, -1, -1] : tensor<4x3xf16> -> tensor<4x6xf16>
    mb.return %o : tensor<4x6xf16>
  } : (tensor<64x6xf16>) -> tensor<4x6xf16>
  return %y : tensor<4x6xf16>
}
