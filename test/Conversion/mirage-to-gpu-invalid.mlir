// RUN: mirage-opt %s --convert-mirage-to-gpu -split-input-file -verify-diagnostics

// An mk op outside a graph-defined kernel is named in the diagnostic.
func.func @standalone_op(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'mk.exp' op is not supported by convert-mirage-to-gpu}}
  %0 = mk.exp %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
