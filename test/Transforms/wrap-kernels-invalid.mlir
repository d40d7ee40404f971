// RUN: mirage-opt %s --mirage-wrap-kernels -split-input-file -verify-diagnostics

// A batched matmul of rank 4 has two batch dims plus M and N to spread over a
// three-dimensional grid.
func.func @rank4_matmul(%a: tensor<2x2x16x16xf16>, %b: tensor<2x2x16x16xf16>) -> tensor<2x2x16x16xf16> {
  // expected-error @+1 {{'mk.matmul' op cannot be wrapped into a graph-defined kernel: a rank-4 matmul needs 4 grid dims}}
  %0 = mk.matmul %a, %b : tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16> -> tensor<2x2x16x16xf16>
  return %0 : tensor<2x2x16x16xf16>
}

// -----

// A row that rms_norm needs whole does not fit in 1 KiB of shared memory.
module attributes {mk.smem_limit = 1024} {
  func.func @row_too_long(%x: tensor<2x4096xf16>) -> tensor<2x4096xf16> {
    // expected-error @+1 {{'mk.rms_norm' op cannot be wrapped into a graph-defined kernel: it does not fit the shared-memory limit}}
    %0 = mk.rms_norm %x eps = 1.0e-06 : tensor<2x4096xf16>
    return %0 : tensor<2x4096xf16>
  }
}

// -----

// Two leading dims of 70000 need 70000 blocks on two grid dims; y and z are
// limited to 65535.
func.func @grid_too_large(%x: tensor<70000x70000x1x64xf16>) -> tensor<70000x70000x1x64xf16> {
  // expected-error @+1 {{'mk.exp' op cannot be wrapped into a graph-defined kernel: its grid [70000, 70000, 1] exceeds the device limits (65535 blocks on y and z)}}
  %0 = mk.exp %x : tensor<70000x70000x1x64xf16>
  return %0 : tensor<70000x70000x1x64xf16>
}

// -----

// A dynamic dim needs a grid dim of its own ([K19]); the three are taken by
// the static dims partitioned before it.
func.func @dynamic_dim_without_grid_dim(%x: tensor<?x2x300x200xf32>) -> tensor<?x2x300x200xf32> {
  // expected-error @+1 {{'mk.exp' op cannot be wrapped into a graph-defined kernel: its dynamic dim 0 is not partitioned by a grid dim (there are three)}}
  %y = mk.exp %x : tensor<?x2x300x200xf32>
  return %y : tensor<?x2x300x200xf32>
}
