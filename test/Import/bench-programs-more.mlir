// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs.
// DIFF: PASS @torch_ntrans
// DIFF: PASS @torch_moe
// DIFF: PASS @tosa_gated_mlp
// DIFF: PASS @tosa_ntrans
// DIFF: 4 passed, 0 failed, 0 not checked

// More benchmark programs of bench/programs (small shapes) as exporters
// write them: ntrans and moe in linalg the way torch-mlir lowers them
// (reductions that drop the dim and tensor.expand_shape it back, the mean as
// a sum times 1/n, broadcasts in the maps, batch_matmul), gated_mlp and
// ntrans in tosa (keep-dim reductions, rsqrt, reciprocal folded into muls).
// Each must import to a program the verifier finds equivalent to the mk
// form.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red2 = affine_map<(d0, d1) -> (d0)>
#row2 = affine_map<(d0, d1) -> (d0, 0)>
#bias2 = affine_map<(d0, d1) -> (0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// EQ-DAG: remark: equivalent to @ntrans_ref
// (eps as the f32 constant of the export holds it)
func.func @ntrans_ref(%H: tensor<4x64xf32>, %X: tensor<4x64xf32>, %alpha: tensor<1x64xf32>) -> tensor<4x64xf32> {
  %hn = mk.rms_norm %H eps = 9.9999999747524271E-7 : tensor<4x64xf32>
  %d = mk.sub %hn, %X : tensor<4x64xf32>, tensor<4x64xf32> -> tensor<4x64xf32>
  %ad = mk.mul %alpha, %d : tensor<1x64xf32>, tensor<4x64xf32> -> tensor<4x64xf32>
  %y = mk.add %X, %ad : tensor<4x64xf32>, tensor<4x64xf32> -> tensor<4x64xf32>
  %o = mk.rms_norm %y eps = 9.9999999747524271E-7 : tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// CHECK-LABEL: func.func @torch_ntrans(
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.
// CHECK: return
func.func @torch_ntrans(%h: tensor<4x64xf32>, %x: tensor<4x64xf32>, %alpha: tensor<1x64xf32>) -> tensor<4x64xf32> attributes {mk.reference = @ntrans_ref} {
  %zero = arith.constant 0.0 : f32
  %inv_n = arith.constant 1.562500e-02 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  // rms_norm(h): sum of squares over dim 1 (dropped, then expanded back)
  %ss = linalg.generic {indexing_maps = [#id2, #red2], iterator_types = ["parallel", "reduction"]}
          ins(%h : tensor<4x64xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %ssx = tensor.expand_shape %ss [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %hn = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%h, %ssx : tensor<4x64xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %0 = arith.mulf %s, %inv_n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.mulf %a, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<4x64xf32>
  // y = x + alpha * (hn - x), alpha broadcast over rows in the map
  %y = linalg.generic {indexing_maps = [#id2, #id2, #bias2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%hn, %x, %alpha : tensor<4x64xf32>, tensor<4x64xf32>, tensor<1x64xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = arith.mulf %c, %0 : f32
    %2 = arith.addf %b, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<4x64xf32>
  %ys = linalg.generic {indexing_maps = [#id2, #red2], iterator_types = ["parallel", "reduction"]}
          ins(%y : tensor<4x64xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %ysx = tensor.expand_shape %ys [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %out = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
           ins(%y, %ysx : tensor<4x64xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %0 = arith.mulf %s, %inv_n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.mulf %a, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<4x64xf32>
  return %out : tensor<4x64xf32>
}

// EQ-DAG: remark: equivalent to @moe_ref
func.func @moe_ref(%X: tensor<2x4x32xf32>, %A: tensor<2x32x16xf32>, %B: tensor<2x16x32xf32>) -> tensor<2x4x32xf32> {
  %h = mk.matmul %X, %A : tensor<2x4x32xf32>, tensor<2x32x16xf32> -> tensor<2x4x16xf32>
  %e = mk.exp %h : tensor<2x4x16xf32>
  %o = mk.matmul %e, %B : tensor<2x4x16xf32>, tensor<2x16x32xf32> -> tensor<2x4x32xf32>
  return %o : tensor<2x4x32xf32>
}
// CHECK-LABEL: func.func @torch_moe(
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: return
func.func @torch_moe(%x: tensor<2x4x32xf32>, %a: tensor<2x32x16xf32>, %b: tensor<2x16x32xf32>) -> tensor<2x4x32xf32> attributes {mk.reference = @moe_ref} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %h = linalg.batch_matmul ins(%x, %a : tensor<2x4x32xf32>, tensor<2x32x16xf32>) outs(%f0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %e = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%h : tensor<2x4x16xf32>) outs(%e0 : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16xf32>
  %e1 = tensor.empty() : tensor<2x4x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %o = linalg.batch_matmul ins(%e, %b : tensor<2x4x16xf32>, tensor<2x16x32xf32>) outs(%f1 : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  return %o : tensor<2x4x32xf32>
}

// EQ-DAG: remark: equivalent to @gated_mlp_ref
func.func @gated_mlp_ref(%X: tensor<1x4x64xf32>, %W1: tensor<1x64x32xf32>, %W2: tensor<1x64x32xf32>) -> tensor<1x4x32xf32> {
  %a = mk.matmul %X, %W1 : tensor<1x4x64xf32>, tensor<1x64x32xf32> -> tensor<1x4x32xf32>
  %b = mk.matmul %X, %W2 : tensor<1x4x64xf32>, tensor<1x64x32xf32> -> tensor<1x4x32xf32>
  %s = mk.silu %a : tensor<1x4x32xf32>
  %o = mk.mul %s, %b : tensor<1x4x32xf32>, tensor<1x4x32xf32> -> tensor<1x4x32xf32>
  return %o : tensor<1x4x32xf32>
}
// CHECK-LABEL: func.func @tosa_gated_mlp(
// CHECK: mk.silu
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_gated_mlp(%x: tensor<1x4x64xf32>, %w1: tensor<1x64x32xf32>, %w2: tensor<1x64x32xf32>) -> tensor<1x4x32xf32> attributes {mk.reference = @gated_mlp_ref} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x4x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x32xf32>
  %b = tosa.matmul %x, %w2, %zp, %zp : (tensor<1x4x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x32xf32>
  %sg = tosa.sigmoid %a : (tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
  %s = tosa.mul %a, %sg, %shift : (tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<1xi8>) -> tensor<1x4x32xf32>
  %o = tosa.mul %s, %b, %shift : (tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<1xi8>) -> tensor<1x4x32xf32>
  return %o : tensor<1x4x32xf32>
}

// EQ-DAG: remark: equivalent to @ntrans_ref3
func.func @ntrans_ref3(%H: tensor<1x4x64xf32>, %X: tensor<1x4x64xf32>, %alpha: tensor<1x1x64xf32>) -> tensor<1x4x64xf32> {
  %hn = mk.rms_norm %H eps = 9.9999999747524271E-7 : tensor<1x4x64xf32>
  %d = mk.sub %hn, %X : tensor<1x4x64xf32>, tensor<1x4x64xf32> -> tensor<1x4x64xf32>
  %ad = mk.mul %alpha, %d : tensor<1x1x64xf32>, tensor<1x4x64xf32> -> tensor<1x4x64xf32>
  %y = mk.add %X, %ad : tensor<1x4x64xf32>, tensor<1x4x64xf32> -> tensor<1x4x64xf32>
  return %y : tensor<1x4x64xf32>
}
// CHECK-LABEL: func.func @tosa_ntrans(
// CHECK-NEXT: %[[H:.*]] = mk.reshape %arg0 : tensor<1x4x64xf32> -> tensor<4x64xf32>
// CHECK-NEXT: mk.rms_norm %[[H]] eps = 9.9999999747524271E-7 : tensor<4x64xf32>
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_ntrans(%h: tensor<1x4x64xf32>, %x: tensor<1x4x64xf32>, %alpha: tensor<1x1x64xf32>) -> tensor<1x4x64xf32> attributes {mk.reference = @ntrans_ref3} {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<9.99999997E-7> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sq = tosa.mul %h, %h, %shift : (tensor<1x4x64xf32>, tensor<1x4x64xf32>, tensor<1xi8>) -> tensor<1x4x64xf32>
  %ss = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x4x64xf32>) -> tensor<1x4x1xf32>
  %m = tosa.mul %ss, %inv_n, %shift : (tensor<1x4x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1xf32>
  %me = tosa.add %m, %eps : (tensor<1x4x1xf32>, tensor<1x1x1xf32>) -> tensor<1x4x1xf32>
  %r = tosa.rsqrt %me : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %hn = tosa.mul %h, %r, %shift : (tensor<1x4x64xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x64xf32>
  %d = tosa.sub %hn, %x : (tensor<1x4x64xf32>, tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
  %ad = tosa.mul %alpha, %d, %shift : (tensor<1x1x64xf32>, tensor<1x4x64xf32>, tensor<1xi8>) -> tensor<1x4x64xf32>
  %y = tosa.add %x, %ad : (tensor<1x4x64xf32>, tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
  return %y : tensor<1x4x64xf32>
}
