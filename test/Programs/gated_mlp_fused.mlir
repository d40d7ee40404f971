// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good GatedMLP (DESIGN.md section 8):
//   O = silu(X . W1) * (X . W2), X [8, 4096], W1, W2 [4096, 4096], fp16.
// One graph-defined kernel: grid 64 over the columns of W1 and W2 (64 per
// block), the loop walks the shared 4096-dim in 64 tiles of 64; both matmuls
// are accumulated (sum) and silu(acc1) * acc2 runs after the loop, fused in a
// thread graph (element-wise, in registers).
// Shared memory: 1024 (X) + 2 * 8192 (W1, W2) + 2 * 1024 (matmuls)
//                + 2 * 1024 (accumulators) + 1024 (thread-graph result) = 22528 bytes.

// CHECK-LABEL: func.func @gated_mlp_ref(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[W1:[a-zA-Z0-9_]+]]: tensor<4096x4096xf16>, %[[W2:[a-zA-Z0-9_]+]]: tensor<4096x4096xf16>) -> tensor<8x4096xf16>
// CHECK:         %[[A:[a-zA-Z0-9_]+]] = mk.matmul %[[X]], %[[W1]] : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
// CHECK:         %[[B:[a-zA-Z0-9_]+]] = mk.matmul %[[X]], %[[W2]] : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
// CHECK:         %[[S:[a-zA-Z0-9_]+]] = mk.silu %[[A]] : tensor<8x4096xf16>
// CHECK:         %[[O:[a-zA-Z0-9_]+]] = mk.mul %[[S]], %[[B]]
// CHECK:         return %[[O]]
func.func @gated_mlp_ref(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %a = mk.matmul %X, %W1 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %b = mk.matmul %X, %W2 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %s = mk.silu %a : tensor<8x4096xf16>
  %o = mk.mul %s, %b : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  return %o : tensor<8x4096xf16>
}

// CHECK-LABEL: func.func @gated_mlp_fused(
// CHECK-SAME:      %{{.*}}: tensor<8x4096xf16>, %{{.*}}: tensor<4096x4096xf16>, %{{.*}}: tensor<4096x4096xf16>) -> tensor<8x4096xf16> attributes {mk.reference = @gated_mlp_ref} {
// CHECK:         %[[Y:[a-zA-Z0-9_]+]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}}) grid = [64, 1, 1] block = [128, 1, 1] forloop = 64 {
// CHECK-NEXT:    ^bb0(%[[XA:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[W1A:[a-zA-Z0-9_]+]]: tensor<4096x4096xf16>, %[[W2A:[a-zA-Z0-9_]+]]: tensor<4096x4096xf16>):
// CHECK-NEXT:      %[[ACC:[a-zA-Z0-9_]+]]:2 = mb.for_loop -> (tensor<8x64xf16>, tensor<8x64xf16>) {
// CHECK-NEXT:        %[[XT:[a-zA-Z0-9_]+]] = mb.input_iter %[[XA]] imap = [-1, -1, -1] fmap = 1 : tensor<8x4096xf16> -> tensor<8x64xf16>
// CHECK-NEXT:        %[[W1T:[a-zA-Z0-9_]+]] = mb.input_iter %[[W1A]] imap = [1, -1, -1] fmap = 0 : tensor<4096x4096xf16> -> tensor<64x64xf16>
// CHECK-NEXT:        %[[W2T:[a-zA-Z0-9_]+]] = mb.input_iter %[[W2A]] imap = [1, -1, -1] fmap = 0 : tensor<4096x4096xf16> -> tensor<64x64xf16>
// CHECK-NEXT:        %[[M1:[a-zA-Z0-9_]+]] = mb.matmul %[[XT]], %[[W1T]] : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
// CHECK-NEXT:        %[[M2:[a-zA-Z0-9_]+]] = mb.matmul %[[XT]], %[[W2T]] : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
// CHECK-NEXT:        %[[S1:[a-zA-Z0-9_]+]] = mb.accum_sum %[[M1]] : tensor<8x64xf16> -> tensor<8x64xf16>
// CHECK-NEXT:        %[[S2:[a-zA-Z0-9_]+]] = mb.accum_sum %[[M2]] : tensor<8x64xf16> -> tensor<8x64xf16>
// CHECK-NEXT:        mb.yield %[[S1]], %[[S2]] : tensor<8x64xf16>, tensor<8x64xf16>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[G:[a-zA-Z0-9_]+]] = mt.thread_graph(%[[ACC]]#0, %[[ACC]]#1) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16> {
// CHECK-NEXT:      ^bb0(%[[A:[a-zA-Z0-9_]+]]: f16, %[[B:[a-zA-Z0-9_]+]]: f16):
// CHECK-NEXT:        %[[SA:[a-zA-Z0-9_]+]] = mt.silu %[[A]] : f16
// CHECK-NEXT:        %[[P:[a-zA-Z0-9_]+]] = mt.mul %[[SA]], %[[B]] : f16
// CHECK-NEXT:        mt.yield %[[P]] : f16
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OUT:[a-zA-Z0-9_]+]] = mb.output_saver %[[G]] omap = [1, -1, -1] : tensor<8x64xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:      mb.return %[[OUT]] : tensor<8x4096xf16>
// CHECK-NEXT:    } : (tensor<8x4096xf16>, tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<8x4096xf16>
// CHECK-NEXT:    return %[[Y]] : tensor<8x4096xf16>
func.func @gated_mlp_fused(%x: tensor<8x4096xf16>, %w1: tensor<4096x4096xf16>, %w2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> attributes {mk.reference = @gated_mlp_ref} {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [64, 1, 1] block = [128, 1, 1] forloop = 64 {
  ^bb0(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>):
    %acc:2 = mb.for_loop -> (tensor<8x64xf16>, tensor<8x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x4096xf16> -> tensor<8x64xf16>
      %w1t = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<4096x4096xf16> -> tensor<64x64xf16>
      %w2t = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<4096x4096xf16> -> tensor<64x64xf16>
      %m1 = mb.matmul %xt, %w1t : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
      %m2 = mb.matmul %xt, %w2t : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
      %s1 = mb.accum_sum %m1 : tensor<8x64xf16> -> tensor<8x64xf16>
      %s2 = mb.accum_sum %m2 : tensor<8x64xf16> -> tensor<8x64xf16>
      mb.yield %s1, %s2 : tensor<8x64xf16>, tensor<8x64xf16>
    }
    %g = mt.thread_graph (%acc#0, %acc#1) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16> {
    ^bb0(%a: f16, %b: f16):
      %sa = mt.silu %a : f16
      %p = mt.mul %sa, %b : f16
      mt.yield %p : f16
    }
    %o = mb.output_saver %g omap = [1, -1, -1] : tensor<8x64xf16> -> tensor<8x4096xf16>
    mb.return %o : tensor<8x4096xf16>
  } : (tensor<8x4096xf16>, tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<8x4096xf16>
  return %y : tensor<8x4096xf16>
}
