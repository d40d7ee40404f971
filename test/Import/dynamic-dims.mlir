// RUN: mirage-opt --mirage-import %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: mirage-opt --mirage-import="dynamic-dims=0" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=STATIC

// Exports with dynamic dims (docs/dynamic.md) import with them: IREE-style
// generics that size their inits with tensor.dim and tensor.empty(%d), a
// linalg.softmax over rows, a torch-mlir-style Linear on a dynamic batch
// with a head split (tensor.expand_shape with a dynamic output_shape), tosa
// ops on a dynamic token count, a softmax and a matmul whose reduced or
// contracted dim is dynamic. A dim that is static in one operand and
// dynamic in another stays outside with a remark. With dynamic-dims=0 every op on dynamic dims stays
// outside. --mirage-import-to-ptx imports them, searches them per size class
// and lowers them, one program for every size (test/Import/import-to-ptx-
// dynamic.mlir).

// STATIC-COUNT-6: remark: mirage-import: left outside: dynamic dims (kept by the default dynamic-dims=1, docs/dynamic.md)
// STATIC-NOT: {{= mk\.}}

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// The mean and the variance (reductions over the static 768), the centred
// rows and the scale and shift: one mk function with dynamic rows; the
// tensor.dim and tensor.empty sizing the inits go with the ops they sized,
// so the function is all mk (not outlined) and keeps its facts.
// CHECK-LABEL: func.func @layernorm(
// CHECK-SAME:    %{{.*}}: tensor<?x768xf32> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]}
// CHECK-NOT:   tensor.
// CHECK-NOT:   arith.
// CHECK:       mk.reduce_sum %{{.*}} dim = 1 : tensor<?x768xf32> -> tensor<?x1xf32>
// CHECK:       mk.sub %{{.*}}, %{{.*}} : tensor<?x768xf32>, tensor<?x1xf32> -> tensor<?x768xf32>
// CHECK:       mk.rms_norm %{{.*}} eps = {{.*}} : tensor<?x768xf32>
// CHECK:       mk.mul %{{.*}}, %{{.*}} : tensor<?x768xf32>, tensor<1x768xf32> -> tensor<?x768xf32>
// CHECK:       mk.add %{{.*}}, %{{.*}} : tensor<?x768xf32>, tensor<1x768xf32> -> tensor<?x768xf32>
// CHECK-NEXT:  return
func.func @layernorm(%x: tensor<?x768xf32> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]}, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %n = arith.constant 7.680000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %d = tensor.dim %x, %c0 : tensor<?x768xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x768xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e1 = tensor.empty(%d) : tensor<?xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%d) : tensor<?x768xf32>
  %cen = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %mean : tensor<?x768xf32>, tensor<?xf32>) outs(%e2 : tensor<?x768xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<?x768xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %var = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]} ins(%cen : tensor<?x768xf32>) outs(%z2 : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e3 = tensor.empty(%d) : tensor<?x768xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #col, #col, #map], iterator_types = ["parallel", "parallel"]} ins(%cen, %var, %g, %b : tensor<?x768xf32>, tensor<?xf32>, tensor<768xf32>, tensor<768xf32>) outs(%e3 : tensor<?x768xf32>) {
  ^bb0(%c: f32, %v: f32, %gg: f32, %bb: f32, %o: f32):
    %vm = arith.divf %v, %n : f32
    %ve = arith.addf %vm, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %c, %r : f32
    %u = arith.mulf %t, %gg : f32
    %w = arith.addf %u, %bb : f32
    linalg.yield %w : f32
  } -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

// -----

// linalg.softmax over the static dim of dynamic rows: max, exp, sum, div.
// CHECK-LABEL: func.func @softmax_rows(
// CHECK:       mk.reduce_max %{{.*}} dim = 1 : tensor<?x128xf32> -> tensor<?x1xf32>
// CHECK:       mk.exp %{{.*}} : tensor<?x128xf32>
// CHECK:       mk.reduce_sum %{{.*}} dim = 1 : tensor<?x128xf32> -> tensor<?x1xf32>
// CHECK:       mk.div %{{.*}}, %{{.*}} : tensor<?x128xf32>, tensor<?x1xf32> -> tensor<?x128xf32>
func.func @softmax_rows(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d) : tensor<?x128xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x128xf32>) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}

// -----

// IREE's all-dynamic softmax: the reduced dim is dynamic too ([C0.21]; a
// kernel walks it with a '?' loop, docs/dynamic.md "The walked tail").
// CHECK-LABEL: func.func @softmax_all_dynamic(
// CHECK:       mk.reduce_max %{{.*}} dim = 1 : tensor<?x?xf32> -> tensor<?x1xf32>
// CHECK:       mk.reduce_sum %{{.*}} dim = 1 : tensor<?x?xf32> -> tensor<?x1xf32>
// CHECK-NOT:   linalg.softmax
func.func @softmax_all_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// torch-mlir style: a Linear with bias and ReLU on a dynamic batch, then a
// head split whose output_shape reads the batch with tensor.dim.
#map = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @linear_heads(
// CHECK:       mk.matmul %{{.*}}, %{{.*}} : tensor<?x256xf32>, tensor<256x512xf32> -> tensor<?x512xf32>
// CHECK:       mk.add %{{.*}}, %{{.*}} : tensor<?x512xf32>, tensor<1x512xf32> -> tensor<?x512xf32>
// CHECK:       mk.relu %{{.*}} : tensor<?x512xf32>
// CHECK:       mk.reshape %{{.*}} : tensor<?x512xf32> -> tensor<?x8x64xf32>
func.func @linear_heads(%x: tensor<?x256xf32>, %w: tensor<256x512xf32>, %bias: tensor<512xf32>) -> tensor<?x8x64xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %d = tensor.dim %x, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%d) : tensor<?x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x256xf32>, tensor<256x512xf32>) outs(%f : tensor<?x512xf32>) -> tensor<?x512xf32>
  %e2 = tensor.empty(%d) : tensor<?x512xf32>
  %y = linalg.generic {indexing_maps = [#map, #col, #map], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<?x512xf32>, tensor<512xf32>) outs(%e2 : tensor<?x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %z = arith.maximumf %s, %cst : f32
    linalg.yield %z : f32
  } -> tensor<?x512xf32>
  %h = tensor.expand_shape %y [[0], [1, 2]] output_shape [%d, 8, 64] : tensor<?x512xf32> into tensor<?x8x64xf32>
  return %h : tensor<?x8x64xf32>
}
// -----

// A dynamic contracted dim, dynamic in both operands ([C0.20]).
// CHECK-LABEL: func.func @matmul_dynamic_k(
// CHECK:       mk.matmul %{{.*}}, %{{.*}} : tensor<4x?xf32>, tensor<?x512xf32> -> tensor<4x512xf32>
// CHECK-NOT:   linalg.matmul
func.func @matmul_dynamic_k(%x: tensor<4x?xf32>, %w: tensor<?x512xf32>) -> tensor<4x512xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x512xf32>) -> tensor<4x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x?xf32>, tensor<?x512xf32>) outs(%f : tensor<4x512xf32>) -> tensor<4x512xf32>
  return %m : tensor<4x512xf32>
}

// -----

// tosa on a dynamic token count: SiLU as sigmoid times x, a row sum added
// back, exp.
// CHECK-LABEL: func.func @tosa_rows(
// CHECK:       mk.silu %{{.*}} : tensor<?x64xf32>
// CHECK:       mk.reduce_sum %{{.*}} dim = 1 : tensor<?x64xf32> -> tensor<?x1xf32>
// CHECK:       mk.add %{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<?x1xf32> -> tensor<?x64xf32>
// CHECK:       mk.exp %{{.*}} : tensor<?x64xf32>
func.func @tosa_rows(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.sigmoid %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %m = tosa.mul %x, %s, %sh : (tensor<?x64xf32>, tensor<?x64xf32>, tensor<1xi8>) -> tensor<?x64xf32>
  %r = tosa.reduce_sum %m {axis = 1 : i32} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %d = tosa.add %m, %r : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %e = tosa.exp %d : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %e : tensor<?x64xf32>
}

// -----

// A dynamic dim meeting a static one (a runtime-checked equality in tosa):
// mk pairs a dynamic dim with dynamic dims or a broadcast 1 only.
// CHECK-LABEL: func.func @mixed(
// CHECK:       tosa.add
func.func @mixed(%x: tensor<?x64xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-remark @below {{left outside: a dim that is static in one operand and dynamic in another}}
  %a = tosa.add %x, %y : (tensor<?x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %a : tensor<4x64xf32>
}

// -----

// tosa.matmul with dynamic rows: imported (its unit batch dropped); rows
// that are dynamic in A but static in the result stay outside.
// CHECK-LABEL: func.func @tosa_matmul_rows(
// CHECK:       mk.matmul %{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<64x32xf32> -> tensor<?x32xf32>
// CHECK-LABEL: func.func @tosa_matmul_mixed(
// CHECK:       tosa.matmul
func.func @tosa_matmul_rows(%a: tensor<1x?x64xf32>, %b: tensor<1x64x32xf32>) -> tensor<1x?x32xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.matmul %a, %b, %za, %zb : (tensor<1x?x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x32xf32>
  return %c : tensor<1x?x32xf32>
}
func.func @tosa_matmul_mixed(%a: tensor<1x?x64xf32>, %b: tensor<1x64x32xf32>) -> tensor<1x4x32xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{left outside: a dim that is static in one operand and dynamic in another}}
  %c = tosa.matmul %a, %b, %za, %zb : (tensor<1x?x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x32xf32>
  return %c : tensor<1x4x32xf32>
}
