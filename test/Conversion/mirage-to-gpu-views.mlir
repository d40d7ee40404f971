// RUN: mirage-opt %s --split-input-file --verify-diagnostics --convert-mirage-to-gpu="async-copies=1" | FileCheck %s
// RUN: mirage-opt %s --split-input-file --verify-diagnostics --convert-mirage-to-gpu="async-copies=0" | FileCheck %s --check-prefix=SYNC

// Tiles read or written through a view ([B22]-[B25]) address the device
// tensor, flattened to one dim, at the view's offset of each element: a
// chunk stays 16 bytes where the view keeps 8 f16 of the tile's last dim
// consecutive and aligned in the device tensor (docs/lowering.md, Views).

// A head split read and merged back, (h, t, d) -> (t, h * 16 + d): the
// offset is t * 128 + h * 16 + d, 16-byte cp.async in and 16-byte vector
// stores out.
// CHECK-LABEL: func.func @heads
// CHECK: %[[Q:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<128x128xf16> into memref<16384xf16>
// CHECK: arith.muli %{{.*}}, %c16{{(_[0-9]+)?}} :
// CHECK: arith.muli %{{.*}}, %c128{{(_[0-9]+)?}} :
// CHECK: nvgpu.device_async_copy %[[Q]][%{{.*}}], %{{.*}}, 8 {bypassL1} : memref<16384xf16> to memref<1x16x16xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: %[[Y:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<32x128xf16> into memref<4096xf16>
// CHECK: vector.store %{{.*}}, %[[Y]][%{{.*}}] {alignment = 16 : i64} : memref<4096xf16>, vector<8xf16>
// SYNC-LABEL: func.func @heads
// SYNC-NOT: nvgpu.device_async_copy
// SYNC: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<16384xf16>, vector<8xf16>
// SYNC: vector.store %{{.*}} {alignment = 16 : i64} : memref<4096xf16>, vector<8xf16>
func.func @heads(%q: tensor<128x128xf16>) -> tensor<32x128xf16> {
  %y = mk.graph_kernel (%q) grid = [8, 2, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%Q: tensor<128x128xf16>):
    %t = mb.for_loop -> (tensor<1x16x16xf16>) {
      %qt = mb.input_iter %Q imap = [0, 1, -1] fmap = 1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<128x128xf16> -> tensor<1x16x16xf16>
      %e = mb.exp %qt : tensor<1x16x16xf16>
      %s = mb.accum_sum %e : tensor<1x16x16xf16> -> tensor<1x16x16xf16>
      mb.yield %s : tensor<1x16x16xf16>
    }
    %o = mb.output_saver %t omap = [0, 1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x16x16xf16> -> tensor<32x128xf16>
    mb.return %o : tensor<32x128xf16>
  } : (tensor<128x128xf16>) -> tensor<32x128xf16>
  return %y : tensor<32x128xf16>
}

// -----

// GQA's shared heads, (h, t, d) -> (t, (h floordiv 2) * 16 + d): the head's
// digit is divided by 2, and the copies stay 16 bytes.
// CHECK-LABEL: func.func @gqa_v
// CHECK: arith.divui %{{.*}}, %c2{{(_[0-9]+)?}} :
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1} : memref<1024xf16> to memref<1x16x16xf16, #gpu.address_space<workgroup>>
func.func @gqa_v(%v: tensor<32x32xf16>) -> tensor<4x16x16xf16> {
  %y = mk.graph_kernel (%v) grid = [4, 1, 1] block = [64, 1, 1] forloop = 2 {
  ^bb0(%V: tensor<32x32xf16>):
    %acc = mb.for_loop -> (tensor<1x16x16xf16>) {
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 view = affine_map<(h, t, d) -> (t, (h floordiv 2) * 16 + d)> : tensor<32x32xf16> -> tensor<1x16x16xf16>
      %s = mb.accum_sum %vt : tensor<1x16x16xf16> -> tensor<1x16x16xf16>
      mb.yield %s : tensor<1x16x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x16x16xf16> -> tensor<4x16x16xf16>
    mb.return %o : tensor<4x16x16xf16>
  } : (tensor<32x32xf16>) -> tensor<4x16x16xf16>
  return %y : tensor<4x16x16xf16>
}

// -----

// W^T read in place, (k, n) -> (n, k): the tile's last dim (n) is 64
// elements apart in W, so it is copied one element at a time (loads of the
// flattened W at n * 64 + k), synchronously; the rank-1 bias read as a 1xN
// row, (i, n) -> (n), keeps 16-byte loads of its 48 elements.
// CHECK-LABEL: func.func @linear
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<3072xf16>
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<48xf16>, vector<8xf16>
func.func @linear(%x: tensor<32x64xf16>, %w: tensor<48x64xf16>, %b: tensor<48xf16>) -> tensor<32x48xf16> {
  %y = mk.graph_kernel (%x, %w, %b) grid = [2, 3, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<32x64xf16>, %W: tensor<48x64xf16>, %B: tensor<48xf16>):
    %acc = mb.for_loop -> (tensor<16x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<32x64xf16> -> tensor<16x16xf16>
      // expected-remark @below {{input tile copied one element (2 bytes) at a time: the view's last dim is not contiguous in the device tensor (stride 64)}}
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 view = affine_map<(k, n) -> (n, k)> : tensor<48x64xf16> -> tensor<16x16xf16>
      %m = mb.matmul %xt, %wt : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
      %s = mb.accum_sum %m : tensor<16x16xf16> -> tensor<16x16xf16>
      mb.yield %s : tensor<16x16xf16>
    }
    %bt = mb.input_iter %B imap = [-1, 1, -1] fmap = -1 view = affine_map<(i, n) -> (n)> : tensor<48xf16> -> tensor<1x16xf16>
    %a = mb.add %acc, %bt : tensor<16x16xf16>, tensor<1x16xf16> -> tensor<16x16xf16>
    %o = mb.output_saver %a omap = [0, 1, -1] : tensor<16x16xf16> -> tensor<32x48xf16>
    mb.return %o : tensor<32x48xf16>
  } : (tensor<32x64xf16>, tensor<48x64xf16>, tensor<48xf16>) -> tensor<32x48xf16>
  return %y : tensor<32x48xf16>
}

// -----

// Column slices of a wider X: at an offset of 32 elements the rows stay
// 16-byte copies (the offset, 32, added to every address); at an offset of
// 1 they are contiguous but not aligned, and copied one element at a time.
// CHECK-LABEL: func.func @slices
// CHECK: arith.addi %c32{{(_[0-9]+)?}}, %
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1} : memref<3072xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
func.func @slices(%x: tensor<32x96xf16>) -> tensor<32x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<32x96xf16>):
    %acc = mb.for_loop -> (tensor<16x16xf16>) {
      %at = mb.input_iter %X imap = [0, -1, -1] fmap = 1 view = affine_map<(i, j) -> (i, j + 32)> : tensor<32x96xf16> -> tensor<16x16xf16>
      // expected-remark @below {{input tile copied one element (2 bytes) at a time: the view's runs along its last dim are contiguous in the device tensor but not aligned to 4 bytes (offset 1)}}
      %bt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 view = affine_map<(i, j) -> (i, j + 1)> : tensor<32x96xf16> -> tensor<16x16xf16>
      %m = mb.add %at, %bt : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
      %s = mb.accum_sum %m : tensor<16x16xf16> -> tensor<16x16xf16>
      mb.yield %s : tensor<16x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x16xf16> -> tensor<32x16xf16>
    mb.return %o : tensor<32x16xf16>
  } : (tensor<32x96xf16>) -> tensor<32x16xf16>
  return %y : tensor<32x16xf16>
}
