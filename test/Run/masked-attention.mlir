// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none partition-min-ops=16" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=SEARCH --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=OPT --input-file=%t.opt.mlir
// RUN: mirage-opt --mirage-check-equivalence %t.opt.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run --func=causal_attention %t.opt.mlir | FileCheck %s --check-prefix=CPU

// Causal attention in one kernel (issue 31 item 3): a decode-like step of 16
// query rows after 496 cached positions (row i keeps keys j <= 496 + i), the
// scores masked with -inf before a safe softmax. The search takes the mask
// into the fused kernel (mb.band_mask where the grid puts its tile), the
// result is equivalent to the input and runs on the CPU path against the
// interpreter.
// SEARCH: remark: superoptimized: graph_kernel {{.*}}band_mask{{.*}}; 1 kernel(s)
// OPT-LABEL: func.func @causal_attention(
// OPT: mk.graph_kernel
// OPT: mb.band_mask %{{.*}} dims = [1, 2] upper = 496 fill = 0xFFF0000000000000 imap = [
// OPT-NOT: mk.graph_kernel
// OPT: return
// EQUIV: remark: equivalent to @causal_attention_reference
// CPU: @causal_attention on cpu
// CPU-NEXT: PASS

func.func @causal_attention(%Q: tensor<4x16x64xf16>, %K: tensor<4x64x512xf16>, %V: tensor<4x512x64xf16>) -> tensor<4x16x64xf16> {
  %s = mk.matmul %Q, %K : tensor<4x16x64xf16>, tensor<4x64x512xf16> -> tensor<4x16x512xf16>
  %b = mk.band_mask %s dims = [1, 2] upper = 496 fill = 0xFFF0000000000000 : tensor<4x16x512xf16>
  %m = mk.reduce_max %b dim = 2 : tensor<4x16x512xf16> -> tensor<4x16x1xf16>
  %c = mk.sub %b, %m : tensor<4x16x512xf16>, tensor<4x16x1xf16> -> tensor<4x16x512xf16>
  %e = mk.exp %c : tensor<4x16x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<4x16x512xf16> -> tensor<4x16x1xf16>
  %p = mk.div %e, %d : tensor<4x16x512xf16>, tensor<4x16x1xf16> -> tensor<4x16x512xf16>
  %o = mk.matmul %p, %V : tensor<4x16x512xf16>, tensor<4x512x64xf16> -> tensor<4x16x64xf16>
  return %o : tensor<4x16x64xf16>
}
