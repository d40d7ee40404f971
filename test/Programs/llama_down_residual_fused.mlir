// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good Llama down projection with its residual (issue 31 item 2):
//   out = residual + H . W_down, H [8, 256] (the MLP's gated activations),
//   W_down [256, 128], residual [8, 128] (the layer's input), fp16.
// One graph-defined kernel: grid 4 over the columns of W_down (32 per
// block), the loop walks the shared 256-dim in 4 tiles of 64; the residual
// is an epilogue input ([B21]): the block's 8x32 tile, read once after the
// loop and added to the accumulated product before the output saver.
// Shared memory: 1024 (H) + 4096 (W) + 512 (H.W) + 1024 (acc, f32)
//                + 512 (residual) + 512 (sum) = 7680 bytes.

// CHECK-LABEL: func.func @llama_down_residual_ref(
// CHECK-SAME:      %[[H:[a-zA-Z0-9_]+]]: tensor<8x256xf16>, %[[W:[a-zA-Z0-9_]+]]: tensor<256x128xf16>, %[[R:[a-zA-Z0-9_]+]]: tensor<8x128xf16>) -> tensor<8x128xf16>
// CHECK:         %[[M:[a-zA-Z0-9_]+]] = mk.matmul %[[H]], %[[W]] : tensor<8x256xf16>, tensor<256x128xf16> -> tensor<8x128xf16>
// CHECK:         %[[O:[a-zA-Z0-9_]+]] = mk.add %[[R]], %[[M]]
// CHECK:         return %[[O]]
func.func @llama_down_residual_ref(%h: tensor<8x256xf16>, %w: tensor<256x128xf16>, %r: tensor<8x128xf16>) -> tensor<8x128xf16> {
  %m = mk.matmul %h, %w : tensor<8x256xf16>, tensor<256x128xf16> -> tensor<8x128xf16>
  %o = mk.add %r, %m : tensor<8x128xf16>, tensor<8x128xf16> -> tensor<8x128xf16>
  return %o : tensor<8x128xf16>
}

// CHECK-LABEL: func.func @llama_down_residual(
// CHECK-SAME:      attributes {mk.reference = @llama_down_residual_ref} {
// CHECK:         %[[Y:[a-zA-Z0-9_]+]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}}) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
// CHECK-NEXT:    ^bb0(%[[HA:[a-zA-Z0-9_]+]]: tensor<8x256xf16>, %[[WA:[a-zA-Z0-9_]+]]: tensor<256x128xf16>, %[[RA:[a-zA-Z0-9_]+]]: tensor<8x128xf16>):
// CHECK-NEXT:      %[[ACC:[a-zA-Z0-9_]+]] = mb.for_loop -> (tensor<8x32xf16>) {
// CHECK-NEXT:        %[[HT:[a-zA-Z0-9_]+]] = mb.input_iter %[[HA]] imap = [-1, -1, -1] fmap = 1 : tensor<8x256xf16> -> tensor<8x64xf16>
// CHECK-NEXT:        %[[WT:[a-zA-Z0-9_]+]] = mb.input_iter %[[WA]] imap = [1, -1, -1] fmap = 0 : tensor<256x128xf16> -> tensor<64x32xf16>
// CHECK-NEXT:        %[[HW:[a-zA-Z0-9_]+]] = mb.matmul %[[HT]], %[[WT]] : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT:        %[[S:[a-zA-Z0-9_]+]] = mb.accum_sum %[[HW]] : tensor<8x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT:        mb.yield %[[S]] : tensor<8x32xf16>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[RT:[a-zA-Z0-9_]+]] = mb.input_iter %[[RA]] imap = [1, -1, -1] fmap = -1 : tensor<8x128xf16> -> tensor<8x32xf16>
// CHECK-NEXT:      %[[SUM:[a-zA-Z0-9_]+]] = mb.add %[[RT]], %[[ACC]] : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT:      %[[OUT:[a-zA-Z0-9_]+]] = mb.output_saver %[[SUM]] omap = [1, -1, -1] : tensor<8x32xf16> -> tensor<8x128xf16>
// CHECK-NEXT:      mb.return %[[OUT]] : tensor<8x128xf16>
// CHECK-NEXT:    } : (tensor<8x256xf16>, tensor<256x128xf16>, tensor<8x128xf16>) -> tensor<8x128xf16>
// CHECK-NEXT:    return %[[Y]] : tensor<8x128xf16>
func.func @llama_down_residual(%h: tensor<8x256xf16>, %w: tensor<256x128xf16>, %r: tensor<8x128xf16>) -> tensor<8x128xf16> attributes {mk.reference = @llama_down_residual_ref} {
  %y = mk.graph_kernel (%h, %w, %r) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%H: tensor<8x256xf16>, %W: tensor<256x128xf16>, %R: tensor<8x128xf16>):
    %acc = mb.for_loop -> (tensor<8x32xf16>) {
      %ht = mb.input_iter %H imap = [-1, -1, -1] fmap = 1 : tensor<8x256xf16> -> tensor<8x64xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<256x128xf16> -> tensor<64x32xf16>
      %hw = mb.matmul %ht, %wt : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
      %s = mb.accum_sum %hw : tensor<8x32xf16> -> tensor<8x32xf16>
      mb.yield %s : tensor<8x32xf16>
    }
    %rt = mb.input_iter %R imap = [1, -1, -1] fmap = -1 : tensor<8x128xf16> -> tensor<8x32xf16>
    %sum = mb.add %rt, %acc : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
    %o = mb.output_saver %sum omap = [1, -1, -1] : tensor<8x32xf16> -> tensor<8x128xf16>
    mb.return %o : tensor<8x128xf16>
  } : (tensor<8x256xf16>, tensor<256x128xf16>, tensor<8x128xf16>) -> tensor<8x128xf16>
  return %y : tensor<8x128xf16>
}
