// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-to-cpu="threads=2" \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so,%libomp \
// RUN: | FileCheck %s

// The input form of the RMSNorm+MatMul benchmark at bs 1 (an mk.rms_norm and
// an mk.matmul outside any graph-defined kernel), wrapped into one kernel per
// op by --mirage-wrap-kernels, lowered and run on the CPU against the same
// f32 reference as the fused kernel.

// CHECK: compared 12288
// CHECK-NEXT: mismatches 0
// CHECK-NEXT: nonzero 1

func.func @rmsnorm_matmul(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x4096xf16>
  %y = mk.matmul %n, %w : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
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

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c17 = arith.constant 17 : index
  %c4096 = arith.constant 4096 : index
  %c6144 = arith.constant 6144 : index
  %f0 = arith.constant 0.0 : f32
  %f8 = arith.constant 8.0 : f32
  %f64 = arith.constant 64.0 : f32
  %fn = arith.constant 4096.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %tol = arith.constant 1.0e-2 : f32
  %one = arith.constant 1.0 : f32

  %x = memref.alloc() : memref<2x4096xf16>
  %w = memref.alloc() : memref<4096x6144xf16>
  %xd = memref.cast %x : memref<2x4096xf16> to memref<?x?xf16>
  %wd = memref.cast %w : memref<4096x6144xf16> to memref<?x?xf16>
  call @fill(%xd, %c7, %c3, %c17, %f8) : (memref<?x?xf16>, index, index, index, f32) -> ()
  call @fill(%wd, %c5, %c11, %c13, %f64) : (memref<?x?xf16>, index, index, index, f32) -> ()

  %xt = bufferization.to_tensor %x restrict : memref<2x4096xf16> to tensor<2x4096xf16>
  %wt = bufferization.to_tensor %w restrict : memref<4096x6144xf16> to tensor<4096x6144xf16>
  %yt = call @rmsnorm_matmul(%xt, %wt) : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  %y = bufferization.to_buffer %yt : tensor<2x6144xf16> to memref<2x6144xf16>

  // Reference in f32: rms per row, then (x / rms) . w.
  %bad = scf.for %i = %c0 to %c2 step %c1 iter_args(%nbad = %c0) -> (index) {
    %ss = scf.for %k = %c0 to %c4096 step %c1 iter_args(%a = %f0) -> (f32) {
      %h = memref.load %x[%i, %k] : memref<2x4096xf16>
      %v = arith.extf %h : f16 to f32
      %sq = arith.mulf %v, %v : f32
      %a2 = arith.addf %a, %sq : f32
      scf.yield %a2 : f32
    }
    %mean = arith.divf %ss, %fn : f32
    %me = arith.addf %mean, %eps : f32
    %rms = math.sqrt %me : f32
    %nb = scf.for %n = %c0 to %c6144 step %c1 iter_args(%cnt = %nbad) -> (index) {
      %dot = scf.for %k = %c0 to %c4096 step %c1 iter_args(%a = %f0) -> (f32) {
        %hx = memref.load %x[%i, %k] : memref<2x4096xf16>
        %hw = memref.load %w[%k, %n] : memref<4096x6144xf16>
        %vx = arith.extf %hx : f16 to f32
        %vw = arith.extf %hw : f16 to f32
        %p = arith.mulf %vx, %vw : f32
        %a2 = arith.addf %a, %p : f32
        scf.yield %a2 : f32
      }
      %ref = arith.divf %dot, %rms : f32
      %hy = memref.load %y[%i, %n] : memref<2x6144xf16>
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
  // Guard against a trivially zero output: some element must be > 0.1.
  %h0 = memref.load %y[%c0, %c5] : memref<2x6144xf16>
  %nz = scf.for %n = %c0 to %c6144 step %c1 iter_args(%any = %c0) -> (index) {
    %h = memref.load %y[%c1, %n] : memref<2x6144xf16>
    %v = arith.extf %h : f16 to f32
    %av = math.absf %v : f32
    %big = arith.cmpf ogt, %av, %tol : f32
    %r = arith.select %big, %c1, %any : index
    scf.yield %r : index
  }
  %total = arith.constant 12288 : i64
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
  memref.dealloc %x : memref<2x4096xf16>
  memref.dealloc %w : memref<4096x6144xf16>
  memref.dealloc %y : memref<2x6144xf16>
  return
}
llvm.mlir.global internal constant @str_compared("compared \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_mismatches("mismatches \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_nonzero("nonzero \00") {addr_space = 0 : i32}
