// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1" | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu | FileCheck %s --check-prefix=PLAIN
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_90 dump-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX

// With tensor-cores, the two 16x64x64 f16 matmul tiles of a fused GatedMLP
// kernel run on nvgpu.mma.sync (m16n8k16, f32 accumulation) with fragments
// loaded by nvgpu.ldmatrix: each warp takes 16x8 output tiles in turn and
// walks k in steps of 16. Without it (the CPU
// path) they are plain loops.

// CHECK-LABEL: func.func @gated_mlp
// CHECK: gpu.launch
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// Every warp runs the same number of rounds over the 8 output tiles; a warp
// past the last tile recomputes it and stores nothing.
// CHECK: scf.for %[[R:.*]] = %c0{{.*}} to %{{.*}} step %c1
// CHECK: %[[T:.*]] = arith.addi %{{.*}}, %[[WARP]]
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[T]], %c8
// CHECK: arith.minui %[[T]], %c7
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c16{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// The fragments come from shared memory through ldmatrix: x4 for the 16x16
// A block, x2 transposed for the 16x8 B block (stored k-major). The operand
// tiles' rows of 128 bytes are padded to 144 (CodePlan.h, planSharedLayout):
// ldmatrix reads a one-dimensional view of the slot at row * 72 + column.
// CHECK: %[[AROW:.*]] = arith.muli %{{.*}}, %c72
// CHECK: %[[AIDX:.*]] = arith.addi %[[AROW]], %{{.*}}
// CHECK: nvgpu.ldmatrix %{{.*}}[%[[AIDX]]] {numTiles = 4 : i32, transpose = false} : memref<1152xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 2 : i32, transpose = true} : memref<4608xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: scf.if %[[ACTIVE]]
// CHECK-COUNT-4: vector.extract
// CHECK: nvgpu.mma.sync
// PLAIN-NOT: nvgpu.mma.sync
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @gated_mlp(%x: tensor<16x1024xf16>, %w1: tensor<1024x1024xf16>, %w2: tensor<1024x1024xf16>) -> tensor<16x1024xf16> {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [16, 1, 1] block = [64, 1, 1] forloop = 16 {
  ^bb0(%X: tensor<16x1024xf16>, %W1: tensor<1024x1024xf16>, %W2: tensor<1024x1024xf16>):
    %acc:2 = mb.for_loop -> (tensor<16x64xf16>, tensor<16x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<16x1024xf16> -> tensor<16x64xf16>
      %at = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<1024x1024xf16> -> tensor<64x64xf16>
      %bt = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<1024x1024xf16> -> tensor<64x64xf16>
      %m1 = mb.matmul %xt, %at : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %m2 = mb.matmul %xt, %bt : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %s1 = mb.accum_sum %m1 : tensor<16x64xf16> -> tensor<16x64xf16>
      %s2 = mb.accum_sum %m2 : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %s1, %s2 : tensor<16x64xf16>, tensor<16x64xf16>
    }
    %g = mt.thread_graph (%acc#0, %acc#1) : (tensor<16x64xf16>, tensor<16x64xf16>) -> tensor<16x64xf16> {
    ^bb0(%a: f16, %b: f16):
      %s = mt.silu %a : f16
      %p = mt.mul %s, %b : f16
      mt.yield %p : f16
    }
    %o = mb.output_saver %g omap = [1, -1, -1] : tensor<16x64xf16> -> tensor<16x1024xf16>
    mb.return %o : tensor<16x1024xf16>
  } : (tensor<16x1024xf16>, tensor<1024x1024xf16>, tensor<1024x1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}
