// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-to-cpu="threads=2" \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so,%libomp \
// RUN: | FileCheck %s

// 8192 thread blocks with 8 KiB of shared memory each: the CPU emulation
// allocates the block's shared memory once, not once per block (which would
// need 64 MiB of stack), and every block writes its row.

// CHECK: 8388608
func.func @f(%x: tensor<8192x1024xf32>) -> tensor<8192x1024xf32> {
  %y = mk.graph_kernel (%x) grid = [8192, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8192x1024xf32>):
    %acc = mb.for_loop -> (tensor<1x1024xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<8192x1024xf32> -> tensor<1x1024xf32>
      %e = mb.exp %xt : tensor<1x1024xf32>
      %s = mb.accum_sum %e : tensor<1x1024xf32> -> tensor<1x1024xf32>
      mb.yield %s : tensor<1x1024xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1024xf32> -> tensor<8192x1024xf32>
    mb.return %o : tensor<8192x1024xf32>
  } : (tensor<8192x1024xf32>) -> tensor<8192x1024xf32>
  return %y : tensor<8192x1024xf32>
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 8192 : index
  %cols = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<8192x1024xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      memref.store %zero, %x[%i, %j] : memref<8192x1024xf32>
    }
  }
  %xt = bufferization.to_tensor %x restrict : memref<8192x1024xf32> to tensor<8192x1024xf32>
  %yt = call @f(%xt) : (tensor<8192x1024xf32>) -> tensor<8192x1024xf32>
  %y = bufferization.to_buffer %yt : tensor<8192x1024xf32> to memref<8192x1024xf32>
  // exp(0) = 1 everywhere: the sum counts the elements written.
  %sum = scf.for %i = %c0 to %rows step %c1 iter_args(%a = %zero) -> (f32) {
    %r = scf.for %j = %c0 to %cols step %c1 iter_args(%b = %a) -> (f32) {
      %v = memref.load %y[%i, %j] : memref<8192x1024xf32>
      %b2 = arith.addf %b, %v : f32
      scf.yield %b2 : f32
    }
    scf.yield %r : f32
  }
  %n = arith.fptosi %sum : f32 to i64
  call @printI64(%n) : (i64) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %x : memref<8192x1024xf32>
  memref.dealloc %y : memref<8192x1024xf32>
  return
}
