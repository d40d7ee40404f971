// RUN: mirage-opt %s --mirage-gpu-launch-to-omp="threads=0" | FileCheck %s

// gpu.shuffle xor on the CPU, with the semantics of shfl.sync.bfly: every
// thread of the team publishes its value in its slot of a scratch buffer,
// the team synchronises, a thread reads the slot of lane (lane ^ offset) of
// its warp of 32 if that lane is below the width (otherwise its own value,
// and valid is false), and a second barrier keeps the next shuffle from
// overwriting a slot still being read.

// CHECK-LABEL: func.func @butterfly
// CHECK: %[[SCRATCH:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK: omp.parallel
// CHECK: %[[T:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[T]], %[[C32]] : index
// CHECK: %[[BASE:.*]] = arith.subi %[[T]], %[[LANE]] : index
// CHECK: memref.store %{{.*}}, %[[SCRATCH]][%[[T]]] : memref<?xf32>
// CHECK-NEXT: omp.barrier
// CHECK: %[[PARTNER:.*]] = arith.xori %[[LANE]], %{{.*}} : index
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[PARTNER]], %{{.*}} : index
// CHECK: %[[SRC:.*]] = arith.addi %[[BASE]], %[[PARTNER]] : index
// CHECK: %[[AT:.*]] = arith.select %{{.*}}, %[[SRC]], %[[T]] : index
// CHECK: %[[GOT:.*]] = memref.load %[[SCRATCH]][%[[AT]]] : memref<?xf32>
// CHECK-NEXT: omp.barrier
// CHECK-NEXT: %[[R:.*]] = arith.select %[[VALID]], %[[GOT]], %{{.*}} : f32
// CHECK-NOT: gpu.shuffle
// CHECK: memref.store %[[R]]
func.func @butterfly(%v: f32, %out: memref<48xf32>) {
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %o = arith.constant 16 : i32
  %w = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c48, %sy = %c1, %sz = %c1) {
    %r, %ok = gpu.shuffle xor %v, %o, %w : f32
    memref.store %r, %out[%tx] : memref<48xf32>
    gpu.terminator
  }
  return
}
