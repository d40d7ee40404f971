// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF
// RUN: mirage-opt --mirage-import %s -o %t.mk.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IMPORT --input-file=%t.mk.mlir
// RUN: mirage-opt %t.mk.mlir --mirage-superoptimize="keep-reference=1 cache-dir=none" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=OPT --input-file=%t.opt.mlir
// RUN: mirage-opt --mirage-check-equivalence %t.opt.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run --func=padded_attention_mk0 %t.opt.mlir | FileCheck %s --check-prefix=CPU
// RUN: sed 's/\(mb.where .*\) inverted/\1/' %t.opt.mlir > %t.kept.mlir
// RUN: FileCheck %s --check-prefix=KEPT --input-file=%t.kept.mlir
// RUN: not mirage-opt --mirage-check-equivalence %t.kept.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=MUTANT

// A key-padding mask in an exported attention (issue 31 item 3): torch's
// scores.masked_fill(padding, -inf) as TFLite/torch-to-tosa emit it, a
// tosa.select of a boolean [1, keys] tensor between -inf and the scores,
// between the head split (reshape, transpose) and the head merge. The select
// imports as an inverted mk.where (fill where the mask holds) of the mask's
// 0/1 conversion, which stays outside; the search takes the where into the
// attention kernel, whose tiles read the mask's [1, 1, keys] broadcast.
// The tests give mask arguments 0 and 1 (random values would never be 0 and
// never mask): the differential check, the CPU run and the f64 check see
// masked keys. A kernel whose where is not inverted is told apart.

// DIFF: PASS @padded_attention
// DIFF: 1 passed, 0 failed, 0 not checked

// IMPORT-LABEL: func.func @padded_attention(
// IMPORT: tosa.cast %{{.*}} : (tensor<1x1x32xi1>) -> tensor<1x1x32xf32>
// IMPORT: func.func private @padded_attention_mk0(
// IMPORT-NOT: mk.neg
// IMPORT: mk.where %{{.*}}, %{{.*}} fill = 0xFFF0000000000000 inverted : tensor<1x1x32xf32>, tensor<4x32x32xf32> -> tensor<4x32x32xf32>

// REMARK: remark: superoptimized in 1 subprogram(s): 8 ops, 1 kernel(s) (unfused 8)
// OPT-LABEL: func.func private @padded_attention_mk0(
// OPT: mk.graph_kernel
// OPT: mb.where %{{.*}}, %{{.*}} fill = 0xFFF0000000000000 inverted
// OPT-NOT: mk.graph_kernel
// OPT: return
// EQUIV: remark: equivalent to @padded_attention_mk0_reference
// CPU: @padded_attention_mk0 on cpu
// CPU-NEXT: PASS
// KEPT: mk.where {{.*}} inverted
// KEPT-NOT: inverted
// MUTANT: error: not equivalent to @padded_attention_mk0_reference

func.func @padded_attention(%q: tensor<32x128xf32>, %k: tensor<32x128xf32>, %v: tensor<32x128xf32>, %pad: tensor<1x32xi1>) -> tensor<32x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s_heads = tosa.const_shape {values = dense<[32, 4, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_mask = tosa.const_shape {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_out = tosa.const_shape {values = dense<[32, 128]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q1 = tosa.reshape %q, %s_heads : (tensor<32x128xf32>, !tosa.shape<3>) -> tensor<32x4x32xf32>
  %qh = tosa.transpose %q1 {perms = array<i32: 1, 0, 2>} : (tensor<32x4x32xf32>) -> tensor<4x32x32xf32>
  %k1 = tosa.reshape %k, %s_heads : (tensor<32x128xf32>, !tosa.shape<3>) -> tensor<32x4x32xf32>
  %kt = tosa.transpose %k1 {perms = array<i32: 1, 2, 0>} : (tensor<32x4x32xf32>) -> tensor<4x32x32xf32>
  %v1 = tosa.reshape %v, %s_heads : (tensor<32x128xf32>, !tosa.shape<3>) -> tensor<32x4x32xf32>
  %vh = tosa.transpose %v1 {perms = array<i32: 1, 0, 2>} : (tensor<32x4x32xf32>) -> tensor<4x32x32xf32>
  %s = tosa.matmul %qh, %kt, %zp, %zp : (tensor<4x32x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x32x32xf32>
  %m3 = tosa.reshape %pad, %s_mask : (tensor<1x32xi1>, !tosa.shape<3>) -> tensor<1x1x32xi1>
  %masked = tosa.select %m3, %ninf, %s : (tensor<1x1x32xi1>, tensor<1x1x1xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %mx = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<4x32x32xf32>) -> tensor<4x32x1xf32>
  %c = tosa.sub %masked, %mx : (tensor<4x32x32xf32>, tensor<4x32x1xf32>) -> tensor<4x32x32xf32>
  %e = tosa.exp %c : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %d = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x32x32xf32>) -> tensor<4x32x1xf32>
  %r = tosa.reciprocal %d : (tensor<4x32x1xf32>) -> tensor<4x32x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x32x32xf32>, tensor<4x32x1xf32>, tensor<1xi8>) -> tensor<4x32x32xf32>
  %o = tosa.matmul %p, %vh, %zp, %zp : (tensor<4x32x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x32x32xf32>
  %o1 = tosa.transpose %o {perms = array<i32: 1, 0, 2>} : (tensor<4x32x32xf32>) -> tensor<32x4x32xf32>
  %o2 = tosa.reshape %o1, %s_out : (tensor<32x4x32xf32>, !tosa.shape<2>) -> tensor<32x128xf32>
  return %o2 : tensor<32x128xf32>
}
