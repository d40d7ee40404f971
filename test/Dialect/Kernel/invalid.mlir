// RUN: mirage-opt %s -split-input-file -verify-diagnostics

// Negative tests of the mk dialect: one split per constraint of
// docs/constraints/mk.md, named after the constraint. Ops whose result type is
// inferred ([C0.4]-[C0.9], [C0.12], [C0.13], [K1], [K2]) report the broken
// constraint and then, from the InferTypeOpInterface verifier, "failed to
// infer returned types".

//===----------------------------------------------------------------------===//
// [C0.1] tensor types
//===----------------------------------------------------------------------===//

func.func @C0_1_rank_0(%x: tensor<f16>) -> tensor<f16> {
  // expected-error @+1 {{'mk.exp' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<f16>'}}
  %0 = mk.exp %x : tensor<f16>
  return %0 : tensor<f16>
}

// -----

func.func @C0_1_rank_5(%x: tensor<1x2x3x4x5xf32>) -> tensor<1x2x3x4x5xf32> {
  // expected-error @+1 {{'mk.neg' op operand #0 must be tensor of rank 1 to 4}}
  %0 = mk.neg %x : tensor<1x2x3x4x5xf32>
  return %0 : tensor<1x2x3x4x5xf32>
}

// -----

// Dynamic dims are kernel-level only: a tile is static (a dynamic kernel's
// device tensors may be dynamic, [K19]).
func.func @C0_1_dynamic_dim(%x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  %0 = mk.graph_kernel (%x) grid = [?, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<?x8xf16>):
    %acc = mb.for_loop -> (tensor<4x8xf16>) {
      // expected-error @+1 {{'mb.input_iter' op result #0 must be static tensor of rank 1 to 4 with positive dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<?x8xf16>'}}
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<?x8xf16> -> tensor<?x8xf16>
      %a = mb.accum_sum %t : tensor<?x8xf16> -> tensor<4x8xf16>
      mb.yield %a : tensor<4x8xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x8xf16> -> tensor<?x8xf16>
    mb.return %o : tensor<?x8xf16>
  } : (tensor<?x8xf16>) -> tensor<?x8xf16>
  return %0 : tensor<?x8xf16>
}

// -----

func.func @C0_1_i32_element(%x: tensor<2x8xi32>) -> tensor<2x8x1xi32> {
  // expected-error @+1 {{'mk.reduce_sum' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<2x8xi32>'}}
  %0 = mk.reduce_sum %x dim = 1 : tensor<2x8xi32> -> tensor<2x8x1xi32>
  return %0 : tensor<2x8x1xi32>
}

// -----

func.func @C0_1_f64_element(%x: tensor<2x8xf64>, %y: tensor<2x8xf64>) -> tensor<2x8xf64> {
  // expected-error @+1 {{'mk.add' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<2x8xf64>'}}
  %0 = mk.add %x, %y : tensor<2x8xf64>, tensor<2x8xf64> -> tensor<2x8xf64>
  return %0 : tensor<2x8xf64>
}

// -----

func.func @C0_1_zero_dim(%x: tensor<2x0xf16>, %w: tensor<0x4xf16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'mk.matmul' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<2x0xf16>'}}
  %0 = mk.matmul %x, %w : tensor<2x0xf16>, tensor<0x4xf16> -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @C0_1_unranked_result(%x: tensor<2x8xf16>) -> tensor<*xf16> {
  // expected-error @+1 {{'mk.transpose' op result #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<*xf16>'}}
  %0 = "mk.transpose"(%x) <{perm = array<i64: 1, 0>}> : (tensor<2x8xf16>) -> tensor<*xf16>
  return %0 : tensor<*xf16>
}

// -----

func.func @C0_1_graph_kernel_operand(%x: tensor<2x8xi8>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op operand #0 must be variadic of tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<2x8xi8>'}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<2x8xi8>):
    mb.return
  } : (tensor<2x8xi8>) -> tensor<2x8xf16>
  return %y : tensor<2x8xf16>
}

//===----------------------------------------------------------------------===//
// [C0.3] clamp
//===----------------------------------------------------------------------===//

// -----

func.func @C0_3_clamp_min_above_max(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.clamp' op [C0.3] requires min <= max, got min = 2.000000e+00 and max = 1.000000e+00}}
  %0 = mk.clamp %x min = 2.0 max = 1.0 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_3_clamp_nan_bound(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mk.clamp' op [C0.3] requires min <= max, got min = nan}}
  %0 = mk.clamp %x min = 0x7FF8000000000000 max = 1.0 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

//===----------------------------------------------------------------------===//
// [C0.4] broadcasting
//===----------------------------------------------------------------------===//

// -----

func.func @C0_4_rank_mismatch(%x: tensor<2x8xf16>, %y: tensor<8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.add' op [C0.4] operands must have equal rank, got 2 and 1}}
  %0 = mk.add %x, %y : tensor<2x8xf16>, tensor<8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_4_no_broadcast(%x: tensor<2x8xbf16>, %y: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'mk.pow' op [C0.4] shapes [2, 8] and [2, 4] do not broadcast (each dim must be equal or 1)}}
  %0 = mk.pow %x, %y : tensor<2x8xbf16>, tensor<2x4xbf16> -> tensor<2x8xbf16>
  return %0 : tensor<2x8xbf16>
}

// -----

func.func @C0_4_wrong_result_shape(%x: tensor<2x1xf16>, %y: tensor<1x8xf16>) -> tensor<2x1xf16> {
  // expected-error @+1 {{'mk.mul' op [C0.14] result type 'tensor<2x1xf16>' should be 'tensor<2x8xf16>'}}
  %0 = mk.mul %x, %y : tensor<2x1xf16>, tensor<1x8xf16> -> tensor<2x1xf16>
  return %0 : tensor<2x1xf16>
}

//===----------------------------------------------------------------------===//
// [C0.5]-[C0.8] matmul
//===----------------------------------------------------------------------===//

// -----

func.func @C0_5_matmul_rank_1(%x: tensor<8xf16>, %w: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{'mk.matmul' op [C0.5] operands must have equal rank >= 2, got ranks 1 and 1}}
  %0 = mk.matmul %x, %w : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

func.func @C0_5_matmul_rank_mismatch(%x: tensor<2x4x8xf16>, %w: tensor<8x16xf16>) -> tensor<2x4x16xf16> {
  // expected-error @+1 {{'mk.matmul' op [C0.5] operands must have equal rank >= 2, got ranks 3 and 2}}
  %0 = mk.matmul %x, %w : tensor<2x4x8xf16>, tensor<8x16xf16> -> tensor<2x4x16xf16>
  return %0 : tensor<2x4x16xf16>
}

// -----

func.func @C0_6_matmul_contraction_mismatch(%x: tensor<2x64xf16>, %w: tensor<32x16xf16>) -> tensor<2x16xf16> {
  // expected-error @+1 {{'mk.matmul' op [C0.6] contraction dims differ: lhs [2, 64] has 64 columns but rhs [32, 16] has 32 rows}}
  %0 = mk.matmul %x, %w : tensor<2x64xf16>, tensor<32x16xf16> -> tensor<2x16xf16>
  return %0 : tensor<2x16xf16>
}

// -----

func.func @C0_7_matmul_batch_mismatch(%x: tensor<2x4x8xf32>, %w: tensor<3x8x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{'mk.matmul' op [C0.7] batch dims differ: [2, 4, 8] vs [3, 8, 16]}}
  %0 = mk.matmul %x, %w : tensor<2x4x8xf32>, tensor<3x8x16xf32> -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @C0_7_matmul_batch_not_broadcast(%x: tensor<1x4x8xf32>, %w: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  // expected-error @+1 {{'mk.matmul' op [C0.7] batch dims differ}}
  %0 = mk.matmul %x, %w : tensor<1x4x8xf32>, tensor<3x8x16xf32> -> tensor<3x4x16xf32>
  return %0 : tensor<3x4x16xf32>
}

// -----

func.func @C0_8_matmul_element_types(%x: tensor<2x8xf16>, %w: tensor<8x4xbf16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'mk.matmul' op [C0.8] operand element types differ: 'f16' vs 'bf16'}}
  %0 = mk.matmul %x, %w : tensor<2x8xf16>, tensor<8x4xbf16> -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @C0_8_binary_element_types(%x: tensor<2x8xf16>, %y: tensor<2x8xf32>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.sub' op [C0.8] operand element types differ: 'f16' vs 'f32'}}
  %0 = mk.sub %x, %y : tensor<2x8xf16>, tensor<2x8xf32> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_8_matmul_result_element_type(%x: tensor<2x8xf16>, %w: tensor<8x4xf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mk.matmul' op [C0.14] result type 'tensor<2x3xf32>' should be 'tensor<2x4xf16>'}}
  %0 = mk.matmul %x, %w : tensor<2x8xf16>, tensor<8x4xf16> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// [C0.15] matmul result precision, [C0.16] convert
//===----------------------------------------------------------------------===//

// -----

func.func @C0_15_matmul_narrower_result(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> tensor<2x4xbf16> {
  // expected-error @+1 {{'mk.matmul' op [C0.15] result element type 'bf16' must be the operands' ('f32') or f32}}
  %0 = mk.matmul %x, %w : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xbf16>
  return %0 : tensor<2x4xbf16>
}

// -----

func.func @C0_15_matmul_other_half_result(%x: tensor<2x8xbf16>, %w: tensor<8x4xbf16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'mk.matmul' op [C0.15] result element type 'f16' must be the operands' ('bf16') or f32}}
  %0 = mk.matmul %x, %w : tensor<2x8xbf16>, tensor<8x4xbf16> -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @C0_16_convert_shape(%x: tensor<2x8xbf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'mk.convert' op [C0.16] result shape [2, 4] differs from the operand's [2, 8]}}
  %0 = mk.convert %x : tensor<2x8xbf16> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @C0_17_band_mask_three_dims(%x: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  // expected-error @+1 {{'mk.band_mask' op [C0.17] dims must hold one or two dims, got 3}}
  %0 = mk.band_mask %x dims = [0, 1, 2] upper = 0 fill = 0.0 : tensor<2x8x8xf32>
  return %0 : tensor<2x8x8xf32>
}

// -----

func.func @C0_17_band_mask_dim_out_of_range(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'mk.band_mask' op [C0.17] dim 2 is not a dim of a rank-2 tensor}}
  %0 = mk.band_mask %x dims = [0, 2] upper = 0 fill = 0.0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @C0_17_band_mask_same_dim_twice(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'mk.band_mask' op [C0.17] dims must be two different dims, got 1 twice}}
  %0 = mk.band_mask %x dims = [1, 1] upper = 0 fill = 0.0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @C0_17_band_mask_no_bound(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'mk.band_mask' op [C0.17] needs a lower or an upper bound}}
  %0 = mk.band_mask %x dims = [0, 1] fill = 0.0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @C0_17_band_mask_empty_band(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'mk.band_mask' op [C0.17] lower = 1 is above upper = 0 (the band is empty)}}
  %0 = mk.band_mask %x dims = [0, 1] lower = 1 upper = 0 fill = 0.0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @C0_17_band_mask_nan_fill(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'mk.band_mask' op [C0.17] fill must not be NaN}}
  %0 = mk.band_mask %x dims = [0, 1] upper = 0 fill = 0x7FF8000000000000 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @C0_17_band_mask_result_type(%x: tensor<8x8xf32>) -> tensor<8x8xf16> {
  // expected-error @+1 {{'mk.band_mask' op requires the same type for all operands and results}}
  %0 = "mk.band_mask"(%x) <{dims = array<i64: 0, 1>, upper = 0 : i64, fill = 0.0 : f64}> : (tensor<8x8xf32>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

func.func @C0_18_where_nan_fill(%m: tensor<8x8xf32>, %x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'mk.where' op [C0.18] fill must not be NaN}}
  %0 = mk.where %m, %x fill = 0x7FF8000000000000 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @C0_4_where_no_broadcast(%m: tensor<4x8xf32>, %x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'mk.where' op [C0.4] shapes [4, 8] and [8, 8] do not broadcast (each dim must be equal or 1)}}
  %0 = mk.where %m, %x fill = 0.0 : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @C0_1_convert_f64(%x: tensor<2x8xf32>) -> tensor<2x8xf64> {
  // expected-error @+1 {{'mk.convert' op result #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1]}}
  %0 = mk.convert %x : tensor<2x8xf32> -> tensor<2x8xf64>
  return %0 : tensor<2x8xf64>
}

//===----------------------------------------------------------------------===//
// [C0.9] reduction / concat dim
//===----------------------------------------------------------------------===//

// -----

func.func @C0_9_reduce_sum_dim_too_large(%x: tensor<2x8xf16>) -> tensor<2x1xf16> {
  // expected-error @+1 {{'mk.reduce_sum' op [C0.9] dim 2 is out of range for rank 2}}
  %0 = mk.reduce_sum %x dim = 2 : tensor<2x8xf16> -> tensor<2x1xf16>
  return %0 : tensor<2x1xf16>
}

// -----

func.func @C0_9_reduce_max_dim_negative(%x: tensor<2x8xf16>) -> tensor<2x1xf16> {
  // expected-error @+1 {{'mk.reduce_max' op [C0.9] dim -1 is out of range for rank 2}}
  %0 = mk.reduce_max %x dim = -1 : tensor<2x8xf16> -> tensor<2x1xf16>
  return %0 : tensor<2x1xf16>
}

// -----

func.func @C0_9_concat_dim_out_of_range(%x: tensor<2x8xf16>) -> tensor<2x16xf16> {
  // expected-error @+1 {{'mk.concat' op [C0.9] dim 3 is out of range for rank 2}}
  %0 = mk.concat %x, %x dim = 3 : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x16xf16>
  return %0 : tensor<2x16xf16>
}

// -----

func.func @C0_9_reduce_keeps_dim(%x: tensor<2x8xf16>) -> tensor<2xf16> {
  // expected-error @+1 {{'mk.reduce_sum' op [C0.14] result type 'tensor<2xf16>' should be 'tensor<2x1xf16>'}}
  %0 = mk.reduce_sum %x dim = 1 : tensor<2x8xf16> -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

//===----------------------------------------------------------------------===//
// [C0.10], [C0.11] rms_norm
//===----------------------------------------------------------------------===//

// -----

func.func @C0_10_rms_norm_negative_eps(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.rms_norm' op [C0.10] eps must be >= 0, got -1.000000e-06}}
  %0 = mk.rms_norm %x eps = -1.0e-6 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_10_rms_norm_nan_eps(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.rms_norm' op [C0.10] eps must be >= 0, got nan}}
  %0 = mk.rms_norm %x eps = 0x7FF8000000000000 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_11_rms_norm_weight_rank_2(%x: tensor<2x8xf16>, %w: tensor<1x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.rms_norm' op [C0.11] weight must be a rank-1 tensor of 8 elements of 'f16', got 'tensor<1x8xf16>'}}
  %0 = mk.rms_norm %x weight(%w : tensor<1x8xf16>) eps = 1.0e-6 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_11_rms_norm_weight_size(%x: tensor<2x8xf16>, %w: tensor<2xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.rms_norm' op [C0.11] weight must be a rank-1 tensor of 8 elements of 'f16', got 'tensor<2xf16>'}}
  %0 = mk.rms_norm %x weight(%w : tensor<2xf16>) eps = 1.0e-6 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_11_rms_norm_weight_element_type(%x: tensor<2x8xbf16>, %w: tensor<8xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'mk.rms_norm' op [C0.11] weight must be a rank-1 tensor of 8 elements of 'bf16', got 'tensor<8xf32>'}}
  %0 = mk.rms_norm %x weight(%w : tensor<8xf32>) eps = 1.0e-6 : tensor<2x8xbf16>
  return %0 : tensor<2x8xbf16>
}

//===----------------------------------------------------------------------===//
// [C0.12], [C0.13] concat
//===----------------------------------------------------------------------===//

// -----

func.func @C0_12_concat_one_operand(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mk.concat' op [C0.12] needs at least two operands, got 1}}
  %0 = mk.concat %x dim = 0 : tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_12_concat_rank_differs(%x: tensor<2x8xf16>, %y: tensor<2x8x1xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'mk.concat' op [C0.12] operand #1 of type 'tensor<2x8x1xf16>' differs in rank or element type from operand #0 'tensor<2x8xf16>'}}
  %0 = mk.concat %x, %y dim = 0 : tensor<2x8xf16>, tensor<2x8x1xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @C0_12_concat_element_type_differs(%x: tensor<2x8xf16>, %y: tensor<2x8xbf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'mk.concat' op [C0.12] operand #1 of type 'tensor<2x8xbf16>' differs in rank or element type}}
  %0 = mk.concat %x, %y dim = 0 : tensor<2x8xf16>, tensor<2x8xbf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @C0_13_concat_other_dim_differs(%x: tensor<2x8xf16>, %y: tensor<2x4xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'mk.concat' op [C0.13] operand #1 differs in dim 1 (4 vs 8)}}
  %0 = mk.concat %x, %y dim = 0 : tensor<2x8xf16>, tensor<2x4xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

//===----------------------------------------------------------------------===//
// [K1], [K2] transpose
//===----------------------------------------------------------------------===//

// -----

func.func @K1_perm_size(%x: tensor<2x4x8xf16>) -> tensor<4x2x8xf16> {
  // expected-error @+1 {{'mk.transpose' op [K1] perm has 2 entries but the operand has rank 3}}
  %0 = mk.transpose %x perm = [1, 0] : tensor<2x4x8xf16> -> tensor<4x2x8xf16>
  return %0 : tensor<4x2x8xf16>
}

// -----

func.func @K2_perm_repeats_a_dim(%x: tensor<2x4x8xf16>) -> tensor<4x4x8xf16> {
  // expected-error @+1 {{'mk.transpose' op [K2] perm [1, 1, 2] is not a permutation of 0..2}}
  %0 = mk.transpose %x perm = [1, 1, 2] : tensor<2x4x8xf16> -> tensor<4x4x8xf16>
  return %0 : tensor<4x4x8xf16>
}

// -----

func.func @K2_perm_out_of_range(%x: tensor<2x8xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{'mk.transpose' op [K2] perm [2, 0] is not a permutation of 0..1}}
  %0 = mk.transpose %x perm = [2, 0] : tensor<2x8xf32> -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @K14_reshape_element_count(%x: tensor<2x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'mk.reshape' op [K14] result has 32 elements, the input 16}}
  %0 = mk.reshape %x : tensor<2x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @K15_reshape_element_type(%x: tensor<2x8xf16>) -> tensor<16xf32> {
  // expected-error @+1 {{'mk.reshape' op [K15] result element type 'f32' differs from the input's 'f16'}}
  %0 = mk.reshape %x : tensor<2x8xf16> -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

//===----------------------------------------------------------------------===//
// [K3]-[K10] graph_kernel. Each split is a small valid block graph (one input
// iterator, one accumulator, one output saver) with one piece broken.
//===----------------------------------------------------------------------===//

// -----

func.func @K3_grid_two_entries(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K3] grid must have 3 entries >= 1}}
  %y = mk.graph_kernel (%x) grid = [1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K3_grid_zero(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K3] grid must have 3 entries >= 1}}
  %y = mk.graph_kernel (%x) grid = [0, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K3_grid_x_too_large(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K3] grid [2147483648, 1, 1] exceeds the device limits (2^31-1, 65535, 65535)}}
  %y = mk.graph_kernel (%x) grid = [2147483648, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K3_grid_y_too_large(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K3] grid [1, 65536, 1] exceeds the device limits}}
  %y = mk.graph_kernel (%x) grid = [1, 65536, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K3_grid_z_too_large(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K3] grid [1, 1, 70000] exceeds the device limits}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 70000] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K4_block_negative(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K4] block must have 3 entries >= 1}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, -1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K4_block_four_entries(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K4] block must have 3 entries >= 1}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [32, 2, 2, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K4_too_many_threads(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K4] block [512, 2, 2] has more than 1024 threads}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [512, 2, 2] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

// 2^32 * 2^32 overflows int64_t to 0; the check must not be fooled.
func.func @K4_thread_count_overflow(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K4] block [4294967296, 4294967296, 1] has more than 1024 threads}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [4294967296, 4294967296, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K5_forloop_zero(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K5] forloop must be >= 1 or '?', got 0}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 0 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K6_region_argument_count(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K6] region has 2 arguments for 1 operands}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>, %Z: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K6_region_argument_type(%x: tensor<2x128xf16>) -> tensor<2x32xf32> {
  // expected-error @+1 {{'mk.graph_kernel' op [K6] region argument #0 has type 'tensor<2x128xf32>' but operand has type 'tensor<2x128xf16>'}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf32>):
    %acc = mb.for_loop -> (tensor<2x32xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf32> -> tensor<2x32xf32>
      %s = mb.accum_sum %xt : tensor<2x32xf32> -> tensor<2x32xf32>
      mb.yield %s : tensor<2x32xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf32> -> tensor<2x32xf32>
    mb.return %o : tensor<2x32xf32>
  } : (tensor<2x128xf16>) -> tensor<2x32xf32>
  return %y : tensor<2x32xf32>
}

// -----

func.func @K6_return_types(%x: tensor<2x128xf16>) -> tensor<2x64xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    // expected-error @+1 {{'mb.return' op [K6] returns types that differ from the kernel's result types}}
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x64xf16>
  return %y : tensor<2x64xf16>
}

// -----

func.func @K6_missing_mb_return(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K6] block graph must end in mb.return}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    llvm.unreachable
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

// 2 x 16384 f32 tiles: the input tile and its accumulator take 256 KiB.
func.func @K7_smem_default_limit(%x: tensor<2x16384xf32>) -> tensor<2x16384xf32> {
  // expected-error @+1 {{'mk.graph_kernel' op [K7] block graph needs 262144 bytes of shared memory but the target allows 98304}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<2x16384xf32>):
    %acc = mb.for_loop -> (tensor<2x16384xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<2x16384xf32> -> tensor<2x16384xf32>
      %s = mb.accum_sum %xt : tensor<2x16384xf32> -> tensor<2x16384xf32>
      mb.yield %s : tensor<2x16384xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x16384xf32> -> tensor<2x16384xf32>
    mb.return %o : tensor<2x16384xf32>
  } : (tensor<2x16384xf32>) -> tensor<2x16384xf32>
  return %y : tensor<2x16384xf32>
}

// -----

// Two 2x32 f16 tiles take 256 bytes; the module allows 255.
module attributes {mk.smem_limit = 255 : i64} {
  func.func @K7_smem_limit_attribute(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
    // expected-error @+1 {{'mk.graph_kernel' op [K7] block graph needs 256 bytes of shared memory but the target allows 255}}
    %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
    ^bb0(%X: tensor<2x128xf16>):
      %acc = mb.for_loop -> (tensor<2x32xf16>) {
        %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
        %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
        mb.yield %s : tensor<2x32xf16>
      }
      %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.return %o : tensor<2x32xf16>
    } : (tensor<2x128xf16>) -> tensor<2x32xf16>
    return %y : tensor<2x32xf16>
  }
}

// -----

// The nearest mk.smem_limit wins: the function's 255 overrides the module's.
module attributes {mk.smem_limit = 1000000 : i64} {
  func.func @K7_smem_limit_nearest_ancestor(%x: tensor<2x128xf16>) -> tensor<2x32xf16> attributes {mk.smem_limit = 255 : i64} {
    // expected-error @+1 {{[K7] block graph needs 256 bytes of shared memory but the target allows 255}}
    %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
    ^bb0(%X: tensor<2x128xf16>):
      %acc = mb.for_loop -> (tensor<2x32xf16>) {
        %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
        %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
        mb.yield %s : tensor<2x32xf16>
      }
      %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.return %o : tensor<2x32xf16>
    } : (tensor<2x128xf16>) -> tensor<2x32xf16>
    return %y : tensor<2x32xf16>
  }
}

// -----

func.func @K8_arith_constant_in_body(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    // expected-error @+1 {{'arith.constant' op [K8] is not allowed directly in a block graph}}
    %c = arith.constant dense<1.0> : tensor<2x32xf16>
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %a = mb.add %acc, %c : tensor<2x32xf16>, tensor<2x32xf16> -> tensor<2x32xf16>
    %o = mb.output_saver %a omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K8_mk_op_after_loop(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    // expected-error @+1 {{'mk.exp' op [K8] is not allowed directly in a block graph}}
    %e = mk.exp %acc : tensor<2x32xf16>
    %o = mb.output_saver %e omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K8_mk_op_in_loop_body(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      // expected-error @+1 {{'mk.exp' op [K8] is not allowed in a for-loop body}}
      %e = mk.exp %xt : tensor<2x32xf16>
      %s = mb.accum_sum %e : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K8_nested_graph_kernel(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    // expected-error @+1 {{'mk.graph_kernel' op [K8] is not allowed directly in a block graph}}
    %z = mk.graph_kernel (%acc) grid = [1, 1, 1] block = [32, 1, 1] forloop = 1 {
    ^bb0(%A: tensor<2x32xf16>):
      %acc2 = mb.for_loop -> (tensor<2x32xf16>) {
        %at = mb.input_iter %A imap = [-1, -1, -1] fmap = -1 : tensor<2x32xf16> -> tensor<2x32xf16>
        %s2 = mb.accum_sum %at : tensor<2x32xf16> -> tensor<2x32xf16>
        mb.yield %s2 : tensor<2x32xf16>
      }
      %o2 = mb.output_saver %acc2 omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.return %o2 : tensor<2x32xf16>
    } : (tensor<2x32xf16>) -> tensor<2x32xf16>
    %o = mb.output_saver %z omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K9_kernel_argument_read_directly(%x: tensor<2x128xf16>) -> tensor<2x128xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x1xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum_last %xt : tensor<2x32xf16> -> tensor<2x1xf16>
      mb.yield %s : tensor<2x1xf16>
    }
    // expected-error @+1 {{'mb.div' op [K9] reads kernel argument #0 directly; device tensors are read through mb.input_iter}}
    %d = mb.div %X, %acc : tensor<2x128xf16>, tensor<2x1xf16> -> tensor<2x128xf16>
    %o = mb.output_saver %d omap = [-1, -1, -1] : tensor<2x128xf16> -> tensor<2x128xf16>
    mb.return %o : tensor<2x128xf16>
  } : (tensor<2x128xf16>) -> tensor<2x128xf16>
  return %y : tensor<2x128xf16>
}

// -----

func.func @K9_kernel_argument_in_loop_body(%x: tensor<2x128xf16>) -> tensor<2x128xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x128xf16>) {
      // expected-error @+1 {{'mb.exp' op [K9] reads kernel argument #0 directly}}
      %e = mb.exp %X : tensor<2x128xf16>
      %s = mb.accum_sum %e : tensor<2x128xf16> -> tensor<2x128xf16>
      mb.yield %s : tensor<2x128xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x128xf16> -> tensor<2x128xf16>
    mb.return %o : tensor<2x128xf16>
  } : (tensor<2x128xf16>) -> tensor<2x128xf16>
  return %y : tensor<2x128xf16>
}

// -----

func.func @K10_unused_loop_body_value(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      // expected-error @+1 {{'mb.exp' op [K10] result is never used; every loop-body value must reach an accumulator}}
      %e = mb.exp %xt : tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K10_unused_input_iter(%x: tensor<2x128xf16>, %w: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>, %W: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      // expected-error @+1 {{'mb.input_iter' op [K10] result is never used; every loop-body value must reach an accumulator}}
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>, tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K10_accumulator_not_yielded(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      // expected-error @+1 {{'mb.accum_max' op [K10] result is never used; every accumulator must be yielded by mb.yield}}
      %m = mb.accum_max %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K10_unused_loop_result(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    // expected-error @+1 {{'mb.for_loop' op [K10] result #1 is never used; every accumulated value must reach an output saver}}
    %acc:2 = mb.for_loop -> (tensor<2x32xf16>, tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      %m = mb.accum_max %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s, %m : tensor<2x32xf16>, tensor<2x32xf16>
    }
    %o = mb.output_saver %acc#0 omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K10_unused_post_loop_value(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    // expected-error @+1 {{'mb.sqrt' op [K10] result is never used; every post-loop value must reach an output saver}}
    %r = mb.sqrt %acc : tensor<2x32xf16>
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

//===----------------------------------------------------------------------===//
// Block-graph structure checked by the kernel's region verifier.
//===----------------------------------------------------------------------===//

// -----

func.func @K6_no_results(%x: tensor<2x128xf16>) {
  // expected-error @+1 {{'mk.graph_kernel' op [K6] a graph-defined kernel must write at least one device tensor}}
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    mb.return
  } : (tensor<2x128xf16>) -> ()
  return
}

// -----

func.func @K10_output_saver_not_returned(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %n = mb.neg %acc : tensor<2x32xf16>
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    // expected-error @+1 {{'mb.output_saver' op [K10] result is never returned}}
    %o2 = mb.output_saver %n omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @B1_no_for_loop(%x: tensor<2x128xf16>) {
  // expected-error @+1 {{'mk.graph_kernel' op [B1] block graph must have exactly one mb.for_loop, found 0}}
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    mb.return
  } : (tensor<2x128xf16>) -> ()
  return
}

// -----

func.func @B18_return_not_output_saver(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    // expected-error @+1 {{'mb.return' op [B18] operands must be mb.output_saver results}}
    mb.return %acc : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

//===----------------------------------------------------------------------===//
// [K11]-[K13] dialect attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{[K11] 'mk.smem_limit' must be a positive integer number of bytes, got 0 : i64}}
module @K11_smem_limit_zero attributes {mk.smem_limit = 0 : i64} {}

// -----

// expected-error @+1 {{[K11] 'mk.smem_limit' must be a positive integer number of bytes, got -4096 : i64}}
module @K11_smem_limit_negative attributes {mk.smem_limit = -4096 : i64} {}

// -----

// expected-error @+1 {{[K11] 'mk.smem_limit' must be a positive integer number of bytes, got "96KiB"}}
module @K11_smem_limit_string attributes {mk.smem_limit = "96KiB"} {}

// -----

// expected-error @+1 {{[K11] 'mk.smem_limit' must be a positive integer number of bytes, got 9.830400e+04 : f64}}
module @K11_smem_limit_float attributes {mk.smem_limit = 98304.0 : f64} {}

// -----

// expected-error @+1 {{[K11] 'mk.smem_limit' must be a positive integer number of bytes, got true}}
module @K11_smem_limit_bool attributes {mk.smem_limit = true} {}

// -----

// expected-error @+1 {{[K11] 'mk.smem_limit' must be a positive integer number of bytes, got 100000000000000000000000 : i128}}
module @K11_smem_limit_too_wide attributes {mk.smem_limit = 100000000000000000000000 : i128} {}

// -----

func.func @K11_smem_limit_on_function() attributes {mk.smem_limit = -1 : i64} {
  // expected-error @-1 {{[K11] 'mk.smem_limit' must be a positive integer number of bytes, got -1 : i64}}
  return
}

// -----

// expected-error @+1 {{[K12] 'mk.reference' must be a flat symbol reference to a function, got "ref"}}
func.func @K12_reference_not_a_symbol() attributes {mk.reference = "ref"} {
  return
}

// -----

// expected-error @+1 {{[K13] unknown mk dialect attribute 'mk.smem_limt'}}
module @K13_unknown_mk_attribute attributes {mk.smem_limt = 1024 : i64} {}

//===----------------------------------------------------------------------===//
// Dynamic dims: [C0.19]-[C0.21], [K16]-[K18]
//===----------------------------------------------------------------------===//

// -----

func.func @C0_19_dynamic_against_static(%x: tensor<?x8xf16>, %y: tensor<4x8xf16>) -> tensor<?x8xf16> {
  // expected-error @+1 {{'mk.add' op [C0.19] shapes [?, 8] and [4, 8] pair a dynamic dim with a static dim other than 1}}
  %0 = mk.add %x, %y : tensor<?x8xf16>, tensor<4x8xf16> -> tensor<?x8xf16>
  return %0 : tensor<?x8xf16>
}

// -----

func.func @C0_19_where_dynamic_against_static(%m: tensor<3x8xf16>, %x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  // expected-error @+1 {{'mk.where' op [C0.19] shapes [3, 8] and [?, 8] pair a dynamic dim}}
  %0 = mk.where %m, %x fill = 0.0 : tensor<3x8xf16>, tensor<?x8xf16> -> tensor<?x8xf16>
  return %0 : tensor<?x8xf16>
}

// -----

func.func @C0_19_broadcast_result_static(%x: tensor<?x8xf16>, %y: tensor<1x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'mk.add' op [C0.14] result type 'tensor<4x8xf16>' should be 'tensor<?x8xf16>'}}
  %0 = mk.add %x, %y : tensor<?x8xf16>, tensor<1x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// A dynamic contraction pairs two dynamic dims (the key length of
// attention); a dynamic dim against a static one has no size to agree on.
func.func @C0_20_matmul_dynamic_against_static_contraction(%x: tensor<4x?xf16>, %w: tensor<8x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'mk.matmul' op [C0.20] the contracted dims must be both static or both dynamic: lhs [4, ?], rhs [8, 8]}}
  %0 = mk.matmul %x, %w : tensor<4x?xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @C0_21_rms_norm_dynamic_last_dim(%x: tensor<8x?xf16>) -> tensor<8x?xf16> {
  // expected-error @+1 {{'mk.rms_norm' op [C0.21] the normalised (last) dim must be static, got 'tensor<8x?xf16>'}}
  %0 = mk.rms_norm %x eps = 1.0e-06 : tensor<8x?xf16>
  return %0 : tensor<8x?xf16>
}

// -----

func.func @C0_21_concat_dynamic_dim(%x: tensor<?x8xf16>, %y: tensor<?x8xf16>) -> tensor<?x8xf16> {
  // expected-error @+1 {{'mk.concat' op [C0.21] operand #0 has a dynamic size in the concatenated dim 0}}
  %0 = mk.concat %x, %y dim = 0 : tensor<?x8xf16>, tensor<?x8xf16> -> tensor<?x8xf16>
  return %0 : tensor<?x8xf16>
}

// -----

func.func @C0_13_concat_dynamic_against_static(%x: tensor<?x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x16xf16> {
  // expected-error @+1 {{'mk.concat' op [C0.13] operand #1 differs in dim 0 (4 vs ?)}}
  %0 = mk.concat %x, %y dim = 1 : tensor<?x8xf16>, tensor<4x8xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @K16_reshape_two_dynamic_dims(%x: tensor<?x?xf16>) -> tensor<?xf16> {
  // expected-error @+1 {{'mk.reshape' op [K16] a dynamic reshape needs one dynamic dim on each side and equal static products, got 'tensor<?x?xf16>' -> 'tensor<?xf16>'}}
  %0 = mk.reshape %x : tensor<?x?xf16> -> tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

func.func @K16_reshape_static_products_differ(%x: tensor<?x32x128xf16>) -> tensor<?x128xf16> {
  // expected-error @+1 {{'mk.reshape' op [K16] a dynamic reshape needs one dynamic dim on each side and equal static products}}
  %0 = mk.reshape %x : tensor<?x32x128xf16> -> tensor<?x128xf16>
  return %0 : tensor<?x128xf16>
}

// -----

func.func @K16_reshape_dynamic_to_static(%x: tensor<?x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'mk.reshape' op [K16] a dynamic reshape needs one dynamic dim on each side}}
  %0 = mk.reshape %x : tensor<?x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// expected-error @+1 {{[K17] #mk.size max = 3 is below min = 5}}
func.func @K17_size_max_below_min(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<min = 5, max = 3>]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error @+1 {{[K17] #mk.size min must be >= 1, got 0}}
func.func @K17_size_min_zero(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<min = 0>]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error @+1 {{[K17] #mk.size divisor must be >= 1, got 0}}
func.func @K17_size_divisor_zero(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<divisor = 0>]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error @+1 {{[K17] #mk.size name '2tokens' is not an identifier}}
func.func @K17_size_name_not_identifier(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<name = "2tokens">]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error @+1 {{[K18] 'mk.sizes' of argument #0 has 0 entries but the argument has 1 dynamic dims}}
func.func @K18_sizes_count(%x: tensor<?x8xf16> {mk.sizes = []}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error @+1 {{[K18] 'mk.sizes' of argument #0 has 1 entries but the argument has 0 dynamic dims}}
func.func @K18_sizes_on_static_argument(%x: tensor<4x8xf16> {mk.sizes = [#mk.size<>]}) -> tensor<4x8xf16> {
  return %x : tensor<4x8xf16>
}

// -----

// expected-error @+1 {{[K18] 'mk.sizes' of argument #0 must be an array of #mk.size, got [4096]}}
func.func @K18_sizes_not_size_attrs(%x: tensor<?x8xf16> {mk.sizes = [4096]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error @+1 {{[K13] unknown mk dialect argument attribute 'mk.size'}}
func.func @K13_unknown_argument_attribute(%x: tensor<?x8xf16> {mk.size = [#mk.size<>]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// [K19] a dynamic dim partitioned by a static grid dim.
func.func @K19_dynamic_dim_static_grid(%x: tensor<?x64xf16>) -> tensor<?x64xf16> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<?x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [K19] dynamic dim 0 must be partitioned by a '?' grid dim}}
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<?x64xf16> -> tensor<16x64xf16>
      %a = mb.accum_sum %t : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<?x64xf16>
    mb.return %o : tensor<?x64xf16>
  } : (tensor<?x64xf16>) -> tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}

// -----

// [K19] a '?' grid dim partitioning a static dim.
func.func @K19_dynamic_grid_static_dim(%x: tensor<?x64xf16>, %w: tensor<64x32xf16>) -> tensor<?x64xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [?, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<?x64xf16>, %W: tensor<64x32xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<?x64xf16> -> tensor<16x64xf16>
      // expected-error @+1 {{'mb.input_iter' op [K19] a '?' grid dim partitions static dim 0}}
      %u = mb.input_iter %W imap = [0, -1, -1] fmap = -1 : tensor<64x32xf16> -> tensor<16x32xf16>
      %a = mb.accum_sum %t : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<?x64xf16>
    mb.return %o : tensor<?x64xf16>
  } : (tensor<?x64xf16>, tensor<64x32xf16>) -> tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}

// -----

// [K19] a view may read a dynamic dim only as it is: here the tokens are
// halved (t floordiv 2), so the tile's place would depend on the size.
func.func @K19_view_mixes_dynamic_dim(%x: tensor<?x64xf16>) -> tensor<?x64xf16> {
  %y = mk.graph_kernel (%x) grid = [?, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<?x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [K19] dynamic dim 0 of the device tensor is not passed through the view as it is (result d0 floordiv 2)}}
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 view = affine_map<(t, c) -> (t floordiv 2, c)> : tensor<?x64xf16> -> tensor<16x64xf16>
      %a = mb.accum_sum %t : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<?x64xf16>
    mb.return %o : tensor<?x64xf16>
  } : (tensor<?x64xf16>) -> tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}

// -----

// [K19] through a view, the dims before a dynamic dim have extent 1: the
// heads-first layout [4, tokens, 16] read as [tokens, 4, 16] would have a
// head stride of tokens * 16.
func.func @K19_view_dim_before_dynamic_dim(%x: tensor<4x?x16xf16>) -> tensor<?x4x16xf16> {
  %y = mk.graph_kernel (%x) grid = [?, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x?x16xf16>):
    %acc = mb.for_loop -> (tensor<8x4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [K19] device dim 0 of extent 4 comes before dynamic dim 1, so the view's strides would depend on the size}}
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 view = affine_map<(t, h, d) -> (h, t, d)> : tensor<4x?x16xf16> -> tensor<8x4x16xf16>
      %a = mb.accum_sum %t : tensor<8x4x16xf16> -> tensor<8x4x16xf16>
      mb.yield %a : tensor<8x4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<8x4x16xf16> -> tensor<?x4x16xf16>
    mb.return %o : tensor<?x4x16xf16>
  } : (tensor<4x?x16xf16>) -> tensor<?x4x16xf16>
  return %y : tensor<?x4x16xf16>
}

// -----

// [K19] a view does not read a dynamic last dim (its runs would have no
// static length).
func.func @K19_view_dynamic_last_dim(%x: tensor<1x?xf16>) -> tensor<?x1xf16> {
  %y = mk.graph_kernel (%x) grid = [?, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<1x?xf16>):
    %acc = mb.for_loop -> (tensor<8x1xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [K19] dynamic dim 1 is the last dim of the device tensor, which a view may not read or write}}
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 view = affine_map<(t, o) -> (o, t)> : tensor<1x?xf16> -> tensor<8x1xf16>
      %a = mb.accum_sum %t : tensor<8x1xf16> -> tensor<8x1xf16>
      mb.yield %a : tensor<8x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<8x1xf16> -> tensor<?x1xf16>
    mb.return %o : tensor<?x1xf16>
  } : (tensor<1x?xf16>) -> tensor<?x1xf16>
  return %y : tensor<?x1xf16>
}

// -----

// [K19] the same for an output saver: writing the tokens into the
// heads-first layout [4, tokens, 16].
func.func @K19_output_view_dim_before_dynamic_dim(%x: tensor<?x64xf16>) -> tensor<4x?x16xf16> {
  %y = mk.graph_kernel (%x) grid = [?, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<?x64xf16>):
    %acc = mb.for_loop -> (tensor<8x64xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<?x64xf16> -> tensor<8x64xf16>
      %a = mb.accum_sum %t : tensor<8x64xf16> -> tensor<8x64xf16>
      mb.yield %a : tensor<8x64xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [K19] device dim 0 of extent 4 comes before dynamic dim 1, so the view's strides would depend on the size}}
    %o = mb.output_saver %acc omap = [0, -1, -1] view = affine_map<(t, c) -> (c floordiv 16, t, c mod 16)> : tensor<8x64xf16> -> tensor<4x?x16xf16>
    mb.return %o : tensor<4x?x16xf16>
  } : (tensor<?x64xf16>) -> tensor<4x?x16xf16>
  return %y : tensor<4x?x16xf16>
}

// -----

// [K21] a loop that walks a dynamic dim makes ceil(size / tile) trips: it is
// '?', not a number.
func.func @K21_static_loop_walks_dynamic_dim(%x: tensor<8x?xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x?xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [K21] a loop of 4 trips walks dynamic dim 1: a loop that walks a dynamic dim is '?'}}
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x?xf16> -> tensor<8x16xf16>
      %a = mb.accum_sum %t : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %a : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x?xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

// [K21] a '?' loop walks dynamic dims only: its trips are counted from the
// walked size.
func.func @K21_dynamic_loop_walks_static_dim(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [64, 1, 1] forloop = ? {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [K21] a '?' loop walks dim 1 of 'tensor<8x64xf16>', which is not dynamic}}
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %a = mb.accum_sum %t : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %a : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

// [K21] the grid does not split the dim a '?' loop walks (the trips of a
// block would depend on the blocks).
func.func @K21_dynamic_loop_dim_on_the_grid(%x: tensor<8x?xf16>) -> tensor<8x?xf16> {
  %y = mk.graph_kernel (%x) grid = [?, 1, 1] block = [64, 1, 1] forloop = ? {
  ^bb0(%X: tensor<8x?xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [K19] dim 1, partitioned by the '?' grid dim 0, is walked by the loop}}
      %t = mb.input_iter %X imap = [1, -1, -1] fmap = 1 : tensor<8x?xf16> -> tensor<8x16xf16>
      %a = mb.accum_sum %t : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %a : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<8x16xf16> -> tensor<8x?xf16>
    mb.return %o : tensor<8x?xf16>
  } : (tensor<8x?xf16>) -> tensor<8x?xf16>
  return %y : tensor<8x?xf16>
}

// -----

// [K21] a '?' loop needs an iterator that walks it: nothing else says how
// many trips it makes.
func.func @K21_dynamic_loop_without_a_walk(%x: tensor<?x16xf16>) -> tensor<?x16xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K21] forloop is '?' but no input iterator walks the loop}}
  %y = mk.graph_kernel (%x) grid = [?, 1, 1] block = [64, 1, 1] forloop = ? {
  ^bb0(%X: tensor<?x16xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<?x16xf16> -> tensor<8x16xf16>
      %a = mb.accum_sum %t : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %a : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<8x16xf16> -> tensor<?x16xf16>
    mb.return %o : tensor<?x16xf16>
  } : (tensor<?x16xf16>) -> tensor<?x16xf16>
  return %y : tensor<?x16xf16>
}

// -----

// [K3] a grid entry is >= 1 or '?'.
func.func @K3_grid_negative(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K3] grid must have 3 entries >= 1 or '?'}}
  %y = mk.graph_kernel (%x) grid = [-2, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<16x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<16x64xf16> -> tensor<16x64xf16>
      %a = mb.accum_sum %t : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<16x64xf16> -> tensor<16x64xf16>
    mb.return %o : tensor<16x64xf16>
  } : (tensor<16x64xf16>) -> tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}
