// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @lora_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %xw = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %xa = mk.matmul %x, %a : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %xab = mk.matmul %xa, %b : tensor<4x2xf32>, tensor<2x6xf32> -> tensor<4x6xf32>
  %y = mk.add %xw, %xab : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// LoRA as one kernel: (X_k A_k) B is linear in the loop's sum; B replicated.
// expected-remark @below {{equivalent to @lora_ref}}
func.func @lora(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @lora_ref} {
  %y = mk.graph_kernel (%x, %w, %a, %b) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>, %A: tensor<8x2xf32>, %B: tensor<2x6xf32>):
    %acc = mb.for_loop -> (tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x3xf32>
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 0 : tensor<8x2xf32> -> tensor<4x2xf32>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<2x6xf32> -> tensor<2x3xf32>
      %xw = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %xa = mb.matmul %xt, %at : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %xab = mb.matmul %xa, %bt : tensor<4x2xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
      %s = mb.add %xw, %xab : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %r = mb.accum_sum %s : tensor<4x3xf32> -> tensor<4x3xf32>
      mb.yield %r : tensor<4x3xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
