// RUN: mirage-opt %s --convert-mirage-to-gpu="async-copies=1 unmasked-variants=0" | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu="unmasked-variants=0" | FileCheck %s --check-prefix=SYNC
// RUN: mirage-opt %s --convert-mirage-to-gpu | FileCheck %s --check-prefix=VARIANTS

// A '?' loop over a dynamic key length (docs/dynamic.md "The walked tail"):
// the trip count is ceil(keys / 32), read from the walked tensor; the walked
// tiles' copies past the end are zero-filled (cp.async with srcElements 0 in
// the pipeline, whose prologue skips the trips past the end; a select after
// the clamped load without cp.async); mb.tail_mask is a select on the trip's
// key index. By default (VARIANTS) a key length that is a multiple of 32
// launches a variant without the zero fills and the mask.

// CHECK-LABEL: func.func @decode(
// CHECK:         gpu.launch
// CHECK:           %[[KV:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<8x?x64xf32>
// CHECK:           %[[TRIPS:.*]] = arith.ceildivui %[[KV]], %{{.*}} : index
// CHECK:           %[[FIRST:.*]] = arith.cmpi ult, %{{.*}}, %[[TRIPS]] : index
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:             %[[N:.*]] = arith.select %[[IN]], %{{.*}}, %{{.*}} : index
// CHECK:             nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 4, %[[N]] {bypassL1} : memref<8x?xf32> to memref<1x2048xf32, #gpu.address_space<workgroup>>
// CHECK:           scf.for %[[TRIP:.*]] = %{{.*}} to %[[TRIPS]] step
// CHECK:             %[[START:.*]] = arith.muli %[[TRIP]], %{{.*}} : index
// CHECK:             %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:             scf.for
// CHECK:               %[[AT:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK:               %[[KEEP:.*]] = arith.cmpi ult, %[[AT]], %{{.*}} : index
// CHECK:               %[[X:.*]] = memref.load
// CHECK:               arith.select %[[KEEP]], %[[X]], %[[ZERO]] : f32

// SYNC-LABEL: func.func @decode(
// SYNC-NOT:     nvgpu.device_async_copy
// SYNC:         %[[TRIPS:.*]] = arith.ceildivui
// SYNC:         scf.for %{{.*}} = %{{.*}} to %[[TRIPS]] step
// SYNC:           %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// SYNC:           %[[V:.*]] = vector.load
// SYNC:           arith.select %[[IN]], %[[V]], %{{.*}} : vector<4xf32>

// VARIANTS-LABEL: func.func @decode(
// VARIANTS:         %[[KV:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<8x?x64xf32>
// VARIANTS:         %[[REM:.*]] = arith.remui %[[KV]], %{{.*}} : index
// VARIANTS:         %[[EXACT:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// VARIANTS-NEXT:    scf.if %[[EXACT]] {
// VARIANTS:           gpu.launch
// VARIANTS-NOT:       arith.select {{.*}} : vector<4xf32>
// VARIANTS:         } else {
// VARIANTS:           gpu.launch
// VARIANTS:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// VARIANTS:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32

func.func @decode(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32>, %v: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %o = mk.graph_kernel (%q, %k, %v) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<8x1x64xf32>, %K: tensor<8x?x64xf32>, %V: tensor<8x?x64xf32>):
    %acc:2 = mb.for_loop -> (tensor<1x1x64xf32>, tensor<1x1x1xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<8x1x64xf32> -> tensor<1x1x64xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %ktt = mb.transpose %kt perm = [0, 2, 1] : tensor<1x32x64xf32> -> tensor<1x64x32xf32>
      %s = mb.matmul %qt, %ktt : tensor<1x1x64xf32>, tensor<1x64x32xf32> -> tensor<1x1x32xf32>
      %e = mb.exp %s : tensor<1x1x32xf32>
      %em = mb.tail_mask %e dim = 2 fill = 0.0 : tensor<1x1x32xf32>
      %pv = mb.matmul %em, %vt : tensor<1x1x32xf32>, tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %a = mb.accum_sum %pv : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
      %se = mb.accum_sum_last %em : tensor<1x1x32xf32> -> tensor<1x1x1xf32>
      mb.yield %a, %se : tensor<1x1x64xf32>, tensor<1x1x1xf32>
    }
    %r = mb.div %acc#0, %acc#1 : tensor<1x1x64xf32>, tensor<1x1x1xf32> -> tensor<1x1x64xf32>
    %out = mb.output_saver %r omap = [0, -1, -1] : tensor<1x1x64xf32> -> tensor<8x1x64xf32>
    mb.return %out : tensor<8x1x64xf32>
  } : (tensor<8x1x64xf32>, tensor<8x?x64xf32>, tensor<8x?x64xf32>) -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}
