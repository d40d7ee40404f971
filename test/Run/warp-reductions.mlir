// REQUIRES: libomp
// RUN: mirage-run %s --func=softmax_48 | FileCheck %s --check-prefix=SOFTMAX
// RUN: mirage-run %s --func=softmax_48 --omp-threads=0 | FileCheck %s --check-prefix=SOFTMAX
// RUN: mirage-run %s --func=rms_100 | FileCheck %s --check-prefix=RMS
// RUN: mirage-run %s --func=rms_100 --omp-threads=0 | FileCheck %s --check-prefix=RMS
// RUN: mirage-run %s --func=rms_100 --omp-threads=128 | FileCheck %s --check-prefix=RMS
// RUN: mirage-run %s --func=softmax_48 --omp-threads=3 | FileCheck %s --check-prefix=SOFTMAX
// RUN: mirage-run %s --func=short_rows | FileCheck %s --check-prefix=SHORT
// RUN: mirage-run %s --func=short_rows --omp-threads=0 | FileCheck %s --check-prefix=SHORT
// RUN: mirage-run %s --func=one_short_row --omp-threads=0 | FileCheck %s --check-prefix=ONE
// RUN: mirage-run %s --func=accums_40 | FileCheck %s --check-prefix=ACC40
// RUN: mirage-run %s --func=accums_40 --omp-threads=0 | FileCheck %s --check-prefix=ACC40
// RUN: mirage-run %s --func=accums_100 | FileCheck %s --check-prefix=ACC100
// RUN: mirage-run %s --func=accums_100 --omp-threads=0 | FileCheck %s --check-prefix=ACC100
// RUN: mirage-run %s --func=many_rows --omp-threads=0 | FileCheck %s --check-prefix=MANY
// RUN: mirage-run %s --func=more_rows_than_threads --omp-threads=0 | FileCheck %s --check-prefix=MORE
// RUN: mirage-run %s --func=softmax_wrapped | FileCheck %s --check-prefix=WRAPPED
// RUN: mirage-run %s --func=softmax_wrapped --omp-threads=0 | FileCheck %s --check-prefix=WRAPPED
// RUN: mirage-opt %s --mirage-to-gpu | FileCheck %s --check-prefix=IR

// Row reductions are cooperative (docs/lowering.md): each thread reduces a
// strided part of a row, a gpu.shuffle xor butterfly combines the lanes of
// the row, and for few long rows one shared-memory step combines the warps.
// On the CPU path the shuffles are emulated lane by lane, so these kernels
// run the GPU's algorithm, with one OpenMP thread per GPU thread
// (--omp-threads=0: real warps, partial ones included), with teams of 2
// (the default: a "warp" of 2 lanes), of 3, and of 128 for a block of 100
// (the threads past the block only join the shuffles), and match the
// interpreter:
// - softmax_48: blocks of 48 threads (a full warp and one of 16), 12 rows
//   of 100 per block: 4 lanes per row, rows 8..11 on the partial warp;
//   reduce_max, exp, reduce_sum, div;
// - rms_100: blocks of 100 threads (the fourth warp has 4 lanes), 2 rows of
//   320: every warp on both rows, then the warps' totals through shared
//   memory;
// - short_rows: rows of 5 (3 rows, 128 threads: segments of 8 lanes, 3 of
//   them idle past the row); one_short_row: one row of 20 max-reduced by a
//   warp, lanes 20..31 the identity (-inf);
// - accums_40 / accums_100: sum_last, mean_last, rms_last and sum_to
//   accumulated over 4 loop iterations, in segments (40 threads, 5 rows of
//   8 lanes, the fifth on the partial warp of 8 lanes) and by the whole
//   block (100 threads, 2 rows);
// - many_rows: 64 rows of 16 with 128 threads (2 lanes a row);
//   more_rows_than_threads: 96 rows of 3 with 32 threads (a row a thread,
//   3 rounds, no shuffle);
// - softmax_wrapped: the mk-level safe softmax through mirage-wrap-kernels.

// SOFTMAX: @softmax_48 on cpu
// SOFTMAX-NEXT: PASS
// RMS: @rms_100 on cpu
// RMS-NEXT: PASS
// SHORT: @short_rows on cpu
// SHORT-NEXT: PASS
// ONE: @one_short_row on cpu
// ONE-NEXT: PASS
// ACC40: @accums_40 on cpu
// ACC40-NEXT: PASS
// ACC100: @accums_100 on cpu
// ACC100-NEXT: PASS
// MANY: @many_rows on cpu
// MANY-NEXT: PASS
// MORE: @more_rows_than_threads on cpu
// MORE-NEXT: PASS
// WRAPPED: @softmax_wrapped on cpu
// WRAPPED-NEXT: PASS

// The lowered code: butterflies of 4 lanes (offsets 2, 1) for softmax_48's
// rows, of 32 (16 ... 1) for rms_100's, over the lanes the warp has.
// IR-LABEL: func.func @softmax_48
// IR-DAG: %[[C2:.*]] = arith.constant 2 : i32
// IR-DAG: %[[C1:.*]] = arith.constant 1 : i32
// IR: gpu.launch
// IR: %[[W:.*]] = arith.index_cast %{{.*}} : index to i32
// IR: gpu.shuffle xor %{{.*}}, %[[C2]], %[[W]] : f32
// IR-NEXT: arith.select
// IR-NEXT: arith.maximumf
// IR: gpu.shuffle xor %{{.*}}, %[[C1]], %[[W]] : f32
// IR-NOT: gpu.shuffle
// IR: math.exp
// IR: gpu.shuffle xor %{{.*}}, %[[C2]], %[[W]] : f32
// IR-NEXT: arith.select
// IR-NEXT: arith.addf
// IR-LABEL: func.func @rms_100
// IR-DAG: %[[C16:.*]] = arith.constant 16 : i32
// IR: gpu.shuffle xor %{{.*}}, %[[C16]]
// IR: memref.store %{{.*}} : memref<2x4xf32, #gpu.address_space<workgroup>>
// IR: gpu.barrier
// IR: math.sqrt
// IR-LABEL: func.func @more_rows_than_threads
// IR-NOT: gpu.shuffle
// IR-LABEL: func.func @softmax_wrapped

func.func @softmax_48(%x: tensor<48x100xf32>) -> tensor<48x100xf32> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [48, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<48x100xf32>):
    %t = mb.for_loop -> (tensor<12x100xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<48x100xf32> -> tensor<12x100xf32>
      %s = mb.accum_sum %xt : tensor<12x100xf32> -> tensor<12x100xf32>
      mb.yield %s : tensor<12x100xf32>
    }
    %m = mb.reduce_max %t dim = 1 : tensor<12x100xf32> -> tensor<12x1xf32>
    %c = mb.sub %t, %m : tensor<12x100xf32>, tensor<12x1xf32> -> tensor<12x100xf32>
    %e = mb.exp %c : tensor<12x100xf32>
    %z = mb.reduce_sum %e dim = 1 : tensor<12x100xf32> -> tensor<12x1xf32>
    %p = mb.div %e, %z : tensor<12x100xf32>, tensor<12x1xf32> -> tensor<12x100xf32>
    %o = mb.output_saver %p omap = [0, -1, -1] : tensor<12x100xf32> -> tensor<48x100xf32>
    mb.return %o : tensor<48x100xf32>
  } : (tensor<48x100xf32>) -> tensor<48x100xf32>
  return %y : tensor<48x100xf32>
}

func.func @rms_100(%x: tensor<8x320xf16>) -> tensor<8x320xf16> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [100, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8x320xf16>):
    %t = mb.for_loop -> (tensor<2x320xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<8x320xf16> -> tensor<2x320xf16>
      %s = mb.accum_sum %xt : tensor<2x320xf16> -> tensor<2x320xf16>
      mb.yield %s : tensor<2x320xf16>
    }
    %n = mb.rms_norm %t eps = 1.0e-06 : tensor<2x320xf16>
    %o = mb.output_saver %n omap = [0, -1, -1] : tensor<2x320xf16> -> tensor<8x320xf16>
    mb.return %o : tensor<8x320xf16>
  } : (tensor<8x320xf16>) -> tensor<8x320xf16>
  return %y : tensor<8x320xf16>
}

func.func @short_rows(%x: tensor<3x5xf32>) -> tensor<3x1xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<3x5xf32>):
    %t = mb.for_loop -> (tensor<3x5xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<3x5xf32> -> tensor<3x5xf32>
      %s = mb.accum_sum %xt : tensor<3x5xf32> -> tensor<3x5xf32>
      mb.yield %s : tensor<3x5xf32>
    }
    %r = mb.reduce_sum %t dim = 1 : tensor<3x5xf32> -> tensor<3x1xf32>
    %o = mb.output_saver %r omap = [-1, -1, -1] : tensor<3x1xf32> -> tensor<3x1xf32>
    mb.return %o : tensor<3x1xf32>
  } : (tensor<3x5xf32>) -> tensor<3x1xf32>
  return %y : tensor<3x1xf32>
}

func.func @one_short_row(%x: tensor<1x20xf32>) -> tensor<1x1xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<1x20xf32>):
    %t = mb.for_loop -> (tensor<1x20xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<1x20xf32> -> tensor<1x20xf32>
      %s = mb.accum_sum %xt : tensor<1x20xf32> -> tensor<1x20xf32>
      mb.yield %s : tensor<1x20xf32>
    }
    %r = mb.reduce_max %t dim = 1 : tensor<1x20xf32> -> tensor<1x1xf32>
    %o = mb.output_saver %r omap = [-1, -1, -1] : tensor<1x1xf32> -> tensor<1x1xf32>
    mb.return %o : tensor<1x1xf32>
  } : (tensor<1x20xf32>) -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}

func.func @accums_40(%x: tensor<10x512xf32>) -> (tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x8xf32>) {
  %y:4 = mk.graph_kernel (%x) grid = [2, 1, 1] block = [40, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<10x512xf32>):
    %a:4 = mb.for_loop -> (tensor<5x1xf32>, tensor<5x1xf32>, tensor<5x1xf32>, tensor<5x8xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<10x512xf32> -> tensor<5x128xf32>
      %s = mb.accum_sum_last %xt : tensor<5x128xf32> -> tensor<5x1xf32>
      %m = mb.accum_mean_last %xt : tensor<5x128xf32> -> tensor<5x1xf32>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<5x128xf32> -> tensor<5x1xf32>
      %c = mb.accum_sum_to %xt dimx = 8 : tensor<5x128xf32> -> tensor<5x8xf32>
      mb.yield %s, %m, %r, %c : tensor<5x1xf32>, tensor<5x1xf32>, tensor<5x1xf32>, tensor<5x8xf32>
    }
    %o0 = mb.output_saver %a#0 omap = [0, -1, -1] : tensor<5x1xf32> -> tensor<10x1xf32>
    %o1 = mb.output_saver %a#1 omap = [0, -1, -1] : tensor<5x1xf32> -> tensor<10x1xf32>
    %o2 = mb.output_saver %a#2 omap = [0, -1, -1] : tensor<5x1xf32> -> tensor<10x1xf32>
    %o3 = mb.output_saver %a#3 omap = [0, -1, -1] : tensor<5x8xf32> -> tensor<10x8xf32>
    mb.return %o0, %o1, %o2, %o3 : tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x8xf32>
  } : (tensor<10x512xf32>) -> (tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x8xf32>)
  return %y#0, %y#1, %y#2, %y#3 : tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x1xf32>, tensor<10x8xf32>
}

func.func @accums_100(%x: tensor<4x512xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x2xf32>) {
  %y:4 = mk.graph_kernel (%x) grid = [2, 1, 1] block = [100, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x512xf32>):
    %a:4 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x512xf32> -> tensor<2x128xf32>
      %s = mb.accum_sum_last %xt : tensor<2x128xf32> -> tensor<2x1xf32>
      %m = mb.accum_mean_last %xt : tensor<2x128xf32> -> tensor<2x1xf32>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x128xf32> -> tensor<2x1xf32>
      %c = mb.accum_sum_to %xt dimx = 2 : tensor<2x128xf32> -> tensor<2x2xf32>
      mb.yield %s, %m, %r, %c : tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x2xf32>
    }
    %o0 = mb.output_saver %a#0 omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    %o1 = mb.output_saver %a#1 omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    %o2 = mb.output_saver %a#2 omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    %o3 = mb.output_saver %a#3 omap = [0, -1, -1] : tensor<2x2xf32> -> tensor<4x2xf32>
    mb.return %o0, %o1, %o2, %o3 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x2xf32>
  } : (tensor<4x512xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x2xf32>)
  return %y#0, %y#1, %y#2, %y#3 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x2xf32>
}

func.func @many_rows(%x: tensor<64x16xf32>) -> tensor<64x1xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<64x16xf32>):
    %t = mb.for_loop -> (tensor<64x16xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<64x16xf32> -> tensor<64x16xf32>
      %s = mb.accum_sum %xt : tensor<64x16xf32> -> tensor<64x16xf32>
      mb.yield %s : tensor<64x16xf32>
    }
    %r = mb.reduce_max %t dim = 1 : tensor<64x16xf32> -> tensor<64x1xf32>
    %o = mb.output_saver %r omap = [-1, -1, -1] : tensor<64x1xf32> -> tensor<64x1xf32>
    mb.return %o : tensor<64x1xf32>
  } : (tensor<64x16xf32>) -> tensor<64x1xf32>
  return %y : tensor<64x1xf32>
}

func.func @more_rows_than_threads(%x: tensor<96x3xf32>) -> tensor<96x1xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<96x3xf32>):
    %t = mb.for_loop -> (tensor<96x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<96x3xf32> -> tensor<96x3xf32>
      %s = mb.accum_sum %xt : tensor<96x3xf32> -> tensor<96x3xf32>
      mb.yield %s : tensor<96x3xf32>
    }
    %r = mb.reduce_sum %t dim = 1 : tensor<96x3xf32> -> tensor<96x1xf32>
    %o = mb.output_saver %r omap = [-1, -1, -1] : tensor<96x1xf32> -> tensor<96x1xf32>
    mb.return %o : tensor<96x1xf32>
  } : (tensor<96x3xf32>) -> tensor<96x1xf32>
  return %y : tensor<96x1xf32>
}

func.func @softmax_wrapped(%x: tensor<6x200xf16>) -> tensor<6x200xf16> {
  %m = mk.reduce_max %x dim = 1 : tensor<6x200xf16> -> tensor<6x1xf16>
  %c = mk.sub %x, %m : tensor<6x200xf16>, tensor<6x1xf16> -> tensor<6x200xf16>
  %e = mk.exp %c : tensor<6x200xf16>
  %z = mk.reduce_sum %e dim = 1 : tensor<6x200xf16> -> tensor<6x1xf16>
  %p = mk.div %e, %z : tensor<6x200xf16>, tensor<6x1xf16> -> tensor<6x200xf16>
  return %p : tensor<6x200xf16>
}
