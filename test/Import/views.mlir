// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Views at the boundary (issue 30, item 5): what only rearranges the inputs
// no longer cuts the mk function. Static slices of a packed QKV argument
// stay outside and go before the mk run (in the caller); slices of a packed
// projection that mk computes move up through the matmul to the weight
// argument; GQA's repeat of K/V written as torch-mlir does (a rank-5
// broadcast between reshapes, or linalg.broadcast) becomes mk.concat between
// views, of an argument or of a computed value. tosa.slice (TFLite's form)
// moves the same way.
// The functions that keep a slice outside mk are checked too: the slices
// run upstream, the mk code in the interpreter.
// DIFF: PASS @packed_qkv_arg
// DIFF: PASS @packed_qkv_computed
// DIFF: PASS @gqa_repeat_arg
// DIFF: PASS @gqa_repeat_computed
// DIFF: PASS @repeat_broadcast
// DIFF: PASS @tosa_packed_qkv
// DIFF: PASS @tosa_slice_arg
// DIFF: 7 passed, 0 failed, 0 not checked

// CHECK-LABEL: func.func @packed_qkv_arg(
// CHECK-DAG: %[[Q:.*]] = tensor.extract_slice %arg0[0, 0] [8, 16] [1, 1]
// CHECK-DAG: %[[K:.*]] = tensor.extract_slice %arg0[0, 16] [8, 16] [1, 1]
// CHECK-DAG: %[[V:.*]] = tensor.extract_slice %arg0[0, 32] [8, 8] [1, 1]
// CHECK: %[[R:.*]] = call @packed_qkv_arg_mk0(
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @packed_qkv_arg_mk0(
// CHECK-NEXT: mk.transpose
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.add
// CHECK-NEXT: return
// CHECK-NOT: @packed_qkv_arg_mk1
func.func @packed_qkv_arg(%qkv: tensor<8x48xf32>) -> tensor<8x8xf32> {
  %q = tensor.extract_slice %qkv[0, 0] [8, 16] [1, 1] : tensor<8x48xf32> to tensor<8x16xf32>
  %k = tensor.extract_slice %qkv[0, 16] [8, 16] [1, 1] : tensor<8x48xf32> to tensor<8x16xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
         ins(%q, %k : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %x = linalg.exp ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %v = tensor.extract_slice %qkv[0, 32] [8, 8] [1, 1] : tensor<8x48xf32> to tensor<8x8xf32>
  %y = linalg.add ins(%x, %v : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// qkv = x W + bias, then Q, K, V sliced from it: each is x W[:, cols] +
// bias[cols], the slices of the weight and bias arguments in the caller.
// CHECK-LABEL: func.func @packed_qkv_computed(
// CHECK-DAG: tensor.extract_slice %arg1[0, 0] [32, 16] [1, 1]
// CHECK-DAG: tensor.extract_slice %arg2[0, 0] [1, 16] [1, 1]
// CHECK-DAG: tensor.extract_slice %arg1[0, 16] [32, 16] [1, 1]
// CHECK-DAG: tensor.extract_slice %arg2[0, 16] [1, 16] [1, 1]
// CHECK-DAG: tensor.extract_slice %arg1[0, 32] [32, 16] [1, 1]
// CHECK-DAG: tensor.extract_slice %arg2[0, 32] [1, 16] [1, 1]
// CHECK: %[[R:.*]] = call @packed_qkv_computed_mk0(
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @packed_qkv_computed_mk0(
// CHECK-COUNT-3: mk.matmul %arg0
// CHECK-NOT: @packed_qkv_computed_mk1
func.func @packed_qkv_computed(%x: tensor<8x32xf32>, %w: tensor<32x48xf32>, %bias: tensor<1x48xf32>) -> tensor<8x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x48xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x48xf32>) -> tensor<8x48xf32>
  %p = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x48xf32>) outs(%f : tensor<8x48xf32>) -> tensor<8x48xf32>
  %qkv = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%p, %bias : tensor<8x48xf32>, tensor<1x48xf32>) outs(%e : tensor<8x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x48xf32>
  %q = tensor.extract_slice %qkv[0, 0] [8, 16] [1, 1] : tensor<8x48xf32> to tensor<8x16xf32>
  %k = tensor.extract_slice %qkv[0, 16] [8, 16] [1, 1] : tensor<8x48xf32> to tensor<8x16xf32>
  %v = tensor.extract_slice %qkv[0, 32] [8, 16] [1, 1] : tensor<8x48xf32> to tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %qk = linalg.mul ins(%q, %k : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.add ins(%qk, %v : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// torch-mlir's repeat_kv of an argument: [1, 2, 8, 16] viewed as
// [1, 2, 1, 8, 16], broadcast to [1, 2, 2, 8, 16], viewed as [1, 4, 8, 16].
// CHECK-LABEL: func.func @gqa_repeat_arg(
// CHECK-NEXT: %[[K:.*]] = mk.reshape %arg1 : tensor<1x2x8x16xf32> -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[R:.*]] = mk.concat %[[K]], %[[K]] dim = 1 : tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32> -> tensor<2x2x8x16xf32>
// CHECK-NEXT: %[[Q:.*]] = mk.reshape %arg0
// CHECK-NEXT: %[[V:.*]] = mk.reshape %[[R]] : tensor<2x2x8x16xf32> -> tensor<4x8x16xf32>
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[V]] perm = [0, 2, 1]
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[Q]], %[[T]]
// CHECK-NEXT: %[[O:.*]] = mk.reshape %[[M]]
// CHECK-NEXT: return %[[O]]
func.func @gqa_repeat_arg(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>) -> tensor<1x4x8x8xf32> {
  %k5 = tensor.expand_shape %k [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 16] : tensor<1x2x8x16xf32> into tensor<1x2x1x8x16xf32>
  %e5 = tensor.empty() : tensor<1x2x2x8x16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
         ins(%k5 : tensor<1x2x1x8x16xf32>) outs(%e5 : tensor<1x2x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x8x16xf32>
  %kr = tensor.collapse_shape %b [[0], [1, 2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<1x4x8x16xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, h, s, d)>, affine_map<(b, h, s, t, d) -> (b, h, t, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
         ins(%q, %kr : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) outs(%f : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %a = arith.addf %acc, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x4x8x8xf32>
  return %s : tensor<1x4x8x8xf32>
}

// The repeat of a K computed in the function (x W_k, split into 2 heads):
// one mk function, no cut.
// CHECK-LABEL: func.func @gqa_repeat_computed(
// CHECK-NOT: call
// CHECK: mk.concat
// CHECK-NOT: call
// CHECK: return
func.func @gqa_repeat_computed(%x: tensor<8x32xf32>, %wk: tensor<32x32xf32>) -> tensor<4x8x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<8x32xf32>, tensor<32x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [8, 2, 16] : tensor<8x32xf32> into tensor<8x2x16xf32>
  %et = tensor.empty() : tensor<2x8x16xf32>
  %kt = linalg.transpose ins(%k3 : tensor<8x2x16xf32>) outs(%et : tensor<2x8x16xf32>) permutation = [1, 0, 2]
  %k4 = tensor.expand_shape %kt [[0, 1], [2], [3]] output_shape [2, 1, 8, 16] : tensor<2x8x16xf32> into tensor<2x1x8x16xf32>
  %e4 = tensor.empty() : tensor<2x2x8x16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%k4 : tensor<2x1x8x16xf32>) outs(%e4 : tensor<2x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x8x16xf32>
  %kr = tensor.collapse_shape %b [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  %ee = tensor.empty() : tensor<4x8x16xf32>
  %y = linalg.exp ins(%kr : tensor<4x8x16xf32>) outs(%ee : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// The same repeat as linalg.broadcast adding the repeated dim.
// CHECK-LABEL: func.func @repeat_broadcast(
// CHECK-NEXT: %[[K:.*]] = mk.reshape %arg0 : tensor<2x8x16xf32> -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[R:.*]] = mk.concat %[[K]], %[[K]], %[[K]] dim = 1
// CHECK-NEXT: %[[V:.*]] = mk.reshape %[[R]] : tensor<2x3x8x16xf32> -> tensor<6x8x16xf32>
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[V]]
// CHECK-NEXT: return %[[E]]
func.func @repeat_broadcast(%k: tensor<2x8x16xf32>) -> tensor<6x8x16xf32> {
  %e4 = tensor.empty() : tensor<2x3x8x16xf32>
  %b = linalg.broadcast ins(%k : tensor<2x8x16xf32>) outs(%e4 : tensor<2x3x8x16xf32>) dimensions = [1]
  %kr = tensor.collapse_shape %b [[0, 1], [2], [3]] : tensor<2x3x8x16xf32> into tensor<6x8x16xf32>
  %ee = tensor.empty() : tensor<6x8x16xf32>
  %y = linalg.exp ins(%kr : tensor<6x8x16xf32>) outs(%ee : tensor<6x8x16xf32>) -> tensor<6x8x16xf32>
  return %y : tensor<6x8x16xf32>
}

// TFLite packs Q, K, V in one weight and slices the product with tosa.slice.
// CHECK-LABEL: func.func @tosa_packed_qkv(
// CHECK-NEXT: %[[Q:.*]] = tensor.extract_slice %arg1[0, 0, 0] [1, 32, 16] [1, 1, 1]
// CHECK-NEXT: %[[K:.*]] = tensor.extract_slice %arg1[0, 0, 16] [1, 32, 16] [1, 1, 1]
// CHECK-NEXT: %[[R:.*]] = call @tosa_packed_qkv_mk0(%arg0, %[[Q]], %[[K]])
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @tosa_packed_qkv_mk0(
// CHECK-COUNT-2: mk.matmul
// CHECK: mk.mul
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_packed_qkv(%x: tensor<1x8x32xf32>, %w: tensor<1x32x48xf32>) -> tensor<1x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x32xf32>, tensor<1x32x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x48xf32>
  %s0 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s1 = tosa.const_shape {values = dense<[0, 0, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz = tosa.const_shape {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.slice %p, %s0, %sz : (tensor<1x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %k = tosa.slice %p, %s1, %sz : (tensor<1x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %q, %k, %shift : (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}
// A tosa.slice of an argument stays before the mk ops, with a remark.
// CHECK-LABEL: func.func @tosa_slice_arg(
// CHECK: %[[S:.*]] = tosa.slice %arg0
// CHECK-NEXT: %[[R:.*]] = call @tosa_slice_arg_mk0(%[[S]])
// CHECK-NEXT: return %[[R]]
func.func @tosa_slice_arg(%x: tensor<8x48xf32>) -> tensor<8x16xf32> {
  %s0 = tosa.const_shape {values = dense<[0, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sz = tosa.const_shape {values = dense<[8, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q = tosa.slice %x, %s0, %sz : (tensor<8x48xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x16xf32>
  %y = tosa.exp %q : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
