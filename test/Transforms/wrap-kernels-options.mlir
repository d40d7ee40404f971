// RUN: not mirage-opt %s --mirage-wrap-kernels="block-threads=2048" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-opt %s --mirage-wrap-kernels="max-tile=0" 2>&1 | FileCheck %s --check-prefix=TILE

// Absurd options get a diagnostic, not a kernel that fails verification.
// THREADS: error: mirage-wrap-kernels: block-threads must be in [1, 1024], got 2048
// TILE: error: mirage-wrap-kernels: max-tile must be >= 1, got 0
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = mk.exp %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
