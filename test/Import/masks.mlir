// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Masks from index compares (issue 30 item 4): a select or an add by a
// condition on linalg.index expressions, in the body or in a generic of its
// own whose i1 or 0/fill tensor the next generic reads, is an
// mk.band_mask (keep lower <= i[c] - i[r] <= upper, fill the rest). The
// mask's own generic goes with it. The differential check compares each
// import with upstream MLIR's lowering of the function (f64).
// DIFF: PASS @causal_in_body
// DIFF: PASS @causal_i1_tensor
// DIFF: PASS @decode_additive_tensor
// DIFF: PASS @additive_select_in_body
// DIFF: PASS @sliding_window
// DIFF: PASS @length_mask
// DIFF: PASS @causal_softmax
// DIFF: PASS @bert_mask
// DIFF: PASS @bool_mask_mul
// DIFF: PASS @bool_mask_select
// DIFF: PASS @masked_fill
// DIFF: PASS @tosa_masked_fill
// DIFF: PASS @tosa_padding_mask
// DIFF: 13 passed, 0 failed, 0 not checked

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#last2 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// torch's masked_fill(triu(ones, 1), -inf): keys after the query are -inf.
// CHECK-LABEL: func.func @causal_in_body(
// CHECK: mk.band_mask %{{.*}} dims = [1, 2] upper = 0 fill = 0xFFF0000000000000 : tensor<2x8x8xf32>
// CHECK-NOT: linalg.generic
func.func @causal_in_body(%s: tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %after = arith.cmpi sgt, %j, %i : index
    %v = arith.select %after, %ninf, %in : f32
    linalg.yield %v : f32
  } -> tensor<1x2x8x8xf32>
  return %r : tensor<1x2x8x8xf32>
}

// The mask as an i1 tensor of its own [queries, keys], broadcast over batch
// and heads; the select keeps the scores where it holds.
// CHECK-LABEL: func.func @causal_i1_tensor(
// CHECK: mk.band_mask %{{.*}} dims = [2, 3] upper = 0 fill = -1.000000e+04 : tensor<2x2x8x8xf32>
// CHECK-NOT: linalg.generic
func.func @causal_i1_tensor(%s: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  %fill = arith.constant -1.0e4 : f32
  %me = tensor.empty() : tensor<8x8xi1>
  %mask = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%me : tensor<8x8xi1>) {
  ^bb0(%out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %keep = arith.cmpi sle, %j64, %i64 : i64
    linalg.yield %keep : i1
  } -> tensor<8x8xi1>
  %e = tensor.empty() : tensor<2x2x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #last2, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x2x8x8xf32>, tensor<8x8xi1>) outs(%e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %m: i1, %out: f32):
    %v = arith.select %m, %in, %fill : f32
    linalg.yield %v : f32
  } -> tensor<2x2x8x8xf32>
  return %r : tensor<2x2x8x8xf32>
}

// A decode step with 4 cached positions: an additive 0/-inf tensor (HF's
// causal mask with a past length), added to the scores.
// CHECK-LABEL: func.func @decode_additive_tensor(
// CHECK: mk.band_mask %{{.*}} dims = [0, 1] upper = 4 fill = 0xFFF0000000000000 additive : tensor<4x8xf32>
// CHECK-NOT: linalg.generic
func.func @decode_additive_tensor(%s: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c4 = arith.constant 4 : index
  %me = tensor.empty() : tensor<4x8xf32>
  %mask = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%me : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %pos = arith.addi %i, %c4 : index
    %future = arith.cmpi ugt, %j, %pos : index
    %v = arith.select %future, %ninf, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mask : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %v = arith.addf %in, %m : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// x + select(j <= i, 0, -1e9) in one body (a finite fill is added).
// CHECK-LABEL: func.func @additive_select_in_body(
// CHECK: mk.band_mask %{{.*}} dims = [0, 1] upper = 0 fill = -1.000000e+09 additive : tensor<8x8xf32>
func.func @additive_select_in_body(%s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %big = arith.constant -1.0e9 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sle, %j, %i : index
    %m = arith.select %keep, %zero, %big : f32
    %v = arith.addf %m, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// A window of 3 keys: i - 3 < j <= i, two compares joined by andi.
// CHECK-LABEL: func.func @sliding_window(
// CHECK: mk.band_mask %{{.*}} dims = [0, 1] lower = -2 upper = 0 fill = 0xFFF0000000000000 : tensor<8x8xf32>
func.func @sliding_window(%s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %causal = arith.cmpi sle, %j, %i : index
    %start = arith.subi %i, %c3 : index
    %recent = arith.cmpi sgt, %j, %start : index
    %keep = arith.andi %causal, %recent : i1
    %v = arith.select %keep, %in, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// A static length: keys from 5 on are padding.
// CHECK-LABEL: func.func @length_mask(
// CHECK: mk.band_mask %{{.*}} dims = [1] upper = 4 fill = 0.000000e+00 : tensor<4x8xf32>
func.func @length_mask(%s: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c5 = arith.constant 5 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %j = linalg.index 1 : index
    %pad = arith.cmpi sge, %j, %c5 : index
    %v = arith.select %pad, %zero, %in : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Masked softmax as torch-mlir writes it: the -inf scores add nothing to the
// row's max and sum; one mk function.
// CHECK-LABEL: func.func @causal_softmax(
// CHECK: mk.band_mask
// CHECK: mk.reduce_max
// CHECK: mk.exp
// CHECK-NOT: linalg.generic
func.func @causal_softmax(%s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %after = arith.cmpi sgt, %j, %i : index
    %v = arith.select %after, %ninf, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %re = tensor.empty() : tensor<8x1xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%re : tensor<8x1xf32>) -> tensor<8x1xf32>
  %max = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<8x8xf32>) outs(%minit : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<8x1xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<8x8xf32>, tensor<8x1xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%re : tensor<8x1xf32>) -> tensor<8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x8xf32>) outs(%sinit : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<8x1xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<8x8xf32>, tensor<8x1xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %s2: f32, %out: f32):
    %v = arith.divf %in, %s2 : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// Integer and boolean masks read from an argument and converted to float:
// the conversion stays outside, at the function's inputs, and the rest is
// mk ops (BERT's extended attention mask (1 - mask) * min, added to the
// scores; a boolean mask multiplied in).
#bcast = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @bert_mask(
// CHECK: arith.sitofp
// CHECK: call @bert_mask_mk0
// CHECK-LABEL: func.func private @bert_mask_mk0(
// CHECK: mk.add_scalar
// CHECK: mk.mul_scalar
// CHECK: mk.add
func.func @bert_mask(%s: tensor<8x16xf32>, %m: tensor<1x16xi64>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %me = tensor.empty() : tensor<1x16xf32>
  %mf = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<1x16xi64>) outs(%me : tensor<1x16xf32>) {
  ^bb0(%in: i64, %out: f32):
    %f = arith.sitofp %in : i64 to f32
    linalg.yield %f : f32
  } -> tensor<1x16xf32>
  %ext = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mf : tensor<1x16xf32>) outs(%me : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %inv = arith.subf %one, %in : f32
    %v = arith.mulf %inv, %big : f32
    linalg.yield %v : f32
  } -> tensor<1x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %ext : tensor<8x16xf32>, tensor<1x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %x: f32, %out: f32):
    %v = arith.addf %in, %x : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @bool_mask_mul(
// CHECK: arith.uitofp
// CHECK: call @bool_mask_mul_mk0
// CHECK-LABEL: func.func private @bool_mask_mul_mk0(
// CHECK: mk.mul
func.func @bool_mask_mul(%s: tensor<8x16xf32>, %m: tensor<8x16xi1>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x16xf32>, tensor<8x16xi1>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %b: i1, %out: f32):
    %f = arith.uitofp %b : i1 to f32
    %v = arith.mulf %in, %f : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A boolean mask read from an argument by a select (torch's masked_fill,
// where(mask, scores, -inf)): the mask is converted to 0/1 float outside, at
// the inputs, and the select is mk.where (keep where the mask is not 0); a
// select that keeps the value where the mask is false is an inverted
// mk.where (masked_fill: the fill where the mask is set).
// CHECK-LABEL: func.func @bool_mask_select(
// CHECK: arith.uitofp
// CHECK: call @bool_mask_select_mk0
// CHECK-LABEL: func.func private @bool_mask_select_mk0(
// CHECK: mk.where %{{.*}}, %{{.*}} fill = 0xFFF0000000000000 : tensor<1x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
func.func @bool_mask_select(%s: tensor<8x16xf32>, %m: tensor<1x16xi1>) -> tensor<8x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x16xf32>, tensor<1x16xi1>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %keep: i1, %out: f32):
    %v = arith.select %keep, %in, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func private @masked_fill_mk0(
// CHECK-NOT: mk.neg
// CHECK: mk.where %{{.*}}, %{{.*}} fill = -1.000000e+04 inverted
func.func @masked_fill(%s: tensor<8x16xf32>, %m: tensor<8x16xi1>) -> tensor<8x16xf32> {
  %fill = arith.constant -1.0e4 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x16xf32>, tensor<8x16xi1>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %pad: i1, %out: f32):
    %v = arith.select %pad, %fill, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// tosa.select by a boolean argument (TFLite's masked_fill): the mask's 0/1
// conversion (tosa.cast) stays outside, the inverted mk.where keeps the
// scores where the mask is false.
// CHECK-LABEL: func.func @tosa_masked_fill(
// CHECK: tosa.cast %{{.*}} : (tensor<2x8x16xi1>) -> tensor<2x8x16xf32>
// CHECK: func.func private @tosa_masked_fill_mk0(
// CHECK-NOT: mk.neg
// CHECK: mk.where %{{.*}}, %{{.*}} fill = -1.000000e+09 inverted : tensor<2x8x16xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
// CHECK-NOT: tosa.select
func.func @tosa_masked_fill(%s: tensor<2x8x16xf32>, %m: tensor<2x8x16xi1>) -> tensor<2x8x16xf32> {
  %c = "tosa.const"() <{values = dense<-1.0e+09> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %0 = tosa.select %m, %c, %s : (tensor<2x8x16xi1>, tensor<1x1x1xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %1 = tosa.exp %0 : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %1 : tensor<2x8x16xf32>
}

// A key-padding mask [1, 1, keys] broadcast over the batch and queries:
// mk.where broadcasts it.
// CHECK-LABEL: func.func @tosa_padding_mask(
// CHECK: tosa.cast %{{.*}} : (tensor<1x1x16xi1>) -> tensor<1x1x16xf32>
// CHECK: mk.where %{{.*}}, %{{.*}} fill = 0.000000e+00 : tensor<1x1x16xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
func.func @tosa_padding_mask(%s: tensor<2x8x16xf32>, %m: tensor<1x1x16xi1>) -> tensor<2x8x16xf32> {
  %c = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %0 = tosa.select %m, %s, %c : (tensor<1x1x16xi1>, tensor<2x8x16xf32>, tensor<1x1x1xf32>) -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}
