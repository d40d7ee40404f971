// RUN: mirage-opt %s --mirage-to-gpu -split-input-file | FileCheck %s
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_80 dump-dir=%t/sm_80" -split-input-file -o /dev/null
// RUN: cat %t/sm_80/softmax_rows_kernel.ptx %t/sm_80/rms_rows_kernel.ptx | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_90 dump-dir=%t/sm_90" -split-input-file -o /dev/null
// RUN: cat %t/sm_90/softmax_rows_kernel.ptx %t/sm_90/rms_rows_kernel.ptx | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ for f in %t/sm_80/*.ptx; do %ptxas -arch=sm_80 -v $f -o /dev/null 2>&1; done | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ for f in %t/sm_90/*.ptx; do %ptxas -arch=sm_90 -v $f -o /dev/null 2>&1; done | FileCheck %s --check-prefix=PTXAS %}

// Row reductions are cooperative (KernelEmitterReduce.cpp, CodePlan.h
// planRowReduction): each thread reduces a strided part of a row, then a
// butterfly of gpu.shuffle xor (shfl.sync.bfly) over the lanes of the row.

// Softmax statistics of 16 rows of 64 with 128 threads: a segment of 8
// lanes per row (offsets 4, 2, 1), the lane count of the thread's warp as
// the shuffles' width, a missing lane counted as the identity (-inf for the
// maximum, 0 for the sum); the segment's first lane stores the row's value.
// No shared-memory step across warps.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: gpu.launch
// CHECK: %[[W:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: scf.for
// CHECK: %[[PART:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[NEGINF]]) -> (f32)
// CHECK: %[[S4:.*]], %[[V4:.*]] = gpu.shuffle xor %[[PART]], %[[C4]], %[[W]] : f32
// CHECK-NEXT: %[[O4:.*]] = arith.select %[[V4]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[M4:.*]] = arith.maximumf %[[PART]], %[[O4]] : f32
// CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.shuffle xor %[[M4]], %[[C2]], %[[W]] : f32
// CHECK: gpu.shuffle xor %{{.*}}, %[[C1]], %[[W]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: scf.if
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: memref.store %{{.*}} : memref<16x1xf16, #gpu.address_space<workgroup>>
// CHECK: math.exp
// CHECK: gpu.shuffle xor %{{.*}}, %[[C4]], %[[W]] : f32
// CHECK-NEXT: arith.select
// CHECK-NEXT: arith.addf
// PTX-LABEL: .entry softmax_rows
// PTX-COUNT-3: shfl.sync.bfly.b32
// PTX: max.NaN.f32
// PTX-COUNT-3: shfl.sync.bfly.b32
// PTXAS-NOT: error
// PTXAS-COUNT-2: 0 bytes spill stores, 0 bytes spill loads
func.func @softmax_rows(%s: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%S: tensor<64x64xf16>):
    %t = mb.for_loop -> (tensor<16x64xf16>) {
      %st = mb.input_iter %S imap = [0, -1, -1] fmap = -1 : tensor<64x64xf16> -> tensor<16x64xf16>
      %a = mb.accum_sum %st : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %m = mb.reduce_max %t dim = 1 : tensor<16x64xf16> -> tensor<16x1xf16>
    %c = mb.sub %t, %m : tensor<16x64xf16>, tensor<16x1xf16> -> tensor<16x64xf16>
    %e = mb.exp %c : tensor<16x64xf16>
    %z = mb.reduce_sum %e dim = 1 : tensor<16x64xf16> -> tensor<16x1xf16>
    %p = mb.div %e, %z : tensor<16x64xf16>, tensor<16x1xf16> -> tensor<16x64xf16>
    %o = mb.output_saver %p omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<64x64xf16>
    mb.return %o : tensor<64x64xf16>
  } : (tensor<64x64xf16>) -> tensor<64x64xf16>
  return %y : tensor<64x64xf16>
}

// -----

// RMSNorm of 2 rows of 4096 with 96 threads (3 warps): every warp on both
// rows, a 32-lane butterfly per warp and row, each warp's first lane stores
// its total in a [2, 3] f32 buffer, a barrier, and one thread per row adds
// the warps' totals in warp order.
// CHECK-LABEL: func.func @rms_rows
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: gpu.launch
// CHECK: %[[PARTIALS:.*]] = memref.view %{{.*}} to memref<2x3xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c2{{.*}} step
// CHECK: arith.mulf
// CHECK: gpu.shuffle xor %{{.*}}, %[[C16]]
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[PARTIALS]][%[[ROW]], %{{.*}}]
// CHECK: gpu.barrier
// CHECK-NEXT: arith.addi %{{.*}}, %c31 : index
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %[[PARTIALS]]
// CHECK: math.sqrt
// PTX-LABEL: .entry rms_rows
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: bar.sync
func.func @rms_rows(%x: tensor<2x4096xf16>) -> tensor<2x4096xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [96, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<2x4096xf16>):
    %t = mb.for_loop -> (tensor<2x4096xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<2x4096xf16> -> tensor<2x4096xf16>
      %a = mb.accum_sum %xt : tensor<2x4096xf16> -> tensor<2x4096xf16>
      mb.yield %a : tensor<2x4096xf16>
    }
    %n = mb.rms_norm %t eps = 1.0e-06 : tensor<2x4096xf16>
    %o = mb.output_saver %n omap = [-1, -1, -1] : tensor<2x4096xf16> -> tensor<2x4096xf16>
    mb.return %o : tensor<2x4096xf16>
  } : (tensor<2x4096xf16>) -> tensor<2x4096xf16>
  return %y : tensor<2x4096xf16>
}
