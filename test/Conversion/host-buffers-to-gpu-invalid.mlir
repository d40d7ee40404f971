// RUN: mirage-opt %s --mirage-host-buffers-to-gpu -split-input-file -verify-diagnostics

// A launch that was not outlined: the pass would move buffers its body uses
// on the device.
func.func @not_outlined(%m: memref<4xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op is not outlined: mirage-host-buffers-to-gpu runs after gpu-kernel-outlining}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    gpu.terminator
  }
  return
}

// -----

// A stack buffer of the host cannot live on the device.
func.func @alloca() {
  // expected-error @+1 {{'memref.alloca' op in a host function cannot be moved to device memory by mirage-host-buffers-to-gpu}}
  %m = memref.alloca() : memref<4xf16>
  return
}
