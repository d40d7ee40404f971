// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good nTrans (normalised-transformer update), bs = 1 (DESIGN.md section 8):
//   O = rms_norm(X + alpha * (rms_norm(H) - X)), eps = 1e-6 over the last dim,
//   H, X [8, 4096], alpha [1, 4096], fp16.
// Fused form: one graph-defined kernel, grid 8 over the rows (one row per
// block), forloop = 1. Both normalisations need a whole row before any element
// of their result can be written, and post-loop ops only see accumulators, so
// the row is not split by the loop: each block loads whole rows of H and X
// (and the broadcast alpha), normalises H, forms the residual update in a
// thread graph (in registers), normalises it and passes it through a one-step
// accum_sum (F = 1: the identity) to the output.
// Shared memory: 6 tiles of 8192 bytes (H, X, alpha, rms_norm(H), the
// thread-graph result, its rms_norm) + the accumulator 8192 = 57344 bytes.

// CHECK-LABEL: func.func @ntrans_ref(
// CHECK-SAME:  %[[V_H:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[V_X:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[V_alpha:[a-zA-Z0-9_]+]]: tensor<1x4096xf16>) -> tensor<8x4096xf16> {
// CHECK-NEXT:  %[[V_hn:[a-zA-Z0-9_]+]] = mk.rms_norm %[[V_H]] eps = 9.9999999999999995E-7 : tensor<8x4096xf16>
// CHECK-NEXT:  %[[V_d:[a-zA-Z0-9_]+]] = mk.sub %[[V_hn]], %[[V_X]] : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:  %[[V_ad:[a-zA-Z0-9_]+]] = mk.mul %[[V_alpha]], %[[V_d]] : tensor<1x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:  %[[V_y:[a-zA-Z0-9_]+]] = mk.add %[[V_X]], %[[V_ad]] : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.rms_norm %[[V_y]] eps = 9.9999999999999995E-7 : tensor<8x4096xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<8x4096xf16>
// CHECK-NEXT:  }
func.func @ntrans_ref(%H: tensor<8x4096xf16>, %X: tensor<8x4096xf16>, %alpha: tensor<1x4096xf16>) -> tensor<8x4096xf16> {
  %hn = mk.rms_norm %H eps = 1.0e-06 : tensor<8x4096xf16>
  %d = mk.sub %hn, %X : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  %ad = mk.mul %alpha, %d : tensor<1x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  %y = mk.add %X, %ad : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  %o = mk.rms_norm %y eps = 1.0e-06 : tensor<8x4096xf16>
  return %o : tensor<8x4096xf16>
}

// CHECK-LABEL: func.func @ntrans_fused(
// CHECK-SAME:  %[[V_h:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[V_x:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[V_alpha:[a-zA-Z0-9_]+]]: tensor<1x4096xf16>) -> tensor<8x4096xf16> attributes {mk.reference = @ntrans_ref} {
// CHECK-NEXT:  %[[V_r:[a-zA-Z0-9_]+]] = mk.graph_kernel(%[[V_h]], %[[V_x]], %[[V_alpha]]) grid = [8, 1, 1] block = [128, 1, 1] forloop = 1 {
// CHECK-NEXT:  ^bb0(%[[V_H:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[V_X:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[V_AL:[a-zA-Z0-9_]+]]: tensor<1x4096xf16>):
// CHECK-NEXT:  %[[V_acc:[a-zA-Z0-9_]+]] = mb.for_loop -> (tensor<1x4096xf16>) {
// CHECK-NEXT:  %[[V_ht:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_H]] imap = [0, -1, -1] fmap = -1 : tensor<8x4096xf16> -> tensor<1x4096xf16>
// CHECK-NEXT:  %[[V_xt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_X]] imap = [0, -1, -1] fmap = -1 : tensor<8x4096xf16> -> tensor<1x4096xf16>
// CHECK-NEXT:  %[[V_at:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_AL]] imap = [-1, -1, -1] fmap = -1 : tensor<1x4096xf16> -> tensor<1x4096xf16>
// CHECK-NEXT:  %[[V_hn:[a-zA-Z0-9_]+]] = mb.rms_norm %[[V_ht]] eps = 9.9999999999999995E-7 : tensor<1x4096xf16>
// CHECK-NEXT:  %[[V_y:[a-zA-Z0-9_]+]] = mt.thread_graph(%[[V_xt]], %[[V_at]], %[[V_hn]]) : (tensor<1x4096xf16>, tensor<1x4096xf16>, tensor<1x4096xf16>) -> tensor<1x4096xf16> {
// CHECK-NEXT:  ^bb0(%[[V_xe:[a-zA-Z0-9_]+]]: f16, %[[V_ae:[a-zA-Z0-9_]+]]: f16, %[[V_he:[a-zA-Z0-9_]+]]: f16):
// CHECK-NEXT:  %[[V_de:[a-zA-Z0-9_]+]] = mt.sub %[[V_he]], %[[V_xe]] : f16
// CHECK-NEXT:  %[[V_me:[a-zA-Z0-9_]+]] = mt.mul %[[V_ae]], %[[V_de]] : f16
// CHECK-NEXT:  %[[V_ye:[a-zA-Z0-9_]+]] = mt.add %[[V_xe]], %[[V_me]] : f16
// CHECK-NEXT:  mt.yield %[[V_ye]] : f16
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_yn:[a-zA-Z0-9_]+]] = mb.rms_norm %[[V_y]] eps = 9.9999999999999995E-7 : tensor<1x4096xf16>
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mb.accum_sum %[[V_yn]] : tensor<1x4096xf16> -> tensor<1x4096xf16>
// CHECK-NEXT:  mb.yield %[[V_s]] : tensor<1x4096xf16>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mb.output_saver %[[V_acc]] omap = [0, -1, -1] : tensor<1x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:  mb.return %[[V_o]] : tensor<8x4096xf16>
// CHECK-NEXT:  } : (tensor<8x4096xf16>, tensor<8x4096xf16>, tensor<1x4096xf16>) -> tensor<8x4096xf16>
// CHECK-NEXT:  return %[[V_r]] : tensor<8x4096xf16>
// CHECK-NEXT:  }
func.func @ntrans_fused(%h: tensor<8x4096xf16>, %x: tensor<8x4096xf16>, %alpha: tensor<1x4096xf16>) -> tensor<8x4096xf16> attributes {mk.reference = @ntrans_ref} {
  %r = mk.graph_kernel (%h, %x, %alpha) grid = [8, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%H: tensor<8x4096xf16>, %X: tensor<8x4096xf16>, %AL: tensor<1x4096xf16>):
    %acc = mb.for_loop -> (tensor<1x4096xf16>) {
      %ht = mb.input_iter %H imap = [0, -1, -1] fmap = -1 : tensor<8x4096xf16> -> tensor<1x4096xf16>
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<8x4096xf16> -> tensor<1x4096xf16>
      %at = mb.input_iter %AL imap = [-1, -1, -1] fmap = -1 : tensor<1x4096xf16> -> tensor<1x4096xf16>
      %hn = mb.rms_norm %ht eps = 1.0e-06 : tensor<1x4096xf16>
      %y = mt.thread_graph (%xt, %at, %hn) : (tensor<1x4096xf16>, tensor<1x4096xf16>, tensor<1x4096xf16>) -> tensor<1x4096xf16> {
      ^bb0(%xe: f16, %ae: f16, %he: f16):
        %de = mt.sub %he, %xe : f16
        %me = mt.mul %ae, %de : f16
        %ye = mt.add %xe, %me : f16
        mt.yield %ye : f16
      }
      %yn = mb.rms_norm %y eps = 1.0e-06 : tensor<1x4096xf16>
      %s = mb.accum_sum %yn : tensor<1x4096xf16> -> tensor<1x4096xf16>
      mb.yield %s : tensor<1x4096xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x4096xf16> -> tensor<8x4096xf16>
    mb.return %o : tensor<8x4096xf16>
  } : (tensor<8x4096xf16>, tensor<8x4096xf16>, tensor<1x4096xf16>) -> tensor<8x4096xf16>
  return %r : tensor<8x4096xf16>
}
