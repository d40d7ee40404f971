// RUN: mirage-opt --mirage-import %s -split-input-file -verify-diagnostics | FileCheck %s

// Ops that cannot be imported stay untouched, each with a remark that says
// why; the mk runs around them are outlined into private functions.

// CHECK-LABEL: func.func @erf_outside
// CHECK: %[[C:.*]] = call @erf_outside_mk0(%{{.*}}, %{{.*}})
// CHECK: %[[T:.*]] = tosa.erf %[[C]] {user.tag = "kept"}
// CHECK: %[[D:.*]] = call @erf_outside_mk1(%[[T]])
// CHECK: return %[[D]]
// CHECK: func.func private @erf_outside_mk0
// CHECK-NEXT: mk.add
// CHECK-NEXT: mk.exp
// CHECK: func.func private @erf_outside_mk1
// CHECK-NEXT: mk.sigmoid
func.func @erf_outside(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tosa.add %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = tosa.exp %0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark @below {{mirage-import: left outside: tosa.erf outside an exact GELU (mk has no erf)}}
  %2 = tosa.erf %1 {user.tag = "kept"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = tosa.sigmoid %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %3 : tensor<2x8xf32>
}

// -----

// A tosa op mk has no counterpart for.
// CHECK-LABEL: func.func @floor_outside
// CHECK: tosa.floor
func.func @floor_outside(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-remark @below {{mirage-import: left outside: this tosa op is not imported yet}}
  %0 = tosa.floor %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A minimum over a dynamic dim: mk reduces a dynamic dim by sums and maxima
// (docs/dynamic.md); the element-wise op after it is imported.
// CHECK-LABEL: func.func @dynamic
// CHECK: tosa.reduce_min
// CHECK: call @dynamic_mk0
// CHECK: func.func private @dynamic_mk0(%{{.*}}: tensor<8x1xf32>) -> tensor<8x1xf32>
// CHECK-NEXT: mk.exp
func.func @dynamic(%a: tensor<8x?xf32>) -> tensor<8x1xf32> {
  // expected-remark @below {{left outside: a dynamic dim is reduced by a min, a product or an argmax (mk reduces a dynamic dim by sums and maxima, docs/dynamic.md)}}
  %0 = tosa.reduce_min %a {axis = 1 : i32} : (tensor<8x?xf32>) -> tensor<8x1xf32>
  %1 = tosa.exp %0 : (tensor<8x1xf32>) -> tensor<8x1xf32>
  return %1 : tensor<8x1xf32>
}

// -----

// CHECK-LABEL: func.func @rank5
// CHECK: tosa.exp
func.func @rank5(%a: tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32> {
  // expected-remark @below {{left outside: operand type is not an f16/bf16/f32 tensor of rank 1-4}}
  %0 = tosa.exp %a : (tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @int_mul
// CHECK: tosa.mul
func.func @int_mul(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %shift = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-remark @below {{left outside: tosa.mul with a non-zero shift}}
  %0 = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A matmul accumulating into an init of another rank (a cast would be
// needed): the accumulator is not a tensor mk can add.
// CHECK-LABEL: func.func @accumulate_dynamic
// CHECK: linalg.matmul
func.func @accumulate_dynamic(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-remark @below {{left outside: a dim that is static in one operand and dynamic in another (mk pairs a dynamic dim with dynamic dims or a broadcast 1 only, [C0.19])}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A body op without an mk counterpart: the generic stays, nothing half-built.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @erf
// CHECK-NOT: mk.
// CHECK: math.erf
func.func @erf(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: body op 'math.erf' has no mk counterpart}}
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    %y = math.erf %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A copy that broadcasts to a higher rank, read by no mk op.
// CHECK-LABEL: func.func @broadcast_copy
// CHECK: linalg.generic
func.func @broadcast_copy(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: a broadcast copy not folded into its users (mk has no broadcast op: the copy folds only when every user is imported)}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Found by the robustness sweep (each crashed or produced invalid IR
// before): a scalar operand of a generic, tensors with an encoding, a
// single-input concat that changes the encoding, a body reading a value
// defined outside the generic.
// CHECK-LABEL: func.func @scalar_operand
// CHECK: linalg.generic
#id1 = affine_map<(d0) -> (d0)>
#sc1 = affine_map<(d0) -> ()>
func.func @scalar_operand(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-remark @below {{left outside: a scalar (non-tensor) operand is not imported}}
  %r = linalg.generic {indexing_maps = [#id1, #sc1, #id1], iterator_types = ["parallel"]} ins(%a, %s : tensor<4xf32>, f32) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.addf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @encoded
// CHECK: linalg.add
// CHECK: linalg.transpose
// CHECK: tosa.concat
func.func @encoded(%a: tensor<4x8xf32, "enc">, %b: tensor<4x8xf32, "enc">, %c: tensor<2x3xf32, "e1">) -> (tensor<8x4xf32, "enc">, tensor<2x3xf32, "e2">) {
  %e = tensor.empty() : tensor<4x8xf32, "enc">
  // expected-remark @below {{left outside: operand type is not an f16/bf16/f32 tensor of rank 1-4 without encoding}}
  %r = linalg.add ins(%a, %b : tensor<4x8xf32, "enc">, tensor<4x8xf32, "enc">) outs(%e : tensor<4x8xf32, "enc">) -> tensor<4x8xf32, "enc">
  %e2 = tensor.empty() : tensor<8x4xf32, "enc">
  // expected-remark @below {{left outside: operand type is not an f16/bf16/f32 tensor of rank 1-4 without encoding}}
  %t = linalg.transpose ins(%r : tensor<4x8xf32, "enc">) outs(%e2 : tensor<8x4xf32, "enc">) permutation = [1, 0]
  // expected-remark @below {{left outside: operand type is not an f16/bf16/f32 tensor of rank 1-4 without encoding}}
  %k = tosa.concat %c {axis = 1 : i32} : (tensor<2x3xf32, "e1">) -> tensor<2x3xf32, "e2">
  return %t, %k : tensor<8x4xf32, "enc">, tensor<2x3xf32, "e2">
}

// -----

// CHECK-LABEL: func.func @outside_value
// CHECK: linalg.generic
func.func @outside_value(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %s2 = arith.mulf %s, %s : f32
  // expected-remark @below {{left outside: the body reads a value defined outside the generic}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.addf %x, %s2 : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
