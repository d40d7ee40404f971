// RUN: mirage-opt %s --mirage-gpu-launch-to-omp="threads=2" -split-input-file -verify-diagnostics

// The mma emulation needs the real warps: one OpenMP thread per GPU thread.
func.func @mma_with_small_team(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'nvgpu.mma.sync' op is emulated only with one OpenMP thread per GPU thread (threads=0)}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.terminator
  }
  return
}

// -----

// So does the ldmatrix emulation.
func.func @ldmatrix_with_small_team(%m: memref<16x16xf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'nvgpu.ldmatrix' op is emulated only with one OpenMP thread per GPU thread (threads=0)}}
    %f = nvgpu.ldmatrix %m[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    gpu.terminator
  }
  return
}
