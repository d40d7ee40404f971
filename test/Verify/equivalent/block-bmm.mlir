// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @bmm_ref(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %y = mk.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32> -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}

// Batched matmul: grid x over the batch dim, z over the rows.
// expected-remark @below {{equivalent to @bmm_ref}}
func.func @bmm(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> attributes {mk.reference = @bmm_ref} {
  %y = mk.graph_kernel (%a, %b) grid = [2, 1, 2] block = [128, 1, 1] forloop = 2 {
  ^bb0(%A: tensor<2x4x8xf32>, %B: tensor<2x8x4xf32>):
    %acc = mb.for_loop -> (tensor<1x2x4xf32>) {
      %at = mb.input_iter %A imap = [0, -1, 1] fmap = 2 : tensor<2x4x8xf32> -> tensor<1x2x4xf32>
      %bt = mb.input_iter %B imap = [0, -1, -1] fmap = 1 : tensor<2x8x4xf32> -> tensor<1x4x4xf32>
      %m = mb.matmul %at, %bt : tensor<1x2x4xf32>, tensor<1x4x4xf32> -> tensor<1x2x4xf32>
      %s = mb.accum_sum %m : tensor<1x2x4xf32> -> tensor<1x2x4xf32>
      mb.yield %s : tensor<1x2x4xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, 1] : tensor<1x2x4xf32> -> tensor<2x4x4xf32>
    mb.return %o : tensor<2x4x4xf32>
  } : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}
