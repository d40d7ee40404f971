// RUN: mirage-opt %s --mirage-wrap-kernels --convert-mirage-to-gpu --canonicalize --cse -split-input-file | FileCheck %s
// RUN: mirage-opt %s --mirage-wrap-kernels --convert-mirage-to-gpu="async-copies=1" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=ASYNC

// Dynamic dims (docs/dynamic.md) lower to one program for every size: the
// size is read from an argument (memref.dim), a '?' grid dim launches
// ceil(size / tile) blocks, intermediate buffers are allocated at the size,
// a dynamic reshape expands with the size, and in the kernels the last
// tile's loads are clamped to the last row (arith.minui with the size) and
// its stores past the end skipped (scf.if).

// CHECK-LABEL: func.func @linear_heads(
// CHECK-SAME:    %[[X:.*]]: memref<?x64xf32>, %{{.*}}: memref<64x128xf32>, %[[OUT:.*]]: memref<?x2x64xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %c0 : memref<?x64xf32>
// CHECK:         %[[Y:.*]] = memref.alloc(%[[N]]) : memref<?x128xf32>
// CHECK:         %[[BLOCKS:.*]] = arith.ceildivui %[[N]], %c64 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[BLOCKS]], %{{.*}} = %c8, %{{.*}} = %c1)
// The matmul's [64, 64] tiles of %x are whole rows: one merged index of
// size * 64 elements, clamped to its last 4-element chunk.
// CHECK:           %[[EXTENT:.*]] = arith.muli %[[N]], %c64 : index
// CHECK:           %[[LAST:.*]] = arith.subi %[[EXTENT]], %c4 : index
// CHECK:           arith.minui %{{.*}}, %[[LAST]] : index
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[ROW:.*]], %[[N]] : index
// CHECK-NEXT:      scf.if %[[IN]]
// CHECK:             vector.store %{{.*}}, %[[Y]][%[[ROW]], %{{.*}}]
// CHECK:         %[[E:.*]] = memref.alloc(%[[N]]) : memref<?x128xf32>
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[BLOCKS]],
// CHECK:         memref.expand_shape %[[E]] {{\[\[}}0], [1, 2]] output_shape [%[[N]], 2, 64] : memref<?x128xf32> into memref<?x2x64xf32>
// ASYNC-LABEL: func.func @linear_heads(
// ASYNC:         %[[N:.*]] = memref.dim
// ASYNC:         gpu.launch
// ASYNC:           arith.minui
// ASYNC:           nvgpu.device_async_copy
func.func @linear_heads(%x: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "tokens">]}, %w: tensor<64x128xf32>) -> tensor<?x2x64xf32> {
  %y = mk.matmul %x, %w : tensor<?x64xf32>, tensor<64x128xf32> -> tensor<?x128xf32>
  %e = mk.exp %y : tensor<?x128xf32>
  %h = mk.reshape %e : tensor<?x128xf32> -> tensor<?x2x64xf32>
  return %h : tensor<?x2x64xf32>
}

// -----

// [K20] A function that dispatches on a size calls the program of the
// run-time size's class: size <= 16 the first, <= 256 the second, above
// the last. Its callers allocate dynamic results at the size of the
// argument dim it is read from.
// CHECK-LABEL: func.func @dispatch(
// CHECK-SAME:    %[[X:.*]]: memref<?x8xf32>, %[[OUT:.*]]: memref<?x8xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %c0
// CHECK:         %[[SMALL:.*]] = arith.cmpi ule, %[[N]], %c16
// CHECK:         scf.if %[[SMALL]] {
// CHECK-NEXT:      func.call @exp_small(%[[X]], %[[OUT]]) : (memref<?x8xf32>, memref<?x8xf32>) -> ()
// CHECK-NEXT:    } else {
// CHECK:           %[[MID:.*]] = arith.cmpi ule, %[[N]], %c256
// CHECK:           scf.if %[[MID]] {
// CHECK-NEXT:        func.call @exp_mid(%[[X]], %[[OUT]])
// CHECK-NEXT:      } else {
// CHECK-NEXT:        func.call @exp_large(%[[X]], %[[OUT]])
// CHECK:       func.func private @exp_small(%{{.*}}: memref<?x8xf32>, %{{.*}}: memref<?x8xf32>)
// CHECK:         gpu.launch
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:    %[[A:.*]]: tensor<?x8xf32>
// CHECK:         %[[D:.*]] = tensor.dim %[[A]], %c0
// CHECK:         %[[R:.*]] = memref.alloc(%[[D]]) : memref<?x8xf32>
// CHECK:         call @dispatch(%{{.*}}, %[[R]])
func.func @dispatch(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32>
    attributes {mk.size_dispatch = {size = "rows", bounds = array<i64: 16, 256>, programs = [@exp_small, @exp_mid, @exp_large]}} {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func private @exp_small(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32> {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func private @exp_mid(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32> {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func private @exp_large(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32> {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func @caller(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = func.call @dispatch(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// A size whose facts make it a multiple of the tile needs no masks: with
// divisor 64 the 64-row tiles never overhang (no clamps, no guards); with
// divisor 32 they may.
// CHECK-LABEL: func.func @exact_rows(
// CHECK:         gpu.launch
// CHECK-NOT:     arith.minui
// CHECK-NOT:     scf.if
// CHECK-LABEL: func.func @inexact_rows(
// CHECK:         gpu.launch
// CHECK:         arith.minui
// CHECK:         scf.if
func.func @exact_rows(%x: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "tokens", divisor = 64>]}, %w: tensor<64x128xf32>) -> tensor<?x128xf32> {
  %y = mk.matmul %x, %w : tensor<?x64xf32>, tensor<64x128xf32> -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}
func.func @inexact_rows(%x: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "tokens", divisor = 32>]}, %w: tensor<64x128xf32>) -> tensor<?x128xf32> {
  %y = mk.matmul %x, %w : tensor<?x64xf32>, tensor<64x128xf32> -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}
