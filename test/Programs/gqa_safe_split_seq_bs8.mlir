// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// Known-good group-query attention with a safe softmax (the max subtracted), bs = 8:
//   S = Q . K,  E = exp(S - reduce_max(S, dim 2)),  O = (E / reduce_sum(E, dim 2)) . V
//   Q [16, 256, 64], K [16, 64, 4096], V [16, 4096, 64], fp16 (bench/programs/gqa_safe_bs8.mlir).
// The split-sequence form of gqa_safe_split_seq.mlir (bs = 1) at bs = 8, with
// the sequence cut into 4 chunks of 1024 keys instead of 16 of 256: the batch
// already fills the device, so fewer chunks pay (modelled on H100 23.4 us
// against 25.8 us with 16 chunks; the search's one kernel models 23.0 us).
// Kernel 1 keeps each chunk's numerator and denominator relative to the
// chunk's running maximum (accum_rescaled_sum) and saves that maximum
// (accum_max); kernel 2 walks the chunks with the same rescaling and divides.
// Equivalent over the reals and accepted by the f16 numerics check
// (test/Verify/equivalent/known-good-gqa-safe-bs8.mlir).

// CHECK-LABEL: func.func @gqa_safe_ref(
// CHECK:         mk.reduce_max
// CHECK:         mk.sub
// CHECK-LABEL: func.func @gqa_safe_split_seq(
// CHECK:         mk.graph_kernel
// CHECK:           mb.reduce_max
// CHECK:           mb.accum_rescaled_sum
// CHECK:           mb.accum_rescaled_sum
// CHECK:           mb.accum_max
// CHECK:         mk.graph_kernel
// CHECK:           mb.accum_rescaled_sum
// CHECK:           mb.accum_rescaled_sum
// CHECK:           mb.div
// CHECK-NOT:     mk.graph_kernel

func.func @gqa_safe_ref(%Q: tensor<16x256x64xf16>, %K: tensor<16x64x4096xf16>, %V: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %s = mk.matmul %Q, %K : tensor<16x256x64xf16>, tensor<16x64x4096xf16> -> tensor<16x256x4096xf16>
  %m = mk.reduce_max %s dim = 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
  %c = mk.sub %s, %m : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
  %e = mk.exp %c : tensor<16x256x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
  %p = mk.div %e, %d : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
  %o = mk.matmul %p, %V : tensor<16x256x4096xf16>, tensor<16x4096x64xf16> -> tensor<16x256x64xf16>
  return %o : tensor<16x256x64xf16>
}
func.func @gqa_safe_split_seq(%q: tensor<16x256x64xf16>, %k: tensor<16x64x4096xf16>, %v: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> attributes {mk.reference = @gqa_safe_ref} {
  // Kernel 1: block (bx, by, bz) takes head/batch row bx, sequence chunk by
  // (1024 keys) and query rows 64*bz..64*bz+63; the loop walks the chunk in 16 tiles of 64.
  %part:3 = mk.graph_kernel (%q, %k, %v) grid = [16, 4, 4] block = [128, 1, 1] forloop = 16 {
  ^bb0(%Q: tensor<16x256x64xf16>, %K: tensor<16x64x4096xf16>, %V: tensor<16x4096x64xf16>):
    %acc:3 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>, tensor<1x64x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, 1] fmap = -1 : tensor<16x256x64xf16> -> tensor<1x64x64xf16>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<16x64x4096xf16> -> tensor<1x64x64xf16>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<16x4096x64xf16> -> tensor<1x64x64xf16>
      %s = mb.matmul %qt, %kt : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %m = mb.reduce_max %s dim = 2 : tensor<1x64x64xf16> -> tensor<1x64x1xf16>
      %c = mb.sub %s, %m : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
      %e = mb.exp %c : tensor<1x64x64xf16>
      %n = mb.matmul %e, %vt : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %an = mb.accum_rescaled_sum %n, %m : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
      %z = mb.reduce_sum %e dim = 2 : tensor<1x64x64xf16> -> tensor<1x64x1xf16>
      %ad = mb.accum_rescaled_sum %z, %m : tensor<1x64x1xf16>, tensor<1x64x1xf16> -> tensor<1x64x1xf16>
      %am = mb.accum_max %m : tensor<1x64x1xf16> -> tensor<1x64x1xf16>
      mb.yield %an, %ad, %am : tensor<1x64x64xf16>, tensor<1x64x1xf16>, tensor<1x64x1xf16>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, 1] : tensor<1x64x64xf16> -> tensor<16x256x256xf16>
    %od = mb.output_saver %acc#1 omap = [0, 2, 1] : tensor<1x64x1xf16> -> tensor<16x256x4xf16>
    %om = mb.output_saver %acc#2 omap = [0, 2, 1] : tensor<1x64x1xf16> -> tensor<16x256x4xf16>
    mb.return %on, %od, %om : tensor<16x256x256xf16>, tensor<16x256x4xf16>, tensor<16x256x4xf16>
  } : (tensor<16x256x64xf16>, tensor<16x64x4096xf16>, tensor<16x4096x64xf16>) -> (tensor<16x256x256xf16>, tensor<16x256x4xf16>, tensor<16x256x4xf16>)
  // Kernel 2: sums the 4 partial numerators and denominators and divides.
  %y = mk.graph_kernel (%part#0, %part#1, %part#2) grid = [16, 4, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%N: tensor<16x256x256xf16>, %D: tensor<16x256x4xf16>, %M: tensor<16x256x4xf16>):
    %tot:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
      %nt = mb.input_iter %N imap = [0, 1, -1] fmap = 2 : tensor<16x256x256xf16> -> tensor<1x64x64xf16>
      %dt = mb.input_iter %D imap = [0, 1, -1] fmap = 2 : tensor<16x256x4xf16> -> tensor<1x64x1xf16>
      %mt = mb.input_iter %M imap = [0, 1, -1] fmap = 2 : tensor<16x256x4xf16> -> tensor<1x64x1xf16>
      %sn = mb.accum_rescaled_sum %nt, %mt : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
      %sd = mb.accum_rescaled_sum %dt, %mt : tensor<1x64x1xf16>, tensor<1x64x1xf16> -> tensor<1x64x1xf16>
      mb.yield %sn, %sd : tensor<1x64x64xf16>, tensor<1x64x1xf16>
    }
    %r = mb.div %tot#0, %tot#1 : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
    %o = mb.output_saver %r omap = [0, 1, -1] : tensor<1x64x64xf16> -> tensor<16x256x64xf16>
    mb.return %o : tensor<16x256x64xf16>
  } : (tensor<16x256x256xf16>, tensor<16x256x4xf16>, tensor<16x256x4xf16>) -> tensor<16x256x64xf16>
  return %y : tensor<16x256x64xf16>
}
