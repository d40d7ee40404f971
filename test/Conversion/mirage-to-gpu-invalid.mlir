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
