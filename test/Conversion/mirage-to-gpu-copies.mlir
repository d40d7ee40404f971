// RUN: mirage-opt %s --split-input-file --verify-diagnostics --convert-mirage-to-gpu="async-copies=1" | FileCheck %s
// RUN: mirage-opt %s --split-input-file --verify-diagnostics --convert-mirage-to-gpu="async-copies=0" | FileCheck %s --check-prefix=SYNC

// Tile copies move 16-byte chunks. A walking tile of a loop of 16 iterations
// gets a 4-stage cp.async pipeline (three iterations requested before the
// loop, one group per iteration, wait for all but the newest three); the
// loop-invariant tile of X (no walked dim) is copied once, before the loop,
// with iteration 0's group, as one contiguous row of 512 elements (its tile is
// the whole tensor); the output tile is stored with 16-byte vector
// stores of the f32 accumulator converted to f16.

// CHECK-LABEL: func.func @pipelined
// CHECK: gpu.launch
// Iteration 0: X (hoisted) and W.
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1} : memref<512xf16> to memref<512xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1} : memref<1024x256xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NOT: memref<512xf16> to
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1} : memref<1024x256xf16>
// CHECK:   %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 3 : i32}
// CHECK:   gpu.barrier
// CHECK: vector.load %{{.*}} : memref<8x32xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<8x256xf16>, vector<8xf16>

// Without async copies the same tiles are 16-byte vector loads; X is still
// loaded once, before the loop.
// SYNC-LABEL: func.func @pipelined
// SYNC-NOT: nvgpu.device_async_copy
// SYNC: vector.load %{{.*}} {alignment = 16 : i64} : memref<512xf16>, vector<8xf16>
// SYNC: gpu.barrier
// SYNC: scf.for
// SYNC-NOT: memref<512xf16>, vector<8xf16>
// SYNC: vector.load %{{.*}} {alignment = 16 : i64} : memref<1024x256xf16>, vector<8xf16>
// SYNC: vector.store %{{.*}} {alignment = 16 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
func.func @pipelined(%x: tensor<8x64xf16>, %w: tensor<1024x256xf16>) -> tensor<8x256xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [8, 1, 1] block = [128, 1, 1] forloop = 16 {
  ^bb0(%X: tensor<8x64xf16>, %W: tensor<1024x256xf16>):
    %acc = mb.for_loop -> (tensor<8x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<1024x256xf16> -> tensor<64x32xf16>
      %m = mb.matmul %xt, %wt : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
      %s = mb.accum_sum %m : tensor<8x32xf16> -> tensor<8x32xf16>
      mb.yield %s : tensor<8x32xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<8x32xf16> -> tensor<8x256xf16>
    mb.return %o : tensor<8x256xf16>
  } : (tensor<8x64xf16>, tensor<1024x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// -----

// The tile of A is the whole tensor: one row of 24 f16 in 16-byte chunks,
// though its rows of 6 f16 (12 bytes) alone would allow only 4-byte ones. The
// tile of C holds half of each device row, rows of 3 f16 that allow no chunk,
// so it is copied one element at a time, with a remark that says why.

// CHECK-LABEL: func.func @narrow_rows
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1} : memref<24xf16>
// CHECK: memref.load %{{.*}} : memref<4x6xf16>
// SYNC-LABEL: func.func @narrow_rows
// SYNC: vector.load %{{.*}} {alignment = 16 : i64} : memref<24xf16>, vector<8xf16>
// SYNC: memref.load %{{.*}} : memref<4x6xf16>
func.func @narrow_rows(%a: tensor<4x6xf16>, %c: tensor<4x6xf16>) -> tensor<4x6xf16> {
  %y = mk.graph_kernel (%a, %c) grid = [2, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%A: tensor<4x6xf16>, %C: tensor<4x6xf16>):
    %r:2 = mb.for_loop -> (tensor<4x1xf16>, tensor<4x3xf16>) {
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = -1 : tensor<4x6xf16> -> tensor<4x6xf16>
      // expected-remark @below {{input tile copied one element (2 bytes) at a time: no 16-, 8- or 4-byte chunk divides both its contiguous rows (3 elements) and the device tensor's (6)}}
      %ct = mb.input_iter %C imap = [1, -1, -1] fmap = -1 : tensor<4x6xf16> -> tensor<4x3xf16>
      %s = mb.accum_sum_last %at : tensor<4x6xf16> -> tensor<4x1xf16>
      %t = mb.accum_sum %ct : tensor<4x3xf16> -> tensor<4x3xf16>
      mb.yield %s, %t : tensor<4x1xf16>, tensor<4x3xf16>
    }
    %q = mb.div %r#1, %r#0 : tensor<4x3xf16>, tensor<4x1xf16> -> tensor<4x3xf16>
    // expected-remark @below {{output tile copied one element (2 bytes) at a time: no 16-, 8- or 4-byte chunk divides both its contiguous rows (3 elements) and the device tensor's (6)}}
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<4x3xf16> -> tensor<4x6xf16>
    mb.return %o : tensor<4x6xf16>
  } : (tensor<4x6xf16>, tensor<4x6xf16>) -> tensor<4x6xf16>
  return %y : tensor<4x6xf16>
}

// -----

// A [64, 1] tile of a [128, 1] statistic is 64 consecutive elements in both
// memories: both copies see one row of 64 (the dims collapsed) and move
// 16-byte chunks.

// CHECK-LABEL: func.func @merged_rows
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<128x1xf16> into memref<128xf16>
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1} : memref<128xf16> to memref<64xf16, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<128xf16>, vector<8xf16>
// SYNC-LABEL: func.func @merged_rows
// SYNC: vector.load %{{.*}} {alignment = 16 : i64} : memref<128xf16>, vector<8xf16>
func.func @merged_rows(%s: tensor<128x1xf16>) -> tensor<128x1xf16> {
  %y = mk.graph_kernel (%s) grid = [2, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%S: tensor<128x1xf16>):
    %r = mb.for_loop -> (tensor<64x1xf16>) {
      %st = mb.input_iter %S imap = [0, -1, -1] fmap = -1 : tensor<128x1xf16> -> tensor<64x1xf16>
      %e = mb.exp %st : tensor<64x1xf16>
      %a = mb.accum_sum %e : tensor<64x1xf16> -> tensor<64x1xf16>
      mb.yield %a : tensor<64x1xf16>
    }
    %o = mb.output_saver %r omap = [0, -1, -1] : tensor<64x1xf16> -> tensor<128x1xf16>
    mb.return %o : tensor<128x1xf16>
  } : (tensor<128x1xf16>) -> tensor<128x1xf16>
  return %y : tensor<128x1xf16>
}

// -----

// An epilogue input ([B21]): the residual's 8x32 tile is copied once, after
// the loop (not hoisted before it, not pipelined), with 16-byte vector loads
// in both modes, then added to the accumulator and stored.

// CHECK-LABEL: func.func @epilogue_residual
// CHECK: scf.for
// CHECK:   nvgpu.device_async_copy %{{.*}} : memref<256x128xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<8x128xf16>, vector<8xf16>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<8x128xf16>, vector<8xf16>
// CHECK-NEXT: vector.store %{{.*}} {alignment = 16 : i64} : memref<8x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: gpu.barrier
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<8x128xf16>, vector<8xf16>
// SYNC-LABEL: func.func @epilogue_residual
// SYNC: scf.for
// SYNC: vector.load %{{.*}} {alignment = 16 : i64} : memref<256x128xf16>, vector<8xf16>
// SYNC: vector.load %{{.*}} {alignment = 16 : i64} : memref<8x128xf16>, vector<8xf16>
func.func @epilogue_residual(%h: tensor<8x256xf16>, %w: tensor<256x128xf16>, %r: tensor<8x128xf16>) -> tensor<8x128xf16> {
  %y = mk.graph_kernel (%h, %w, %r) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%H: tensor<8x256xf16>, %W: tensor<256x128xf16>, %R: tensor<8x128xf16>):
    %acc = mb.for_loop -> (tensor<8x32xf16>) {
      %ht = mb.input_iter %H imap = [-1, -1, -1] fmap = 1 : tensor<8x256xf16> -> tensor<8x64xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<256x128xf16> -> tensor<64x32xf16>
      %hw = mb.matmul %ht, %wt : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
      %s = mb.accum_sum %hw : tensor<8x32xf16> -> tensor<8x32xf16>
      mb.yield %s : tensor<8x32xf16>
    }
    %rt = mb.input_iter %R imap = [1, -1, -1] fmap = -1 : tensor<8x128xf16> -> tensor<8x32xf16>
    %sum = mb.add %rt, %acc : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
    %o = mb.output_saver %sum omap = [1, -1, -1] : tensor<8x32xf16> -> tensor<8x128xf16>
    mb.return %o : tensor<8x128xf16>
  } : (tensor<8x256xf16>, tensor<256x128xf16>, tensor<8x128xf16>) -> tensor<8x128xf16>
  return %y : tensor<8x128xf16>
}
