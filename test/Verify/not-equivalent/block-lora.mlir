// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @lora_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %xw = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %xa = mk.matmul %x, %a : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %xab = mk.matmul %xa, %b : tensor<4x2xf32>, tensor<2x6xf32> -> tensor<4x6xf32>
  %y = mk.add %xw, %xab : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// LoRA that forgets the X W term.
// expected-error @below {{not equivalent to @lora_ref: output #0 element [}}
func.func @lora_missing_term(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @lora_ref} {
  %y:2 = mk.graph_kernel (%x, %w, %a, %b) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>, %A: tensor<8x2xf32>, %B: tensor<2x6xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x3xf32>, tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x3xf32>
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 0 : tensor<8x2xf32> -> tensor<4x2xf32>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<2x6xf32> -> tensor<2x3xf32>
      %xw = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %xa = mb.matmul %xt, %at : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %xab = mb.matmul %xa, %bt : tensor<4x2xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
      %r = mb.accum_sum %xab : tensor<4x3xf32> -> tensor<4x3xf32>
      %u = mb.accum_sum %xw : tensor<4x3xf32> -> tensor<4x3xf32>
      mb.yield %r, %u : tensor<4x3xf32>, tensor<4x3xf32>
    }
    %o = mb.output_saver %acc#0 omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    %p = mb.output_saver %acc#1 omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o, %p : tensor<4x6xf32>, tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>)
  return %y#0 : tensor<4x6xf32>
}
