// REQUIRES: libomp
// Decode-shaped matmul tiles (M = 1..15 rows, or any M that is not a
// multiple of 16) on tensor cores with the operand roles swapped:
// C^T = W^T X^T, so W's columns fill the 16 rows of m16n8k16 (A' loaded
// from W with ldmatrix.x4.trans) and X's few rows are the mma's 8 columns,
// padded; padding columns of the result are not stored. The
// same code the PTX pipeline emits runs on the CPU with ldmatrix and mma
// emulated lane by lane, against the f64 interpreter.
// RUN: mirage-run %s --func=decode2 --tensor-cores --omp-threads=0 | FileCheck %s --check-prefix=M2
// RUN: mirage-run %s --func=decode5 --tensor-cores --omp-threads=0 | FileCheck %s --check-prefix=M5
// RUN: mirage-run %s --func=decode12_batched --tensor-cores --omp-threads=0 | FileCheck %s --check-prefix=M12
// RUN: mirage-run %s --func=decode12_walked --tensor-cores --omp-threads=0 | FileCheck %s --check-prefix=M12W
// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1" | FileCheck %s --check-prefix=IR
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_80 dump-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX
// A bad combination is refused before any work.
// RUN: not mirage-run %s --func=decode2 --tensor-cores 2>&1 | FileCheck %s --check-prefix=BADTHREADS

// M2: output 0 (f16, 256 elements)
// M2: PASS
// M5: output 0 (f16, 640 elements)
// M5: PASS
// M12: output 0 (f16, 3072 elements)
// M12: PASS
// M12W: output 0 (f16, 1536 elements)
// M12W: PASS

// Swapped roles: A' comes from W (the right operand) through a transposed
// x4 ldmatrix; X's rows are loaded one by one, row m - 1 standing in for
// the padding columns.
// IR-LABEL: func.func @decode2
// IR: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// IR: arith.minui %{{.*}}, %c1
// IR: nvgpu.mma.sync
// IR-LABEL: func.func @decode5
// Columns of the result past M are not stored.
// IR: nvgpu.mma.sync
// IR: arith.cmpi ult, %{{.*}}, %c5
// IR: scf.if

// An accumulator of 48 elements a thread stays in shared memory: the
// matmul adds each trip's fragments to it in place, with no f32 tile of its
// own (mb::accumulatedInPlace).
// IR-LABEL: func.func @decode12_walked
// IR-NOT: memref.view {{.*}} to memref<12x128xf32
// IR: %[[ACC:.*]] = memref.view {{.*}} to memref<12x128xf32
// IR-NOT: memref.view {{.*}} to memref<12x128xf32
// IR: nvgpu.mma.sync
// IR: %[[OLD:.*]] = memref.load %[[ACC]]
// IR-NEXT: arith.addf %[[OLD]]

// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// BADTHREADS: mirage-run: --tensor-cores emulates the warp-level code on the CPU with one OpenMP thread per GPU thread: it needs --omp-threads=0

// Two rows (batch 2 at decode): one 16x8 mma tile per 16 columns.
func.func @decode2(%x: tensor<2x64xf16>, %w: tensor<64x128xf16>) -> tensor<2x128xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [32, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x64xf16>, %W: tensor<64x128xf16>):
    %acc = mb.for_loop -> (tensor<2x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x64xf16> -> tensor<2x32xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<64x128xf16> -> tensor<32x64xf16>
      %m = mb.matmul %xt, %wt : tensor<2x32xf16>, tensor<32x64xf16> -> tensor<2x64xf16>
      %s = mb.accum_sum %m : tensor<2x64xf16> -> tensor<2x64xf16>
      mb.yield %s : tensor<2x64xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<2x64xf16> -> tensor<2x128xf16>
    mb.return %o : tensor<2x128xf16>
  } : (tensor<2x64xf16>, tensor<64x128xf16>) -> tensor<2x128xf16>
  return %y : tensor<2x128xf16>
}

// Five rows: three padding columns in the mma tile, not stored; two warps
// share the 8 tiles.
func.func @decode5(%x: tensor<5x32xf16>, %w: tensor<32x128xf16>) -> tensor<5x128xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<5x32xf16>, %W: tensor<32x128xf16>):
    %acc = mb.for_loop -> (tensor<5x128xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<5x32xf16> -> tensor<5x32xf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = -1 : tensor<32x128xf16> -> tensor<32x128xf16>
      %m = mb.matmul %xt, %wt : tensor<5x32xf16>, tensor<32x128xf16> -> tensor<5x128xf16>
      %s = mb.accum_sum %m : tensor<5x128xf16> -> tensor<5x128xf16>
      mb.yield %s : tensor<5x128xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<5x128xf16> -> tensor<5x128xf16>
    mb.return %o : tensor<5x128xf16>
  } : (tensor<5x32xf16>, tensor<32x128xf16>) -> tensor<5x128xf16>
  return %y : tensor<5x128xf16>
}

// Twelve rows in each of two batches: two mma columns of 8 (the second
// holds rows 8..11 and four padding columns).
func.func @decode12_batched(%x: tensor<2x12x32xf16>, %w: tensor<2x32x128xf16>) -> tensor<2x12x128xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<2x12x32xf16>, %W: tensor<2x32x128xf16>):
    %acc = mb.for_loop -> (tensor<1x12x128xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<2x12x32xf16> -> tensor<1x12x32xf16>
      %wt = mb.input_iter %W imap = [0, -1, -1] fmap = -1 : tensor<2x32x128xf16> -> tensor<1x32x128xf16>
      %m = mb.matmul %xt, %wt : tensor<1x12x32xf16>, tensor<1x32x128xf16> -> tensor<1x12x128xf16>
      %s = mb.accum_sum %m : tensor<1x12x128xf16> -> tensor<1x12x128xf16>
      mb.yield %s : tensor<1x12x128xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x12x128xf16> -> tensor<2x12x128xf16>
    mb.return %o : tensor<2x12x128xf16>
  } : (tensor<2x12x32xf16>, tensor<2x32x128xf16>) -> tensor<2x12x128xf16>
  return %y : tensor<2x12x128xf16>
}

// Twelve rows over two trips of 32: the accumulator (1536 elements, 48 a
// thread) is added to in place by the swapped-role mma's stores.
func.func @decode12_walked(%x: tensor<12x64xf16>, %w: tensor<64x128xf16>) -> tensor<12x128xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [32, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<12x64xf16>, %W: tensor<64x128xf16>):
    %acc = mb.for_loop -> (tensor<12x128xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<12x64xf16> -> tensor<12x32xf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = 0 : tensor<64x128xf16> -> tensor<32x128xf16>
      %m = mb.matmul %xt, %wt : tensor<12x32xf16>, tensor<32x128xf16> -> tensor<12x128xf16>
      %s = mb.accum_sum %m : tensor<12x128xf16> -> tensor<12x128xf16>
      mb.yield %s : tensor<12x128xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<12x128xf16> -> tensor<12x128xf16>
    mb.return %o : tensor<12x128xf16>
  } : (tensor<12x64xf16>, tensor<64x128xf16>) -> tensor<12x128xf16>
  return %y : tensor<12x128xf16>
}
