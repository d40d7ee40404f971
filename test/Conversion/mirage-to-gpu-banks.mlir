// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1 async-copies=1" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1 async-copies=1 swizzle-shared=0" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: mirage-opt %s -split-input-file --mirage-to-ptx="chip=sm_90 dump-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX

// Shared-memory layouts of tensor-core operands (CodePlan.h,
// planSharedLayout) and the static bank rule the lowering checks them
// with. Every access to such a tile, the cp.async copy into it and the
// ldmatrix reading it, goes through one address function
// (KernelEmitter::sharedAccess): rows of a multiple of 128 bytes are padded
// by 16 bytes (element (row, col) at row * pitch + col of a one-dimensional
// view of the slot, so a k step is a constant offset), rows of 32 or 64
// bytes swizzled (the column XOR ((row >> rowShift) & xorMask) * 8
// elements, one 16-byte unit). Without either (swizzle-shared=0) the same
// kernels have the conflicts the remarks give; a tile whose rows are 96
// bytes keeps them with them.

// 16x64 by 64x64: rows of 128 bytes, padded to 144 (72 elements): slots of
// 16 x 144 and 64 x 144 bytes a pipeline stage. Row-major, the 8 rows of
// an ldmatrix phase hit the same 4 banks: 8 wavefronts a phase.
// CHECK-LABEL: func.func @rows128
// The cp.async copy of X's tile: chunk e of the tile is row e / 8, column
// 8 (e % 8), stored at row * 72 + column.
// CHECK: %[[E:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[COL:.*]] = arith.muli %[[E]], %c8
// CHECK: %[[RP:.*]] = arith.muli %[[ROW]], %c72
// CHECK: %[[XI:.*]] = arith.addi %[[RP]], %[[COL]]
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%[[XI]]], 8 {bypassL1} : memref<16x256xf16> to memref<1152xf16, #gpu.address_space<workgroup>>
// The pipeline's stages are the padded slots apart.
// CHECK: arith.muli %{{.*}}, %c9216
// W's tile spans whole device rows: its copy views it as one row of 4096,
// whose element m is in row m >> 6, column m & 63.
// CHECK: %[[WROW:.*]] = arith.shrui %[[M:.*]], %c6
// CHECK: %[[WCOL:.*]] = arith.andi %[[M]], %c63
// CHECK: %[[WRP:.*]] = arith.muli %[[WROW]], %c72
// CHECK: %[[WI:.*]] = arith.addi %[[WRP]], %[[WCOL]]
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%[[WI]]], 8 {bypassL1} : memref<16384xf16> to memref<4608xf16, #gpu.address_space<workgroup>>
// CHECK: arith.muli %{{.*}}, %c2304
// The ldmatrix of A: lane l gives row row0 + l % 16, column k0 + 8 (l / 16),
// at row * 72 + column: linear in k0.
// CHECK: scf.for %[[K0:[a-z0-9_]+]] = {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// CHECK: %[[AR:.*]] = arith.addi
// CHECK: %[[AC:.*]] = arith.addi %[[K0]],
// CHECK: %[[ARP:.*]] = arith.muli %[[AR]], %c72
// CHECK: %[[AI:.*]] = arith.addi %[[ARP]], %[[AC]]
// CHECK: nvgpu.ldmatrix %{{.*}}[%[[AI]]] {numTiles = 4 : i32, transpose = false} : memref<1152xf16
// CHECK: nvgpu.ldmatrix {{.*}}transpose = true{{.*}} : memref<4608xf16
// PLAIN: remark: shared-memory bank conflicts in the tensor-core operand loads (ldmatrix, fragments): 1536 wavefronts where 192 would do (8-way)
// In the PTX no address has an XOR, and the k steps' ldmatrix of B read
// one base plus immediates 2304 bytes (16 rows of 144) apart.
// PTX-LABEL: .entry rows128_kernel
// PTX-NOT: xor.b
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NOT: xor.b
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{.*}}, [%[[B:rd[0-9]+]]+[[O:[0-9]+]]];
// PTX-NOT: xor.b
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{.*}}, [%[[B]]+{{[0-9]+}}];
func.func @rows128(%x: tensor<16x256xf16>, %w: tensor<256x64xf16>) -> tensor<16x64xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<16x256xf16>, %W: tensor<256x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<16x256xf16> -> tensor<16x64xf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = 0 : tensor<256x64xf16> -> tensor<64x64xf16>
      %m = mb.matmul %xt, %wt : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %s = mb.accum_sum %m : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %s : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<16x64xf16> -> tensor<16x64xf16>
    mb.return %o : tensor<16x64xf16>
  } : (tensor<16x256xf16>, tensor<256x64xf16>) -> tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}

// -----

// A decode tile (swapped roles): W 256x32 has rows of 64 bytes (two rows a
// 128-byte line: mask 3, shift 1), read by ldmatrix.x4.trans; X 8x256 is
// read by scalar fragment loads of 8 rows, padded from 512 to 528 bytes
// (264 elements) apart.
// CHECK-LABEL: func.func @decode
// CHECK: iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// CHECK: %[[WS:.*]] = arith.shrui %[[WR:.*]], %c1
// CHECK: %[[WH:.*]] = arith.andi %[[WS]], %c3
// CHECK: %[[WF:.*]] = arith.shli %[[WH]], %c3
// CHECK: %[[WX:.*]] = arith.xori %{{.*}}, %[[WF]]
// CHECK: nvgpu.ldmatrix %{{.*}}[%[[WR]], %[[WX]]] {numTiles = 4 : i32, transpose = true}
// CHECK: %[[XR:.*]] = arith.minui
// CHECK: %[[XC:.*]] = arith.addi
// CHECK: %[[XP:.*]] = arith.muli %[[XR]], %c264
// CHECK: %[[XI:.*]] = arith.addi %[[XP]], %[[XC]]
// CHECK: memref.load %{{.*}}[%[[XI]]] : memref<2112xf16, #gpu.address_space<workgroup>>
// PLAIN: remark: shared-memory bank conflicts in the tensor-core operand loads (ldmatrix, fragments): 1536 wavefronts where 256 would do (6-way)
func.func @decode(%x: tensor<8x1024xf16>, %w: tensor<1024x64xf16>) -> tensor<8x64xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x1024xf16>, %W: tensor<1024x64xf16>):
    %acc = mb.for_loop -> (tensor<8x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x1024xf16> -> tensor<8x256xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<1024x64xf16> -> tensor<256x32xf16>
      %m = mb.matmul %xt, %wt : tensor<8x256xf16>, tensor<256x32xf16> -> tensor<8x32xf16>
      %s = mb.accum_sum %m : tensor<8x32xf16> -> tensor<8x32xf16>
      mb.yield %s : tensor<8x32xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<8x32xf16> -> tensor<8x64xf16>
    mb.return %o : tensor<8x64xf16>
  } : (tensor<8x1024xf16>, tensor<1024x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// Rows of 96 bytes (6 units) are neither padded nor swizzled: the ldmatrix phases of A
// hit bank groups 0, 6, 4, 2, 0, ...: 2 ways, which the rule reports with
// the swizzle on too (and the cost model prices, docs/cost-model.md).
// CHECK-LABEL: func.func @rows96
// CHECK-NOT: arith.xori
// CHECK: nvgpu.ldmatrix
func.func @rows96(%x: tensor<16x48xf16>, %w: tensor<48x24xf16>) -> tensor<16x24xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<16x48xf16>, %W: tensor<48x24xf16>):
    %acc = mb.for_loop -> (tensor<16x24xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<16x48xf16> -> tensor<16x48xf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = -1 : tensor<48x24xf16> -> tensor<48x24xf16>
      // expected-remark @below {{shared-memory bank conflicts in the tensor-core operand loads (ldmatrix, fragments): 90 wavefronts where 54 would do (1.67-way)}}
      %m = mb.matmul %xt, %wt : tensor<16x48xf16>, tensor<48x24xf16> -> tensor<16x24xf16>
      %s = mb.accum_sum %m : tensor<16x24xf16> -> tensor<16x24xf16>
      mb.yield %s : tensor<16x24xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<16x24xf16> -> tensor<16x24xf16>
    mb.return %o : tensor<16x24xf16>
  } : (tensor<16x48xf16>, tensor<48x24xf16>) -> tensor<16x24xf16>
  return %y : tensor<16x24xf16>
}
