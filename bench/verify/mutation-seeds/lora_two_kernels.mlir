// LoRA as two kernels: X·A first (grid over A's columns), then X·W and XA·B
// accumulated separately and summed in a thread graph after the loop: X 4x8,
// W 8x8, A 8x4, B 4x8. A seed of mirage-mutation-bench (a variant of the known-good lora).
func.func @lora_two_ref(%X: tensor<4x8xf16>, %W: tensor<8x8xf16>, %A: tensor<8x4xf16>, %B: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %xw = mk.matmul %X, %W : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
  %xa = mk.matmul %X, %A : tensor<4x8xf16>, tensor<8x4xf16> -> tensor<4x4xf16>
  %xab = mk.matmul %xa, %B : tensor<4x4xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %o = mk.add %xw, %xab : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}

func.func @lora_two(%x: tensor<4x8xf16>, %w: tensor<8x8xf16>, %a: tensor<8x4xf16>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> attributes {mk.reference = @lora_two_ref} {
  %xa = mk.graph_kernel (%x, %a) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf16>, %A: tensor<8x4xf16>):
    %acc = mb.for_loop -> (tensor<4x2xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf16> -> tensor<4x4xf16>
      %at = mb.input_iter %A imap = [1, -1, -1] fmap = 0 : tensor<8x4xf16> -> tensor<4x2xf16>
      %m = mb.matmul %xt, %at : tensor<4x4xf16>, tensor<4x2xf16> -> tensor<4x2xf16>
      %s = mb.accum_sum %m : tensor<4x2xf16> -> tensor<4x2xf16>
      mb.yield %s : tensor<4x2xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x2xf16> -> tensor<4x4xf16>
    mb.return %o : tensor<4x4xf16>
  } : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  %y = mk.graph_kernel (%x, %w, %xa, %b) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf16>, %W: tensor<8x8xf16>, %XA: tensor<4x4xf16>, %B: tensor<4x8xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x4xf16>, tensor<4x4xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf16> -> tensor<4x4xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x8xf16> -> tensor<4x4xf16>
      %xat = mb.input_iter %XA imap = [-1, -1, -1] fmap = 1 : tensor<4x4xf16> -> tensor<4x2xf16>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = 0 : tensor<4x8xf16> -> tensor<2x4xf16>
      %m = mb.matmul %xt, %wt : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf16>
      %lo = mb.matmul %xat, %bt : tensor<4x2xf16>, tensor<2x4xf16> -> tensor<4x4xf16>
      %s = mb.accum_sum %m : tensor<4x4xf16> -> tensor<4x4xf16>
      %sl = mb.accum_sum %lo : tensor<4x4xf16> -> tensor<4x4xf16>
      mb.yield %s, %sl : tensor<4x4xf16>, tensor<4x4xf16>
    }
    %r = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16> {
    ^bb0(%p: f16, %q: f16):
      %t = mt.add %p, %q : f16
      mt.yield %t : f16
    }
    %o = mb.output_saver %r omap = [1, -1, -1] : tensor<4x4xf16> -> tensor<4x8xf16>
    mb.return %o : tensor<4x8xf16>
  } : (tensor<4x8xf16>, tensor<8x8xf16>, tensor<4x4xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
