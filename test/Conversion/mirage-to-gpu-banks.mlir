// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1 async-copies=1" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1 async-copies=1 swizzle-shared=0" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: mirage-opt %s -split-input-file --mirage-to-ptx="chip=sm_90 dump-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX

// Shared-memory layouts of tensor-core operands (CodePlan.h,
// planSharedLayout) and the static bank rule the lowering checks them
// with. Every access to such a tile, the cp.async copy into it and the
// ldmatrix reading it, goes through one address function: the column XOR
// ((row >> rowShift) & xorMask) * 8 elements (one 16-byte unit). Without
// the swizzle (swizzle-shared=0) the same kernels have the conflicts the
// remarks give; a tile whose rows are no power of two of 16-byte units
// keeps them with it.

// 16x64 by 64x64: rows of 128 bytes, mask 7, no shift. Row-major, the 8
// rows of an ldmatrix phase hit the same 4 banks: 8 wavefronts a phase.
// CHECK-LABEL: func.func @rows128
// The cp.async copy of X's tile: chunk e of the tile is row e / 8, unit
// e % 8, stored at unit (e % 8) ^ (row & 7).
// CHECK: %[[E:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[COL:.*]] = arith.muli %[[E]], %c8
// CHECK: %[[H:.*]] = arith.andi %[[ROW]], %c7
// CHECK: %[[F:.*]] = arith.shli %[[H]], %c3
// CHECK: %[[SW:.*]] = arith.xori %[[COL]], %[[F]]
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%[[ROW]], %[[SW]]], 8 {bypassL1} : memref<16x256xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
// W's tile spans whole device rows: its copy views it as one row of 4096,
// whose element m is in row m >> 6.
// CHECK: %[[WROW:.*]] = arith.shrui %[[M:.*]], %c6
// CHECK: %[[WH:.*]] = arith.andi %[[WROW]], %c7
// CHECK: %[[WF:.*]] = arith.shli %[[WH]], %c3
// CHECK: %[[WSW:.*]] = arith.xori %[[M]], %[[WF]]
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%[[WSW]]], 8 {bypassL1} : memref<16384xf16> to memref<4096xf16, #gpu.address_space<workgroup>>
// The ldmatrix of A: lane l gives row row0 + l % 16, column k0 + 8 (l / 16),
// swizzled by its row.
// CHECK: iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// CHECK: %[[AH:.*]] = arith.andi %[[AR:.*]], %c7
// CHECK: %[[AF:.*]] = arith.shli %[[AH]], %c3
// CHECK: %[[AX:.*]] = arith.xori %{{.*}}, %[[AF]]
// CHECK: nvgpu.ldmatrix %{{.*}}[%[[AR]], %[[AX]]] {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix {{.*}}transpose = true
// PLAIN: remark: shared-memory bank conflicts in the tensor-core operand loads (ldmatrix, fragments): 1536 wavefronts where 192 would do (8-way)
// PTX-LABEL: .entry rows128_kernel
// PTX: xor.b64
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
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
// read by scalar fragment loads of 8 rows 512 bytes apart (mask 7).
// CHECK-LABEL: func.func @decode
// CHECK: iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// CHECK: %[[WS:.*]] = arith.shrui %[[WR:.*]], %c1
// CHECK: %[[WH:.*]] = arith.andi %[[WS]], %c3
// CHECK: %[[WF:.*]] = arith.shli %[[WH]], %c3
// CHECK: %[[WX:.*]] = arith.xori %{{.*}}, %[[WF]]
// CHECK: nvgpu.ldmatrix %{{.*}}[%[[WR]], %[[WX]]] {numTiles = 4 : i32, transpose = true}
// CHECK: %[[XR:.*]] = arith.minui
// CHECK: %[[XC:.*]] = arith.addi
// CHECK: %[[XH:.*]] = arith.andi %[[XR]], %c7
// CHECK: %[[XF:.*]] = arith.shli %[[XH]], %c3
// CHECK: %[[XX:.*]] = arith.xori %[[XC]], %[[XF]]
// CHECK: memref.load %{{.*}}[%[[XR]], %[[XX]]] : memref<8x256xf16, #gpu.address_space<workgroup>>
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

// Rows of 96 bytes (6 units) are not swizzled: the ldmatrix phases of A
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
