// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The attention benchmark programs of bench/programs (gqa, mha, mqa,
// qknorm_gqa) in linalg as torch-mlir lowers `torch.bmm`, `exp`,
// `sum(-1, keepdim=True)`, `/` and `pow(2).mean(-1, keepdim=True)`:
// batch_matmul into a zero fill, element-wise generics, reductions that keep
// the dim as a literal 0 or drop it and tensor.expand_shape it back, size-1
// dims broadcast in the maps. (The other programs in linalg:
// rmsnorm-matmul, gated-mlp-linalg, lora-linalg, bench-programs-more.) Each
// must import to a program the verifier finds equivalent to the benchmark's
// mk form, here with its structure at smaller sizes, as the upstream side of
// the differential check runs plain loops.

// DIFF: PASS @torch_gqa
// DIFF: PASS @torch_mha
// DIFF: PASS @torch_mqa
// DIFF: PASS @torch_qknorm_gqa
// DIFF: 4 passed, 0 failed, 0 not checked

// EQ-DAG: remark: equivalent to @gqa
// EQ-DAG: remark: equivalent to @mha
// EQ-DAG: remark: equivalent to @mqa
// EQ-DAG: remark: equivalent to @qknorm_gqa

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#drop3 = affine_map<(d0, d1, d2) -> (d0, d1)>

// bench/programs/gqa_bs1.mlir's structure (256 queries, 4096 keys there).
func.func @gqa(%Q: tensor<2x64x64xf16>, %K: tensor<2x64x512xf16>, %V: tensor<2x512x64xf16>) -> tensor<2x64x64xf16> {
  %s = mk.matmul %Q, %K : tensor<2x64x64xf16>, tensor<2x64x512xf16> -> tensor<2x64x512xf16>
  %e = mk.exp %s : tensor<2x64x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x64x512xf16> -> tensor<2x64x1xf16>
  %p = mk.div %e, %d : tensor<2x64x512xf16>, tensor<2x64x1xf16> -> tensor<2x64x512xf16>
  %o = mk.matmul %p, %V : tensor<2x64x512xf16>, tensor<2x512x64xf16> -> tensor<2x64x64xf16>
  return %o : tensor<2x64x64xf16>
}

// The sum keeps its dim as a literal 0 in the output map.
// CHECK-LABEL: func.func @torch_gqa(
// CHECK-NEXT: mk.matmul %arg0, %arg1
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum %{{.*}} dim = 2
// CHECK-NEXT: mk.div
// CHECK-NEXT: mk.matmul %{{.*}}, %arg2
// CHECK-NEXT: return
func.func @torch_gqa(%q: tensor<2x64x64xf16>, %k: tensor<2x64x512xf16>, %v: tensor<2x512x64xf16>) -> tensor<2x64x64xf16> attributes {mk.reference = @gqa} {
  %zero = arith.constant 0.000000e+00 : f16
  %e0 = tensor.empty() : tensor<2x64x512xf16>
  %f0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<2x64x512xf16>) -> tensor<2x64x512xf16>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x64x64xf16>, tensor<2x64x512xf16>) outs(%f0 : tensor<2x64x512xf16>) -> tensor<2x64x512xf16>
  %ex = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x64x512xf16>) outs(%e0 : tensor<2x64x512xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = math.exp %in : f16
    linalg.yield %x : f16
  } -> tensor<2x64x512xf16>
  %e1 = tensor.empty() : tensor<2x64x1xf16>
  %f1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<2x64x1xf16>) -> tensor<2x64x1xf16>
  %sum = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x64x512xf16>) outs(%f1 : tensor<2x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = arith.addf %in, %out : f16
    linalg.yield %x : f16
  } -> tensor<2x64x1xf16>
  %p = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x64x512xf16>, tensor<2x64x1xf16>) outs(%e0 : tensor<2x64x512xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %x = arith.divf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x64x512xf16>
  %e2 = tensor.empty() : tensor<2x64x64xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<2x64x64xf16>) -> tensor<2x64x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x64x512xf16>, tensor<2x512x64xf16>) outs(%f2 : tensor<2x64x64xf16>) -> tensor<2x64x64xf16>
  return %o : tensor<2x64x64xf16>
}

// bench/programs/mha_bs1.mlir's structure (32 heads, 16 queries, 4096 keys
// there).
func.func @mha(%Q: tensor<8x16x64xf16>, %K: tensor<8x64x512xf16>, %V: tensor<8x512x64xf16>) -> tensor<8x16x64xf16> {
  %s = mk.matmul %Q, %K : tensor<8x16x64xf16>, tensor<8x64x512xf16> -> tensor<8x16x512xf16>
  %e = mk.exp %s : tensor<8x16x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<8x16x512xf16> -> tensor<8x16x1xf16>
  %p = mk.div %e, %d : tensor<8x16x512xf16>, tensor<8x16x1xf16> -> tensor<8x16x512xf16>
  %o = mk.matmul %p, %V : tensor<8x16x512xf16>, tensor<8x512x64xf16> -> tensor<8x16x64xf16>
  return %o : tensor<8x16x64xf16>
}

// The sum drops its dim and an expand_shape puts it back; the division
// reads the sum with a literal 0.
// CHECK-LABEL: func.func @torch_mha(
// CHECK-NEXT: mk.matmul %arg0, %arg1
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum %{{.*}} dim = 2
// CHECK-NEXT: mk.div
// CHECK-NEXT: mk.matmul %{{.*}}, %arg2
// CHECK-NEXT: return
func.func @torch_mha(%q: tensor<8x16x64xf16>, %k: tensor<8x64x512xf16>, %v: tensor<8x512x64xf16>) -> tensor<8x16x64xf16> attributes {mk.reference = @mha} {
  %zero = arith.constant 0.000000e+00 : f16
  %e0 = tensor.empty() : tensor<8x16x512xf16>
  %f0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<8x16x512xf16>) -> tensor<8x16x512xf16>
  %s = linalg.batch_matmul ins(%q, %k : tensor<8x16x64xf16>, tensor<8x64x512xf16>) outs(%f0 : tensor<8x16x512xf16>) -> tensor<8x16x512xf16>
  %ex = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x16x512xf16>) outs(%e0 : tensor<8x16x512xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = math.exp %in : f16
    linalg.yield %x : f16
  } -> tensor<8x16x512xf16>
  %e1 = tensor.empty() : tensor<8x16xf16>
  %f1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<8x16xf16>) -> tensor<8x16xf16>
  %sum = linalg.generic {indexing_maps = [#id3, #drop3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<8x16x512xf16>) outs(%f1 : tensor<8x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = arith.addf %in, %out : f16
    linalg.yield %x : f16
  } -> tensor<8x16xf16>
  %sum1 = tensor.expand_shape %sum [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xf16> into tensor<8x16x1xf16>
  %p = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum1 : tensor<8x16x512xf16>, tensor<8x16x1xf16>) outs(%e0 : tensor<8x16x512xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %x = arith.divf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<8x16x512xf16>
  %e2 = tensor.empty() : tensor<8x16x64xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<8x16x64xf16>) -> tensor<8x16x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x16x512xf16>, tensor<8x512x64xf16>) outs(%f2 : tensor<8x16x64xf16>) -> tensor<8x16x64xf16>
  return %o : tensor<8x16x64xf16>
}

// bench/programs/mqa_bs1.mlir's structure (1024 queries, 4096 keys there).
func.func @mqa(%Q: tensor<1x128x64xf16>, %K: tensor<1x64x512xf16>, %V: tensor<1x512x64xf16>) -> tensor<1x128x64xf16> {
  %s = mk.matmul %Q, %K : tensor<1x128x64xf16>, tensor<1x64x512xf16> -> tensor<1x128x512xf16>
  %e = mk.exp %s : tensor<1x128x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<1x128x512xf16> -> tensor<1x128x1xf16>
  %p = mk.div %e, %d : tensor<1x128x512xf16>, tensor<1x128x1xf16> -> tensor<1x128x512xf16>
  %o = mk.matmul %p, %V : tensor<1x128x512xf16>, tensor<1x512x64xf16> -> tensor<1x128x64xf16>
  return %o : tensor<1x128x64xf16>
}

// One K/V head: the size-1 batch is dropped inside and restored at the
// edges. The division is the sum's reciprocal times the exp (torch's
// `e * (1 / s)`), read through a map with the literal 0.
// CHECK-LABEL: func.func @torch_mqa(
// CHECK-NOT: linalg.
// CHECK: mk.matmul {{.*}} : tensor<128x64xf16>, tensor<64x512xf16> -> tensor<128x512xf16>
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum %{{.*}} dim = 1
// CHECK-NEXT: mk.div
// CHECK: mk.matmul {{.*}} : tensor<128x512xf16>, tensor<512x64xf16> -> tensor<128x64xf16>
// CHECK-NOT: linalg.
// CHECK: return
func.func @torch_mqa(%q: tensor<1x128x64xf16>, %k: tensor<1x64x512xf16>, %v: tensor<1x512x64xf16>) -> tensor<1x128x64xf16> attributes {mk.reference = @mqa} {
  %zero = arith.constant 0.000000e+00 : f16
  %one = arith.constant 1.000000e+00 : f16
  %e0 = tensor.empty() : tensor<1x128x512xf16>
  %f0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<1x128x512xf16>) -> tensor<1x128x512xf16>
  %s = linalg.batch_matmul ins(%q, %k : tensor<1x128x64xf16>, tensor<1x64x512xf16>) outs(%f0 : tensor<1x128x512xf16>) -> tensor<1x128x512xf16>
  %ex = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x128x512xf16>) outs(%e0 : tensor<1x128x512xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = math.exp %in : f16
    linalg.yield %x : f16
  } -> tensor<1x128x512xf16>
  %e1 = tensor.empty() : tensor<1x128x1xf16>
  %f1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x128x1xf16>) -> tensor<1x128x1xf16>
  %sum = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<1x128x512xf16>) outs(%f1 : tensor<1x128x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = arith.addf %in, %out : f16
    linalg.yield %x : f16
  } -> tensor<1x128x1xf16>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x128x1xf16>) outs(%e1 : tensor<1x128x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = arith.divf %one, %in : f16
    linalg.yield %x : f16
  } -> tensor<1x128x1xf16>
  %p = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %r : tensor<1x128x512xf16>, tensor<1x128x1xf16>) outs(%e0 : tensor<1x128x512xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %x = arith.mulf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<1x128x512xf16>
  %e2 = tensor.empty() : tensor<1x128x64xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x128x64xf16>) -> tensor<1x128x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x128x512xf16>, tensor<1x512x64xf16>) outs(%f2 : tensor<1x128x64xf16>) -> tensor<1x128x64xf16>
  return %o : tensor<1x128x64xf16>
}

// bench/programs/qknorm_gqa_bs1.mlir's structure (256 queries, 4096 keys
// there).
func.func @qknorm_gqa(%Q: tensor<2x64x64xf16>, %K: tensor<2x64x512xf16>, %V: tensor<2x512x64xf16>) -> tensor<2x64x64xf16> {
  %qn = mk.rms_norm %Q eps = 1.0132789611816406E-6 : tensor<2x64x64xf16>
  %vn = mk.rms_norm %V eps = 1.0132789611816406E-6 : tensor<2x512x64xf16>
  %s = mk.matmul %qn, %K : tensor<2x64x64xf16>, tensor<2x64x512xf16> -> tensor<2x64x512xf16>
  %e = mk.exp %s : tensor<2x64x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x64x512xf16> -> tensor<2x64x1xf16>
  %p = mk.div %e, %d : tensor<2x64x512xf16>, tensor<2x64x1xf16> -> tensor<2x64x512xf16>
  %o = mk.matmul %p, %vn : tensor<2x64x512xf16>, tensor<2x512x64xf16> -> tensor<2x64x64xf16>
  return %o : tensor<2x64x64xf16>
}

// The two RMSNorms as torch's x * rsqrt(x.pow(2).mean(-1, keepdim) + eps):
// math.powf by 2, a keep-dim sum, the mean as a division by the size. Each
// becomes mk.rms_norm.
// CHECK-LABEL: func.func @torch_qknorm_gqa(
// CHECK-DAG: mk.rms_norm %arg0 eps = 1.0132789611816406E-6 : tensor<2x64x64xf16>
// CHECK-DAG: mk.rms_norm %arg2 eps = 1.0132789611816406E-6 : tensor<2x512x64xf16>
// CHECK-NOT: linalg.
// CHECK: return
func.func @torch_qknorm_gqa(%q: tensor<2x64x64xf16>, %k: tensor<2x64x512xf16>, %v: tensor<2x512x64xf16>) -> tensor<2x64x64xf16> attributes {mk.reference = @qknorm_gqa} {
  %zero = arith.constant 0.000000e+00 : f16
  %two = arith.constant 2.000000e+00 : f16
  %n = arith.constant 6.400000e+01 : f16
  %eps = arith.constant 9.99999997E-7 : f16
  // Q: 2x64x64
  %eq = tensor.empty() : tensor<2x64x64xf16>
  %q2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<2x64x64xf16>) outs(%eq : tensor<2x64x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = math.powf %in, %two : f16
    linalg.yield %x : f16
  } -> tensor<2x64x64xf16>
  %eq1 = tensor.empty() : tensor<2x64x1xf16>
  %fq1 = linalg.fill ins(%zero : f16) outs(%eq1 : tensor<2x64x1xf16>) -> tensor<2x64x1xf16>
  %qs = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q2 : tensor<2x64x64xf16>) outs(%fq1 : tensor<2x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = arith.addf %in, %out : f16
    linalg.yield %x : f16
  } -> tensor<2x64x1xf16>
  %qr = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qs : tensor<2x64x1xf16>) outs(%eq1 : tensor<2x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.divf %in, %n : f16
    %a = arith.addf %m, %eps : f16
    %r = math.rsqrt %a : f16
    linalg.yield %r : f16
  } -> tensor<2x64x1xf16>
  %qn = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %qr : tensor<2x64x64xf16>, tensor<2x64x1xf16>) outs(%eq : tensor<2x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %x = arith.mulf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x64x64xf16>
  // V: 2x512x64
  %ev = tensor.empty() : tensor<2x512x64xf16>
  %v2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<2x512x64xf16>) outs(%ev : tensor<2x512x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = math.powf %in, %two : f16
    linalg.yield %x : f16
  } -> tensor<2x512x64xf16>
  %ev1 = tensor.empty() : tensor<2x512x1xf16>
  %fv1 = linalg.fill ins(%zero : f16) outs(%ev1 : tensor<2x512x1xf16>) -> tensor<2x512x1xf16>
  %vs = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v2 : tensor<2x512x64xf16>) outs(%fv1 : tensor<2x512x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = arith.addf %in, %out : f16
    linalg.yield %x : f16
  } -> tensor<2x512x1xf16>
  %vr = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%vs : tensor<2x512x1xf16>) outs(%ev1 : tensor<2x512x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.divf %in, %n : f16
    %a = arith.addf %m, %eps : f16
    %r = math.rsqrt %a : f16
    linalg.yield %r : f16
  } -> tensor<2x512x1xf16>
  %vn = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %vr : tensor<2x512x64xf16>, tensor<2x512x1xf16>) outs(%ev : tensor<2x512x64xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %x = arith.mulf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x512x64xf16>
  // Attention.
  %e0 = tensor.empty() : tensor<2x64x512xf16>
  %f0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<2x64x512xf16>) -> tensor<2x64x512xf16>
  %s = linalg.batch_matmul ins(%qn, %k : tensor<2x64x64xf16>, tensor<2x64x512xf16>) outs(%f0 : tensor<2x64x512xf16>) -> tensor<2x64x512xf16>
  %ex = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x64x512xf16>) outs(%e0 : tensor<2x64x512xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = math.exp %in : f16
    linalg.yield %x : f16
  } -> tensor<2x64x512xf16>
  %e1 = tensor.empty() : tensor<2x64x1xf16>
  %f1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<2x64x1xf16>) -> tensor<2x64x1xf16>
  %sum = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x64x512xf16>) outs(%f1 : tensor<2x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %x = arith.addf %in, %out : f16
    linalg.yield %x : f16
  } -> tensor<2x64x1xf16>
  %p = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x64x512xf16>, tensor<2x64x1xf16>) outs(%e0 : tensor<2x64x512xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %x = arith.divf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x64x512xf16>
  %e2 = tensor.empty() : tensor<2x64x64xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<2x64x64xf16>) -> tensor<2x64x64xf16>
  %o = linalg.batch_matmul ins(%p, %vn : tensor<2x64x512xf16>, tensor<2x512x64xf16>) outs(%f2 : tensor<2x64x64xf16>) -> tensor<2x64x64xf16>
  return %o : tensor<2x64x64xf16>
}
