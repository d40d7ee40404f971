// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good LoRA (DESIGN.md section 8):
//   O = X . W + (X . A) . B, X [16, 256], W [256, 4096], A [256, 16],
//   B [16, 4096], fp16.
// One graph-defined kernel: grid 64 over the columns of W and of B (64 per
// block; B is partitioned like W's columns), the loop walks the shared 256-dim
// of X, W and A in 4 tiles of 64. B is replicated over the iterations
// (fmap = -1). The body computes X_k . W_k + (X_k . A_k) . B and accum_sum
// accumulates it: sum_k (X_k A_k) B = (sum_k X_k A_k) B = (X A) B, so the loop
// result is X W + (X A) B.
// Shared memory: 2048 (X) + 8192 (W) + 2048 (A) + 2048 (B) + 2048 (X.W)
//                + 512 (X.A) + 2048 ((X.A).B) + 2048 (add) + 2048 (acc) = 23040 bytes.

// CHECK-LABEL: func.func @lora_ref(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: tensor<16x256xf16>, %[[W:[a-zA-Z0-9_]+]]: tensor<256x4096xf16>, %[[A:[a-zA-Z0-9_]+]]: tensor<256x16xf16>, %[[B:[a-zA-Z0-9_]+]]: tensor<16x4096xf16>) -> tensor<16x4096xf16>
// CHECK:         %[[XW:[a-zA-Z0-9_]+]] = mk.matmul %[[X]], %[[W]] : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
// CHECK:         %[[XA:[a-zA-Z0-9_]+]] = mk.matmul %[[X]], %[[A]] : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
// CHECK:         %[[XAB:[a-zA-Z0-9_]+]] = mk.matmul %[[XA]], %[[B]] : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
// CHECK:         %[[O:[a-zA-Z0-9_]+]] = mk.add %[[XW]], %[[XAB]]
// CHECK:         return %[[O]]
func.func @lora_ref(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %xw = mk.matmul %X, %W : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  %xa = mk.matmul %X, %A : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %xab = mk.matmul %xa, %B : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %o = mk.add %xw, %xab : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  return %o : tensor<16x4096xf16>
}

// CHECK-LABEL: func.func @lora_fused(
// CHECK-SAME:      %{{.*}}: tensor<16x256xf16>, %{{.*}}: tensor<256x4096xf16>, %{{.*}}: tensor<256x16xf16>, %{{.*}}: tensor<16x4096xf16>) -> tensor<16x4096xf16> attributes {mk.reference = @lora_ref} {
// CHECK:         %[[Y:[a-zA-Z0-9_]+]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) grid = [64, 1, 1] block = [128, 1, 1] forloop = 4 {
// CHECK-NEXT:    ^bb0(%[[XA:[a-zA-Z0-9_]+]]: tensor<16x256xf16>, %[[WA:[a-zA-Z0-9_]+]]: tensor<256x4096xf16>, %[[AA:[a-zA-Z0-9_]+]]: tensor<256x16xf16>, %[[BA:[a-zA-Z0-9_]+]]: tensor<16x4096xf16>):
// CHECK-NEXT:      %[[ACC:[a-zA-Z0-9_]+]] = mb.for_loop -> (tensor<16x64xf16>) {
// CHECK-NEXT:        %[[XT:[a-zA-Z0-9_]+]] = mb.input_iter %[[XA]] imap = [-1, -1, -1] fmap = 1 : tensor<16x256xf16> -> tensor<16x64xf16>
// CHECK-NEXT:        %[[WT:[a-zA-Z0-9_]+]] = mb.input_iter %[[WA]] imap = [1, -1, -1] fmap = 0 : tensor<256x4096xf16> -> tensor<64x64xf16>
// CHECK-NEXT:        %[[AT:[a-zA-Z0-9_]+]] = mb.input_iter %[[AA]] imap = [-1, -1, -1] fmap = 0 : tensor<256x16xf16> -> tensor<64x16xf16>
// CHECK-NEXT:        %[[BT:[a-zA-Z0-9_]+]] = mb.input_iter %[[BA]] imap = [1, -1, -1] fmap = -1 : tensor<16x4096xf16> -> tensor<16x64xf16>
// CHECK-NEXT:        %[[XW:[a-zA-Z0-9_]+]] = mb.matmul %[[XT]], %[[WT]] : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
// CHECK-NEXT:        %[[XAT:[a-zA-Z0-9_]+]] = mb.matmul %[[XT]], %[[AT]] : tensor<16x64xf16>, tensor<64x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT:        %[[XAB:[a-zA-Z0-9_]+]] = mb.matmul %[[XAT]], %[[BT]] : tensor<16x16xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
// CHECK-NEXT:        %[[SUM:[a-zA-Z0-9_]+]] = mb.add %[[XW]], %[[XAB]] : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
// CHECK-NEXT:        %[[S:[a-zA-Z0-9_]+]] = mb.accum_sum %[[SUM]] : tensor<16x64xf16> -> tensor<16x64xf16>
// CHECK-NEXT:        mb.yield %[[S]] : tensor<16x64xf16>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OUT:[a-zA-Z0-9_]+]] = mb.output_saver %[[ACC]] omap = [1, -1, -1] : tensor<16x64xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:      mb.return %[[OUT]] : tensor<16x4096xf16>
// CHECK-NEXT:    } : (tensor<16x256xf16>, tensor<256x4096xf16>, tensor<256x16xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16>
// CHECK-NEXT:    return %[[Y]] : tensor<16x4096xf16>
func.func @lora_fused(%x: tensor<16x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>, %b: tensor<16x4096xf16>) -> tensor<16x4096xf16> attributes {mk.reference = @lora_ref} {
  %y = mk.graph_kernel (%x, %w, %a, %b) grid = [64, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<16x256xf16> -> tensor<16x64xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<256x4096xf16> -> tensor<64x64xf16>
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 0 : tensor<256x16xf16> -> tensor<64x16xf16>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<16x4096xf16> -> tensor<16x64xf16>
      %xw = mb.matmul %xt, %wt : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %xa = mb.matmul %xt, %at : tensor<16x64xf16>, tensor<64x16xf16> -> tensor<16x16xf16>
      %xab = mb.matmul %xa, %bt : tensor<16x16xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
      %sum = mb.add %xw, %xab : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
      %s = mb.accum_sum %sum : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %s : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<16x64xf16> -> tensor<16x4096xf16>
    mb.return %o : tensor<16x4096xf16>
  } : (tensor<16x256xf16>, tensor<256x4096xf16>, tensor<256x16xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}
