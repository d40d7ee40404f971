// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-to-cpu="threads=0 tensor-cores=1" \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so,%libomp \
// RUN: | FileCheck %s

// The fused GatedMLP kernel with its matmul tiles on the tensor-core path:
// the same nvgpu.ldmatrix + nvgpu.mma.sync code the PTX pipeline emits
// (m16n8k16 fragments loaded from shared memory), run on the CPU with both
// warp-level ops emulated lane by lane (one OpenMP thread per GPU thread),
// against an f32 reference. X is
// 16x1024 so the 16x64 tiles fit the 16x8x16 mma shape.
// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1" | FileCheck %s --check-prefix=IR
// IR-COUNT-2: nvgpu.ldmatrix
// IR: nvgpu.mma.sync

// CHECK: compared 16384
// CHECK-NEXT: mismatches 0
// CHECK-NEXT: nonzero 1

func.func @gated_mlp(%x: tensor<16x1024xf16>, %w1: tensor<1024x1024xf16>, %w2: tensor<1024x1024xf16>) -> tensor<16x1024xf16> {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [16, 1, 1] block = [64, 1, 1] forloop = 16 {
  ^bb0(%X: tensor<16x1024xf16>, %W1: tensor<1024x1024xf16>, %W2: tensor<1024x1024xf16>):
    %acc:2 = mb.for_loop -> (tensor<16x64xf16>, tensor<16x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<16x1024xf16> -> tensor<16x64xf16>
      %at = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<1024x1024xf16> -> tensor<64x64xf16>
      %bt = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<1024x1024xf16> -> tensor<64x64xf16>
      %m1 = mb.matmul %xt, %at : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %m2 = mb.matmul %xt, %bt : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %s1 = mb.accum_sum %m1 : tensor<16x64xf16> -> tensor<16x64xf16>
      %s2 = mb.accum_sum %m2 : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %s1, %s2 : tensor<16x64xf16>, tensor<16x64xf16>
    }
    %g = mt.thread_graph (%acc#0, %acc#1) : (tensor<16x64xf16>, tensor<16x64xf16>) -> tensor<16x64xf16> {
    ^bb0(%a: f16, %b: f16):
      %s = mt.silu %a : f16
      %p = mt.mul %s, %b : f16
      mt.yield %p : f16
    }
    %o = mb.output_saver %g omap = [1, -1, -1] : tensor<16x64xf16> -> tensor<16x1024xf16>
    mb.return %o : tensor<16x1024xf16>
  } : (tensor<16x1024xf16>, tensor<1024x1024xf16>, tensor<1024x1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

func.func private @printI64(i64)
func.func private @printNewline()
func.func private @printString(!llvm.ptr)

// Deterministic input in [-1, 1): ((i * a + j * b) mod m - m / 2) / s.
func.func @fill(%buf: memref<?x?xf16>, %a: index, %b: index, %m: index, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = memref.dim %buf, %c0 : memref<?x?xf16>
  %cols = memref.dim %buf, %c1 : memref<?x?xf16>
  %half = arith.divui %m, %c2 : index
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %ia = arith.muli %i, %a : index
      %jb = arith.muli %j, %b : index
      %t = arith.addi %ia, %jb : index
      %r = arith.remui %t, %m : index
      %ri = arith.index_cast %r : index to i64
      %hi = arith.index_cast %half : index to i64
      %d = arith.subi %ri, %hi : i64
      %f = arith.sitofp %d : i64 to f32
      %v = arith.divf %f, %s : f32
      %h = arith.truncf %v : f32 to f16
      memref.store %h, %buf[%i, %j] : memref<?x?xf16>
    }
  }
  return
}

// Dot product of row i of x with column n of w, in f32.
func.func @dot(%x: memref<16x1024xf16>, %w: memref<1024x1024xf16>, %i: index, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k1024 = arith.constant 1024 : index
  %f0 = arith.constant 0.0 : f32
  %d = scf.for %k = %c0 to %k1024 step %c1 iter_args(%a = %f0) -> (f32) {
    %hx = memref.load %x[%i, %k] : memref<16x1024xf16>
    %hw = memref.load %w[%k, %n] : memref<1024x1024xf16>
    %vx = arith.extf %hx : f16 to f32
    %vw = arith.extf %hw : f16 to f32
    %p = arith.mulf %vx, %vw : f32
    %a2 = arith.addf %a, %p : f32
    scf.yield %a2 : f32
  }
  return %d : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c17 = arith.constant 17 : index
  %c19 = arith.constant 19 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %f8 = arith.constant 8.0 : f32
  %f32c = arith.constant 32.0 : f32
  %tol = arith.constant 1.0e-2 : f32
  %one = arith.constant 1.0 : f32

  %x = memref.alloc() : memref<16x1024xf16>
  %w1 = memref.alloc() : memref<1024x1024xf16>
  %w2 = memref.alloc() : memref<1024x1024xf16>
  %xd = memref.cast %x : memref<16x1024xf16> to memref<?x?xf16>
  %w1d = memref.cast %w1 : memref<1024x1024xf16> to memref<?x?xf16>
  %w2d = memref.cast %w2 : memref<1024x1024xf16> to memref<?x?xf16>
  call @fill(%xd, %c7, %c3, %c17, %f8) : (memref<?x?xf16>, index, index, index, f32) -> ()
  call @fill(%w1d, %c5, %c11, %c13, %f32c) : (memref<?x?xf16>, index, index, index, f32) -> ()
  call @fill(%w2d, %c3, %c7, %c19, %f32c) : (memref<?x?xf16>, index, index, index, f32) -> ()

  %xt = bufferization.to_tensor %x restrict : memref<16x1024xf16> to tensor<16x1024xf16>
  %w1t = bufferization.to_tensor %w1 restrict : memref<1024x1024xf16> to tensor<1024x1024xf16>
  %w2t = bufferization.to_tensor %w2 restrict : memref<1024x1024xf16> to tensor<1024x1024xf16>
  %yt = call @gated_mlp(%xt, %w1t, %w2t) : (tensor<16x1024xf16>, tensor<1024x1024xf16>, tensor<1024x1024xf16>) -> tensor<16x1024xf16>
  %y = bufferization.to_buffer %yt : tensor<16x1024xf16> to memref<16x1024xf16>

  // Reference in f32: silu(a) * b with a = x.w1, b = x.w2.
  %bad = scf.for %i = %c0 to %c16 step %c1 iter_args(%nbad = %c0) -> (index) {
    %nb = scf.for %n = %c0 to %c1024 step %c1 iter_args(%cnt = %nbad) -> (index) {
      %a = func.call @dot(%x, %w1, %i, %n) : (memref<16x1024xf16>, memref<1024x1024xf16>, index, index) -> f32
      %b = func.call @dot(%x, %w2, %i, %n) : (memref<16x1024xf16>, memref<1024x1024xf16>, index, index) -> f32
      %na = arith.negf %a : f32
      %e = math.exp %na : f32
      %den = arith.addf %one, %e : f32
      %silu = arith.divf %a, %den : f32
      %ref = arith.mulf %silu, %b : f32
      %hy = memref.load %y[%i, %n] : memref<16x1024xf16>
      %got = arith.extf %hy : f16 to f32
      %diff = arith.subf %got, %ref : f32
      %ad = math.absf %diff : f32
      %ar = math.absf %ref : f32
      %scale = arith.maximumf %ar, %one : f32
      %lim = arith.mulf %scale, %tol : f32
      %isbad = arith.cmpf ugt, %ad, %lim : f32
      %inc = arith.select %isbad, %c1, %c0 : index
      %cnt2 = arith.addi %cnt, %inc : index
      scf.yield %cnt2 : index
    }
    scf.yield %nb : index
  }
  %nz = scf.for %n = %c0 to %c1024 step %c1 iter_args(%any = %c0) -> (index) {
    %h = memref.load %y[%c1, %n] : memref<16x1024xf16>
    %v = arith.extf %h : f16 to f32
    %av = math.absf %v : f32
    %big = arith.cmpf ogt, %av, %tol : f32
    %r = arith.select %big, %c1, %any : index
    scf.yield %r : index
  }
  %total = arith.constant 16384 : i64
  %bad64 = arith.index_cast %bad : index to i64
  %nz64 = arith.index_cast %nz : index to i64
  %s0 = llvm.mlir.addressof @str_compared : !llvm.ptr
  call @printString(%s0) : (!llvm.ptr) -> ()
  call @printI64(%total) : (i64) -> ()
  call @printNewline() : () -> ()
  %s1 = llvm.mlir.addressof @str_mismatches : !llvm.ptr
  call @printString(%s1) : (!llvm.ptr) -> ()
  call @printI64(%bad64) : (i64) -> ()
  call @printNewline() : () -> ()
  %s2 = llvm.mlir.addressof @str_nonzero : !llvm.ptr
  call @printString(%s2) : (!llvm.ptr) -> ()
  call @printI64(%nz64) : (i64) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %x : memref<16x1024xf16>
  memref.dealloc %w1 : memref<1024x1024xf16>
  memref.dealloc %w2 : memref<1024x1024xf16>
  memref.dealloc %y : memref<16x1024xf16>
  return
}
llvm.mlir.global internal constant @str_compared("compared \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_mismatches("mismatches \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_nonzero("nonzero \00") {addr_space = 0 : i32}
