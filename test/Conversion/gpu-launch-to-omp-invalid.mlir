// RUN: mirage-opt %s --mirage-gpu-launch-to-omp -split-input-file -verify-diagnostics

// Async launches have no CPU emulation.
func.func @async_launch() {
  %c1 = arith.constant 1 : index
  %t = gpu.wait async
  // expected-error @+1 {{'gpu.launch' op is not supported by mirage-gpu-launch-to-omp}}
  %t2 = gpu.launch async [%t] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                     threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

// Of the warp-level shuffles only xor of an f32 (the row reductions'
// butterflies) has a CPU emulation.
func.func @shuffle(%v: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %o = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.shuffle' op has no CPU emulation in mirage-gpu-launch-to-omp}}
    %r, %ok = gpu.shuffle down %v, %o, %w : f32
    gpu.terminator
  }
  return
}
