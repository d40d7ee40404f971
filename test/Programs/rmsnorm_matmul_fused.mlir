// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good RMSNorm+MatMul (DESIGN.md section 8, the paper's Fig. 3), bs = 1:
//   O = matmul(rms_norm(X, eps = 1e-6), W), X [2, 4096], W [4096, 6144], fp16.
// One graph-defined kernel: grid 256 over W's columns (24 per block), the loop
// walks the 4096-dim in 32 tiles of 128. It accumulates X_k . W_k (sum) and the
// rms of X (rms_last, eps 1e-6) and divides after the loop:
//   (sum_k X_k W_k) / sqrt(sum x^2 / 4096 + eps) = rms_norm(X) . W
// since the row scale 1/rms commutes with the matmul.
// Shared memory: 512 + 6144 + 96 + 4 + 96 + 96 = 6948 bytes.

// CHECK-LABEL: func.func @rmsnorm_matmul_ref(
// CHECK-SAME:      %{{.*}}: tensor<2x4096xf16>, %{{.*}}: tensor<4096x6144xf16>) -> tensor<2x6144xf16>
// CHECK:         %[[N:[a-zA-Z0-9_]+]] = mk.rms_norm %{{.*}} eps = 9.9999999999999995E-7 : tensor<2x4096xf16>
// CHECK:         %[[O:[a-zA-Z0-9_]+]] = mk.matmul %[[N]], %{{.*}} : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
// CHECK:         return %[[O]]
func.func @rmsnorm_matmul_ref(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = mk.rms_norm %X eps = 1.0e-06 : tensor<2x4096xf16>
  %o = mk.matmul %n, %W : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %o : tensor<2x6144xf16>
}

// CHECK-LABEL: func.func @rmsnorm_matmul_fused(
// CHECK-SAME:      %{{.*}}: tensor<2x4096xf16>, %{{.*}}: tensor<4096x6144xf16>) -> tensor<2x6144xf16> attributes {mk.reference = @rmsnorm_matmul_ref} {
// CHECK:         %[[Y:[a-zA-Z0-9_]+]] = mk.graph_kernel(%{{.*}}, %{{.*}}) grid = [256, 1, 1] block = [128, 1, 1] forloop = 32 {
// CHECK-NEXT:    ^bb0(%[[XA:[a-zA-Z0-9_]+]]: tensor<2x4096xf16>, %[[WA:[a-zA-Z0-9_]+]]: tensor<4096x6144xf16>):
// CHECK-NEXT:      %[[ACC:[a-zA-Z0-9_]+]]:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
// CHECK-NEXT:        %[[XT:[a-zA-Z0-9_]+]] = mb.input_iter %[[XA]] imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
// CHECK-NEXT:        %[[WT:[a-zA-Z0-9_]+]] = mb.input_iter %[[WA]] imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x24xf16>
// CHECK-NEXT:        %[[M:[a-zA-Z0-9_]+]] = mb.matmul %[[XT]], %[[WT]] : tensor<2x128xf16>, tensor<128x24xf16> -> tensor<2x24xf16>
// CHECK-NEXT:        %[[R:[a-zA-Z0-9_]+]] = mb.accum_rms_last %[[XT]] eps = 9.9999999999999995E-7 : tensor<2x128xf16> -> tensor<2x1xf16>
// CHECK-NEXT:        %[[S:[a-zA-Z0-9_]+]] = mb.accum_sum %[[M]] : tensor<2x24xf16> -> tensor<2x24xf16>
// CHECK-NEXT:        mb.yield %[[R]], %[[S]] : tensor<2x1xf16>, tensor<2x24xf16>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[Q:[a-zA-Z0-9_]+]] = mb.div %[[ACC]]#1, %[[ACC]]#0 : tensor<2x24xf16>, tensor<2x1xf16> -> tensor<2x24xf16>
// CHECK-NEXT:      %[[OUT:[a-zA-Z0-9_]+]] = mb.output_saver %[[Q]] omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
// CHECK-NEXT:      mb.return %[[OUT]] : tensor<2x6144xf16>
// CHECK-NEXT:    } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
// CHECK-NEXT:    return %[[Y]] : tensor<2x6144xf16>
func.func @rmsnorm_matmul_fused(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> attributes {mk.reference = @rmsnorm_matmul_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1] forloop = 32 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x24xf16>
      %m = mb.matmul %xt, %wt : tensor<2x128xf16>, tensor<128x24xf16> -> tensor<2x24xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x128xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x24xf16> -> tensor<2x24xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x24xf16>, tensor<2x1xf16> -> tensor<2x24xf16>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
    mb.return %o : tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
