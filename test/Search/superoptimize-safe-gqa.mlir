// The superoptimizer on group-query attention with a safe softmax (issue 11;
// bench/programs/gqa_safe_bs1.mlir, real shapes): one graph-defined kernel
// with online softmax. The loop walks the sequence; each step takes the
// maximum of its Q . K tile, exp(s - m) feeds the row sums and the second
// matmul, and both are accumulated with accum_rescaled_sum against the step
// maximum, so they end relative to the row's maximum; the division runs
// after the loop. (9 block ops: max-block-ops=0 allows 9 for a target with
// a maximum.) The result keeps the max and passes the f16 numerics check.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none" %mirage_src_root/bench/programs/gqa_safe_bs1.mlir -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence="numerics=1" %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9,]+}}] forloop {{[0-9]+}} {matmul reduce_max sub exp reduce_sum matmul accum_rescaled_sum accum_rescaled_sum | div}; 1 kernel(s)

// EQUIV: remark: equivalent to @gqa_safe_reference
// EQUIV-SAME: f16 numerics: accepted

// CHECK-LABEL: func.func @gqa_safe(
// CHECK-SAME:      attributes {mk.reference = @gqa_safe_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:           %[[ACC:.*]]:2 = mb.for_loop
// CHECK-NEXT:        %[[Q:.*]] = mb.input_iter %{{.*}} fmap = -1
// CHECK-NEXT:        %[[KT:.*]] = mb.input_iter %{{.*}} fmap = 2
// CHECK-NEXT:        %[[V:.*]] = mb.input_iter %{{.*}} fmap = 1
// CHECK-NEXT:        %[[S:.*]] = mb.matmul %[[Q]], %[[KT]]
// CHECK-NEXT:        %[[M:.*]] = mb.reduce_max %[[S]] dim = 2
// CHECK-NEXT:        %[[C:.*]] = mb.sub %[[S]], %[[M]]
// CHECK-NEXT:        %[[E:.*]] = mb.exp %[[C]]
// CHECK-NEXT:        %[[Z:.*]] = mb.reduce_sum %[[E]] dim = 2
// CHECK-NEXT:        %[[N:.*]] = mb.matmul %[[E]], %[[V]]
// CHECK-NEXT:        %[[DEN:.*]] = mb.accum_rescaled_sum %[[Z]], %[[M]]
// CHECK-NEXT:        %[[NUM:.*]] = mb.accum_rescaled_sum %[[N]], %[[M]]
// CHECK-NEXT:        mb.yield %[[DEN]], %[[NUM]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[O:.*]] = mb.div %[[ACC]]#1, %[[ACC]]#0
// CHECK-NEXT:      mb.output_saver %[[O]]
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
