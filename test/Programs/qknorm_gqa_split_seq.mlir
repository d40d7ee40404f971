// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good QK-norm group-query attention, bs = 1 (DESIGN.md section 8):
//   Qn = rms_norm(Q, eps = 1e-6), Vn = rms_norm(V, eps = 1e-6) over the last dim (64)
//   O = (exp(Qn . K) / reduce_sum(exp(Qn . K), dim 2)) . Vn
//   Q [2, 256, 64], K [2, 64, 4096], V [2, 4096, 64], fp16.
// Q's and V's tiles hold whole rows of the normalised (last) dim, so the
// rms_norm runs on the tiles inside the loop body of kernel 1.
// Fused form: attention as a kernel that splits the sequence across the blocks
// plus a small combining kernel (DESIGN.md section 8).
//   Kernel 1, grid [2, 16, 4], forloop 4: grid x over dim 0 (batch x heads),
//   grid y over the 4096-long sequence (K's dim 2, V's dim 1) in 16 chunks,
//   grid z over Q's dim 1 (4 row blocks of 64); the loop walks the
//   block's chunk. Body: s = Q_b . K_t, e = exp(s); accum_sum(e . V_t) is
//   the partial numerator and accum_sum_last(e) the partial denominator.
//   Outputs: numerators tensor<2x256x1024xf16> and denominators tensor<2x256x16xf16>, omap y -> the last dim.
//   Kernel 2, grid [2, 4, 1], forloop 16: the loop walks the 16 chunks
//   (fmap = last dim) and accum_sum's both; num / den after the loop gives
//   sum_j e_j V_j / sum_j e_j = softmax(Q K) V.
// Shared memory: kernel 1 73856 bytes, kernel 2 24832 bytes (limit 98304).

// CHECK-LABEL: func.func @qknorm_gqa_ref(
// CHECK-SAME:  %[[V_Q:[a-zA-Z0-9_]+]]: tensor<2x256x64xf16>, %[[V_K:[a-zA-Z0-9_]+]]: tensor<2x64x4096xf16>, %[[V_V:[a-zA-Z0-9_]+]]: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
// CHECK-NEXT:  %[[V_qn:[a-zA-Z0-9_]+]] = mk.rms_norm %[[V_Q]] eps = 9.9999999999999995E-7 : tensor<2x256x64xf16>
// CHECK-NEXT:  %[[V_vn:[a-zA-Z0-9_]+]] = mk.rms_norm %[[V_V]] eps = 9.9999999999999995E-7 : tensor<2x4096x64xf16>
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mk.matmul %[[V_qn]], %[[V_K]] : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:  %[[V_e:[a-zA-Z0-9_]+]] = mk.exp %[[V_s]] : tensor<2x256x4096xf16>
// CHECK-NEXT:  %[[V_d:[a-zA-Z0-9_]+]] = mk.reduce_sum %[[V_e]] dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
// CHECK-NEXT:  %[[V_p:[a-zA-Z0-9_]+]] = mk.div %[[V_e]], %[[V_d]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.matmul %[[V_p]], %[[V_vn]] : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<2x256x64xf16>
// CHECK-NEXT:  }
func.func @qknorm_gqa_ref(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %qn = mk.rms_norm %Q eps = 1.0e-06 : tensor<2x256x64xf16>
  %vn = mk.rms_norm %V eps = 1.0e-06 : tensor<2x4096x64xf16>
  %s = mk.matmul %qn, %K : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
  %e = mk.exp %s : tensor<2x256x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %p = mk.div %e, %d : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %o = mk.matmul %p, %vn : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
  return %o : tensor<2x256x64xf16>
}

// CHECK-LABEL: func.func @qknorm_gqa_fused(
// CHECK-SAME:  %[[V_q:[a-zA-Z0-9_]+]]: tensor<2x256x64xf16>, %[[V_k:[a-zA-Z0-9_]+]]: tensor<2x64x4096xf16>, %[[V_v:[a-zA-Z0-9_]+]]: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> attributes {mk.reference = @qknorm_gqa_ref} {
// CHECK-NEXT:  %[[V_part:[a-zA-Z0-9_]+]]:2 = mk.graph_kernel(%[[V_q]], %[[V_k]], %[[V_v]]) grid = [2, 16, 4] block = [128, 1, 1] forloop = 4 {
// CHECK-NEXT:  ^bb0(%[[V_Q:[a-zA-Z0-9_]+]]: tensor<2x256x64xf16>, %[[V_K:[a-zA-Z0-9_]+]]: tensor<2x64x4096xf16>, %[[V_V:[a-zA-Z0-9_]+]]: tensor<2x4096x64xf16>):
// CHECK-NEXT:  %[[V_acc:[a-zA-Z0-9_]+]]:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
// CHECK-NEXT:  %[[V_qt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_Q]] imap = [0, -1, 1] fmap = -1 : tensor<2x256x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_kt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_K]] imap = [0, 2, -1] fmap = 2 : tensor<2x64x4096xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_vt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_V]] imap = [0, 1, -1] fmap = 1 : tensor<2x4096x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_qn:[a-zA-Z0-9_]+]] = mb.rms_norm %[[V_qt]] eps = 9.9999999999999995E-7 : tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_vn:[a-zA-Z0-9_]+]] = mb.rms_norm %[[V_vt]] eps = 9.9999999999999995E-7 : tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mb.matmul %[[V_qn]], %[[V_kt]] : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_e:[a-zA-Z0-9_]+]] = mb.exp %[[V_s]] : tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_n:[a-zA-Z0-9_]+]] = mb.matmul %[[V_e]], %[[V_vn]] : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_an:[a-zA-Z0-9_]+]] = mb.accum_sum %[[V_n]] : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_ad:[a-zA-Z0-9_]+]] = mb.accum_sum_last %[[V_e]] : tensor<1x64x64xf16> -> tensor<1x64x1xf16>
// CHECK-NEXT:  mb.yield %[[V_an]], %[[V_ad]] : tensor<1x64x64xf16>, tensor<1x64x1xf16>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_on:[a-zA-Z0-9_]+]] = mb.output_saver %[[V_acc]]#0 omap = [0, 2, 1] : tensor<1x64x64xf16> -> tensor<2x256x1024xf16>
// CHECK-NEXT:  %[[V_od:[a-zA-Z0-9_]+]] = mb.output_saver %[[V_acc]]#1 omap = [0, 2, 1] : tensor<1x64x1xf16> -> tensor<2x256x16xf16>
// CHECK-NEXT:  mb.return %[[V_on]], %[[V_od]] : tensor<2x256x1024xf16>, tensor<2x256x16xf16>
// CHECK-NEXT:  } : (tensor<2x256x64xf16>, tensor<2x64x4096xf16>, tensor<2x4096x64xf16>) -> (tensor<2x256x1024xf16>, tensor<2x256x16xf16>)
// CHECK-NEXT:  %[[V_y:[a-zA-Z0-9_]+]] = mk.graph_kernel(%[[V_part]]#0, %[[V_part]]#1) grid = [2, 4, 1] block = [128, 1, 1] forloop = 16 {
// CHECK-NEXT:  ^bb0(%[[V_N:[a-zA-Z0-9_]+]]: tensor<2x256x1024xf16>, %[[V_D:[a-zA-Z0-9_]+]]: tensor<2x256x16xf16>):
// CHECK-NEXT:  %[[V_tot:[a-zA-Z0-9_]+]]:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
// CHECK-NEXT:  %[[V_nt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_N]] imap = [0, 1, -1] fmap = 2 : tensor<2x256x1024xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_dt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_D]] imap = [0, 1, -1] fmap = 2 : tensor<2x256x16xf16> -> tensor<1x64x1xf16>
// CHECK-NEXT:  %[[V_sn:[a-zA-Z0-9_]+]] = mb.accum_sum %[[V_nt]] : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_sd:[a-zA-Z0-9_]+]] = mb.accum_sum %[[V_dt]] : tensor<1x64x1xf16> -> tensor<1x64x1xf16>
// CHECK-NEXT:  mb.yield %[[V_sn]], %[[V_sd]] : tensor<1x64x64xf16>, tensor<1x64x1xf16>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_r:[a-zA-Z0-9_]+]] = mb.div %[[V_tot]]#0, %[[V_tot]]#1 : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mb.output_saver %[[V_r]] omap = [0, 1, -1] : tensor<1x64x64xf16> -> tensor<2x256x64xf16>
// CHECK-NEXT:  mb.return %[[V_o]] : tensor<2x256x64xf16>
// CHECK-NEXT:  } : (tensor<2x256x1024xf16>, tensor<2x256x16xf16>) -> tensor<2x256x64xf16>
// CHECK-NEXT:  return %[[V_y]] : tensor<2x256x64xf16>
// CHECK-NEXT:  }
func.func @qknorm_gqa_fused(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>, %v: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> attributes {mk.reference = @qknorm_gqa_ref} {
  // Kernel 1: block (bx, by, bz) takes head/batch row bx, sequence chunk by
  // (256 keys) and query rows 64*bz..64*bz+63; the loop walks the chunk in 4 tiles of 64.
  %part:2 = mk.graph_kernel (%q, %k, %v) grid = [2, 16, 4] block = [128, 1, 1] forloop = 4 {
  ^bb0(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, 1] fmap = -1 : tensor<2x256x64xf16> -> tensor<1x64x64xf16>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<2x64x4096xf16> -> tensor<1x64x64xf16>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<2x4096x64xf16> -> tensor<1x64x64xf16>
      %qn = mb.rms_norm %qt eps = 1.0e-06 : tensor<1x64x64xf16>
      %vn = mb.rms_norm %vt eps = 1.0e-06 : tensor<1x64x64xf16>
      %s = mb.matmul %qn, %kt : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %e = mb.exp %s : tensor<1x64x64xf16>
      %n = mb.matmul %e, %vn : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %an = mb.accum_sum %n : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %ad = mb.accum_sum_last %e : tensor<1x64x64xf16> -> tensor<1x64x1xf16>
      mb.yield %an, %ad : tensor<1x64x64xf16>, tensor<1x64x1xf16>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, 1] : tensor<1x64x64xf16> -> tensor<2x256x1024xf16>
    %od = mb.output_saver %acc#1 omap = [0, 2, 1] : tensor<1x64x1xf16> -> tensor<2x256x16xf16>
    mb.return %on, %od : tensor<2x256x1024xf16>, tensor<2x256x16xf16>
  } : (tensor<2x256x64xf16>, tensor<2x64x4096xf16>, tensor<2x4096x64xf16>) -> (tensor<2x256x1024xf16>, tensor<2x256x16xf16>)
  // Kernel 2: sums the 16 partial numerators and denominators and divides.
  %y = mk.graph_kernel (%part#0, %part#1) grid = [2, 4, 1] block = [128, 1, 1] forloop = 16 {
  ^bb0(%N: tensor<2x256x1024xf16>, %D: tensor<2x256x16xf16>):
    %tot:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
      %nt = mb.input_iter %N imap = [0, 1, -1] fmap = 2 : tensor<2x256x1024xf16> -> tensor<1x64x64xf16>
      %dt = mb.input_iter %D imap = [0, 1, -1] fmap = 2 : tensor<2x256x16xf16> -> tensor<1x64x1xf16>
      %sn = mb.accum_sum %nt : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %sd = mb.accum_sum %dt : tensor<1x64x1xf16> -> tensor<1x64x1xf16>
      mb.yield %sn, %sd : tensor<1x64x64xf16>, tensor<1x64x1xf16>
    }
    %r = mb.div %tot#0, %tot#1 : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
    %o = mb.output_saver %r omap = [0, 1, -1] : tensor<1x64x64xf16> -> tensor<2x256x64xf16>
    mb.return %o : tensor<2x256x64xf16>
  } : (tensor<2x256x1024xf16>, tensor<2x256x16xf16>) -> tensor<2x256x64xf16>
  return %y : tensor<2x256x64xf16>
}
