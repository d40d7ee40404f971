// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good multi-query attention, bs = 1 (mirage-study.md section 5.1):
//   O = (exp(Q . K) / reduce_sum(exp(Q . K), dim 2)) . V
//   Q [1, 1024, 64], K [1, 64, 4096], V [1, 4096, 64], fp16.
// Fused form: attention as a kernel that splits the sequence across the blocks
// plus a small combining kernel (DESIGN.md section 8).
//   Kernel 1, grid [1, 16, 16], forloop 4: grid x over dim 0 (batch x heads),
//   grid y over the 4096-long sequence (K's dim 2, V's dim 1) in 16 chunks,
//   grid z over Q's dim 1 (16 row blocks of 64); the loop walks the
//   block's chunk. Body: s = Q_b . K_t, e = exp(s); accum_sum(e . V_t) is
//   the partial numerator and accum_sum_last(e) the partial denominator.
//   Outputs: numerators tensor<1x1024x1024xf16> and denominators tensor<1x1024x16xf16>, omap y -> the last dim.
//   Kernel 2, grid [1, 16, 1], forloop 16: the loop walks the 16 chunks
//   (fmap = last dim) and accum_sum's both; num / den after the loop gives
//   sum_j e_j V_j / sum_j e_j = softmax(Q K) V.
// Shared memory: kernel 1 57472 bytes, kernel 2 24832 bytes (limit 98304).

// CHECK-LABEL: func.func @mqa_ref(
// CHECK-SAME:  %[[V_Q:[a-zA-Z0-9_]+]]: tensor<1x1024x64xf16>, %[[V_K:[a-zA-Z0-9_]+]]: tensor<1x64x4096xf16>, %[[V_V:[a-zA-Z0-9_]+]]: tensor<1x4096x64xf16>) -> tensor<1x1024x64xf16> {
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mk.matmul %[[V_Q]], %[[V_K]] : tensor<1x1024x64xf16>, tensor<1x64x4096xf16> -> tensor<1x1024x4096xf16>
// CHECK-NEXT:  %[[V_e:[a-zA-Z0-9_]+]] = mk.exp %[[V_s]] : tensor<1x1024x4096xf16>
// CHECK-NEXT:  %[[V_d:[a-zA-Z0-9_]+]] = mk.reduce_sum %[[V_e]] dim = 2 : tensor<1x1024x4096xf16> -> tensor<1x1024x1xf16>
// CHECK-NEXT:  %[[V_p:[a-zA-Z0-9_]+]] = mk.div %[[V_e]], %[[V_d]] : tensor<1x1024x4096xf16>, tensor<1x1024x1xf16> -> tensor<1x1024x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.matmul %[[V_p]], %[[V_V]] : tensor<1x1024x4096xf16>, tensor<1x4096x64xf16> -> tensor<1x1024x64xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<1x1024x64xf16>
// CHECK-NEXT:  }
func.func @mqa_ref(%Q: tensor<1x1024x64xf16>, %K: tensor<1x64x4096xf16>, %V: tensor<1x4096x64xf16>) -> tensor<1x1024x64xf16> {
  %s = mk.matmul %Q, %K : tensor<1x1024x64xf16>, tensor<1x64x4096xf16> -> tensor<1x1024x4096xf16>
  %e = mk.exp %s : tensor<1x1024x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<1x1024x4096xf16> -> tensor<1x1024x1xf16>
  %p = mk.div %e, %d : tensor<1x1024x4096xf16>, tensor<1x1024x1xf16> -> tensor<1x1024x4096xf16>
  %o = mk.matmul %p, %V : tensor<1x1024x4096xf16>, tensor<1x4096x64xf16> -> tensor<1x1024x64xf16>
  return %o : tensor<1x1024x64xf16>
}

// CHECK-LABEL: func.func @mqa_fused(
// CHECK-SAME:  %[[V_q:[a-zA-Z0-9_]+]]: tensor<1x1024x64xf16>, %[[V_k:[a-zA-Z0-9_]+]]: tensor<1x64x4096xf16>, %[[V_v:[a-zA-Z0-9_]+]]: tensor<1x4096x64xf16>) -> tensor<1x1024x64xf16> attributes {mk.reference = @mqa_ref} {
// CHECK-NEXT:  %[[V_part:[a-zA-Z0-9_]+]]:2 = mk.graph_kernel(%[[V_q]], %[[V_k]], %[[V_v]]) grid = [1, 16, 16] block = [128, 1, 1] forloop = 4 {
// CHECK-NEXT:  ^bb0(%[[V_Q:[a-zA-Z0-9_]+]]: tensor<1x1024x64xf16>, %[[V_K:[a-zA-Z0-9_]+]]: tensor<1x64x4096xf16>, %[[V_V:[a-zA-Z0-9_]+]]: tensor<1x4096x64xf16>):
// CHECK-NEXT:  %[[V_acc:[a-zA-Z0-9_]+]]:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
// CHECK-NEXT:  %[[V_qt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_Q]] imap = [0, -1, 1] fmap = -1 : tensor<1x1024x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_kt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_K]] imap = [0, 2, -1] fmap = 2 : tensor<1x64x4096xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_vt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_V]] imap = [0, 1, -1] fmap = 1 : tensor<1x4096x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mb.matmul %[[V_qt]], %[[V_kt]] : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_e:[a-zA-Z0-9_]+]] = mb.exp %[[V_s]] : tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_n:[a-zA-Z0-9_]+]] = mb.matmul %[[V_e]], %[[V_vt]] : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_an:[a-zA-Z0-9_]+]] = mb.accum_sum %[[V_n]] : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_ad:[a-zA-Z0-9_]+]] = mb.accum_sum_last %[[V_e]] : tensor<1x64x64xf16> -> tensor<1x64x1xf16>
// CHECK-NEXT:  mb.yield %[[V_an]], %[[V_ad]] : tensor<1x64x64xf16>, tensor<1x64x1xf16>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_on:[a-zA-Z0-9_]+]] = mb.output_saver %[[V_acc]]#0 omap = [0, 2, 1] : tensor<1x64x64xf16> -> tensor<1x1024x1024xf16>
// CHECK-NEXT:  %[[V_od:[a-zA-Z0-9_]+]] = mb.output_saver %[[V_acc]]#1 omap = [0, 2, 1] : tensor<1x64x1xf16> -> tensor<1x1024x16xf16>
// CHECK-NEXT:  mb.return %[[V_on]], %[[V_od]] : tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>
// CHECK-NEXT:  } : (tensor<1x1024x64xf16>, tensor<1x64x4096xf16>, tensor<1x4096x64xf16>) -> (tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>)
// CHECK-NEXT:  %[[V_y:[a-zA-Z0-9_]+]] = mk.graph_kernel(%[[V_part]]#0, %[[V_part]]#1) grid = [1, 16, 1] block = [128, 1, 1] forloop = 16 {
// CHECK-NEXT:  ^bb0(%[[V_N:[a-zA-Z0-9_]+]]: tensor<1x1024x1024xf16>, %[[V_D:[a-zA-Z0-9_]+]]: tensor<1x1024x16xf16>):
// CHECK-NEXT:  %[[V_tot:[a-zA-Z0-9_]+]]:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
// CHECK-NEXT:  %[[V_nt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_N]] imap = [0, 1, -1] fmap = 2 : tensor<1x1024x1024xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_dt:[a-zA-Z0-9_]+]] = mb.input_iter %[[V_D]] imap = [0, 1, -1] fmap = 2 : tensor<1x1024x16xf16> -> tensor<1x64x1xf16>
// CHECK-NEXT:  %[[V_sn:[a-zA-Z0-9_]+]] = mb.accum_sum %[[V_nt]] : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_sd:[a-zA-Z0-9_]+]] = mb.accum_sum %[[V_dt]] : tensor<1x64x1xf16> -> tensor<1x64x1xf16>
// CHECK-NEXT:  mb.yield %[[V_sn]], %[[V_sd]] : tensor<1x64x64xf16>, tensor<1x64x1xf16>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_r:[a-zA-Z0-9_]+]] = mb.div %[[V_tot]]#0, %[[V_tot]]#1 : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mb.output_saver %[[V_r]] omap = [0, 1, -1] : tensor<1x64x64xf16> -> tensor<1x1024x64xf16>
// CHECK-NEXT:  mb.return %[[V_o]] : tensor<1x1024x64xf16>
// CHECK-NEXT:  } : (tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>) -> tensor<1x1024x64xf16>
// CHECK-NEXT:  return %[[V_y]] : tensor<1x1024x64xf16>
// CHECK-NEXT:  }
func.func @mqa_fused(%q: tensor<1x1024x64xf16>, %k: tensor<1x64x4096xf16>, %v: tensor<1x4096x64xf16>) -> tensor<1x1024x64xf16> attributes {mk.reference = @mqa_ref} {
  // Kernel 1: block (bx, by, bz) takes head/batch row bx, sequence chunk by
  // (256 keys) and query rows 64*bz..64*bz+63; the loop walks the chunk in 4 tiles of 64.
  %part:2 = mk.graph_kernel (%q, %k, %v) grid = [1, 16, 16] block = [128, 1, 1] forloop = 4 {
  ^bb0(%Q: tensor<1x1024x64xf16>, %K: tensor<1x64x4096xf16>, %V: tensor<1x4096x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, 1] fmap = -1 : tensor<1x1024x64xf16> -> tensor<1x64x64xf16>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<1x64x4096xf16> -> tensor<1x64x64xf16>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<1x4096x64xf16> -> tensor<1x64x64xf16>
      %s = mb.matmul %qt, %kt : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %e = mb.exp %s : tensor<1x64x64xf16>
      %n = mb.matmul %e, %vt : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %an = mb.accum_sum %n : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %ad = mb.accum_sum_last %e : tensor<1x64x64xf16> -> tensor<1x64x1xf16>
      mb.yield %an, %ad : tensor<1x64x64xf16>, tensor<1x64x1xf16>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, 1] : tensor<1x64x64xf16> -> tensor<1x1024x1024xf16>
    %od = mb.output_saver %acc#1 omap = [0, 2, 1] : tensor<1x64x1xf16> -> tensor<1x1024x16xf16>
    mb.return %on, %od : tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>
  } : (tensor<1x1024x64xf16>, tensor<1x64x4096xf16>, tensor<1x4096x64xf16>) -> (tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>)
  // Kernel 2: sums the 16 partial numerators and denominators and divides.
  %y = mk.graph_kernel (%part#0, %part#1) grid = [1, 16, 1] block = [128, 1, 1] forloop = 16 {
  ^bb0(%N: tensor<1x1024x1024xf16>, %D: tensor<1x1024x16xf16>):
    %tot:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
      %nt = mb.input_iter %N imap = [0, 1, -1] fmap = 2 : tensor<1x1024x1024xf16> -> tensor<1x64x64xf16>
      %dt = mb.input_iter %D imap = [0, 1, -1] fmap = 2 : tensor<1x1024x16xf16> -> tensor<1x64x1xf16>
      %sn = mb.accum_sum %nt : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %sd = mb.accum_sum %dt : tensor<1x64x1xf16> -> tensor<1x64x1xf16>
      mb.yield %sn, %sd : tensor<1x64x64xf16>, tensor<1x64x1xf16>
    }
    %r = mb.div %tot#0, %tot#1 : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
    %o = mb.output_saver %r omap = [0, 1, -1] : tensor<1x64x64xf16> -> tensor<1x1024x64xf16>
    mb.return %o : tensor<1x1024x64xf16>
  } : (tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>) -> tensor<1x1024x64xf16>
  return %y : tensor<1x1024x64xf16>
}
