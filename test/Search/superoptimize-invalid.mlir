// Functions the search does not support get a remark saying why and are left
// unchanged; the pass itself succeeds.
//
// RUN: mirage-opt --mirage-superoptimize %s -split-input-file -verify-diagnostics
// RUN: mirage-opt --mirage-superoptimize %s -split-input-file 2>/dev/null | FileCheck %s

// CHECK-LABEL: func.func @transpose(
// CHECK-NEXT:    mk.transpose
// expected-remark@+1 {{not superoptimized: op 'mk.transpose' is not supported by the search}}
func.func @transpose(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = mk.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @weighted(
// CHECK-NEXT:    mk.rms_norm
// expected-remark@+1 {{not superoptimized: op 'mk.rms_norm' is not supported by the search (rms_norm with a weight)}}
func.func @weighted(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %t = mk.rms_norm %x weight(%w : tensor<8xf32>) eps = 1.0e-06 : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// Dynamic dims the kernel level cannot size (a function with dynamic
// sizes is searched per size class: superoptimize-dynamic.mlir).
// CHECK-LABEL: func.func @dynamic_result(
// CHECK-NEXT:    tensor.cast
// expected-remark@+1 {{not superoptimized: its dynamic dims cannot be sized: 'tensor.cast' op has a dynamic result dim}}
func.func @dynamic_result(%x: tensor<4x8xf32>) -> tensor<?x8xf32> {
  %c = tensor.cast %x : tensor<4x8xf32> to tensor<?x8xf32>
  return %c : tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func.func @arith(
// CHECK-NEXT:    arith.addf
// expected-remark@+1 {{not superoptimized: op 'arith.addf' is not supported by the search}}
func.func @arith(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = arith.addf %x, %x : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// One result is an argument, the other is computed: not supported (a
// program whose results are all arguments is the identity, see
// superoptimize-degenerate.mlir).
// CHECK-LABEL: func.func @mixed(
// expected-remark@+1 {{not superoptimized: a result is a function argument and the others are not all arguments}}
func.func @mixed(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = mk.exp %x : tensor<4x8xf32>
  return %x, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @mixed(
// expected-remark@+1 {{not superoptimized: arguments of different element types are not supported}}
func.func @mixed(%x: tensor<4x8xf32>, %y: tensor<4x8xf16>) -> tensor<4x8xf32> {
  %t = mk.exp %x : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @scalar(
// expected-remark@+1 {{not superoptimized: argument #0 is not a static tensor of rank 1 to 4}}
func.func @scalar(%x: f32) -> f32 {
  return %x : f32
}

// -----

// Declarations and functions that already hold graph-defined kernels.
// CHECK-LABEL: func.func private @external(
func.func private @external(%x: tensor<4x8xf32>) -> tensor<4x8xf32>

// CHECK-LABEL: func.func @fused(
// CHECK-NEXT:    mk.graph_kernel
// expected-remark@+1 {{not superoptimized: the function already contains graph-defined kernels}}
func.func @fused(%x: tensor<64x32xf16>) -> tensor<64x32xf16> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<64x32xf16>):
    %acc = mb.for_loop -> (tensor<16x32xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<64x32xf16> -> tensor<16x32xf16>
      %s = mb.accum_sum %xt : tensor<16x32xf16> -> tensor<16x32xf16>
      mb.yield %s : tensor<16x32xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x32xf16> -> tensor<64x32xf16>
    mb.return %o : tensor<64x32xf16>
  } : (tensor<64x32xf16>) -> tensor<64x32xf16>
  return %y : tensor<64x32xf16>
}


// -----

// Outside the verifier's fragment (an exp inside silu's exp): no candidate
// could ever be verified, so the search does not start.
// CHECK-LABEL: func.func @silu_exp(
// CHECK-NEXT:    mk.exp
// CHECK-NEXT:    mk.silu
// expected-remark@+1 {{not superoptimized: the equivalence verifier cannot decide this function}}
func.func @silu_exp(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = mk.exp %x : tensor<8x64xf32>
  %s = mk.silu %e : tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}
