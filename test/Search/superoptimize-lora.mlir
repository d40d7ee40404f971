// The superoptimizer on LoRA (DESIGN.md section 8), real shapes: one
// graph-defined kernel. The search finds X . (W + A . B) with the grid over
// the 4096 columns (distributivity; the whole 256-dim fits one tile), which
// the cost proxy ranks above the accumulated X_k . W_k + (X_k . A_k) . B of
// the hand-written program (test/Programs/lora_fused.mlir).
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1" %mirage_src_root/bench/programs/lora.mlir -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},1,1] forloop {{[0-9]+}} {{{.*}}accum_sum{{.*}}}; 1 kernel(s)

// EQUIV: remark: equivalent to @lora_reference

// CHECK-LABEL: func.func @lora(
// CHECK-SAME:      attributes {mk.reference = @lora_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) grid = [{{[0-9]+}}, 1, 1]
// CHECK:           mb.for_loop
// CHECK-COUNT-4:     mb.input_iter
// CHECK-COUNT-2:     mb.matmul
// CHECK:             mb.accum_sum
// CHECK:           mb.output_saver %{{.*}} omap = [1, -1, -1]
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
