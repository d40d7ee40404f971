// RUN: mirage-opt %s --convert-mirage-to-gpu -split-input-file -verify-diagnostics

// An mk op outside a graph-defined kernel is named in the diagnostic (the
// mirage-to-gpu pipeline runs --mirage-wrap-kernels first).
func.func @standalone_op(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'mk.exp' op is not supported by convert-mirage-to-gpu}}
  %0 = mk.exp %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// expected-error @+1 {{convert-mirage-to-gpu expects tensor arguments and results, got 'f32'}}
func.func @scalar_argument(%x: tensor<4x8xf32>, %s: f32) -> tensor<4x8xf32> {
  %0 = mk.exp %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The verifier counts the 64x384 f16 tile and its f16 accumulator: 96 KiB,
// exactly the default limit. The lowering keeps accumulators in f32, which
// needs 144 KiB: a diagnostic instead of a kernel that cannot launch.
func.func @lowered_smem_exceeds(%x: tensor<64x6144xf16>) -> tensor<64x384xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op needs 147456 bytes of shared memory once lowered (f32 accumulators, aligned tiles), more than the target's 98304}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 16 {
  ^bb0(%X: tensor<64x6144xf16>):
    %acc = mb.for_loop -> (tensor<64x384xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<64x6144xf16> -> tensor<64x384xf16>
      %s = mb.accum_sum %xt : tensor<64x384xf16> -> tensor<64x384xf16>
      mb.yield %s : tensor<64x384xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<64x384xf16> -> tensor<64x384xf16>
    mb.return %o : tensor<64x384xf16>
  } : (tensor<64x6144xf16>) -> tensor<64x384xf16>
  return %y : tensor<64x384xf16>
}

// -----

// [K20] A dispatch on a size the function does not have.
// expected-error @+1 {{[K20] dispatches on size 'cols', which is not one of its dynamic sizes}}
func.func @dispatch_unknown_size(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32>
    attributes {mk.size_dispatch = {size = "cols", bounds = array<i64: 16>, programs = [@dispatch_unknown_size, @dispatch_unknown_size]}} {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
