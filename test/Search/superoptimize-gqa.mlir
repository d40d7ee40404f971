// The superoptimizer on group-query attention (DESIGN.md section 8), bs 1,
// real shapes. It finds attention as ONE graph-defined kernel whose loop
// walks the 4096-long sequence: exp(Q . K) is accumulated both into the
// row sums (accum_sum_last) and, through the second matmul, into the
// numerator (accum_sum); the division runs after the loop. Under the cost
// proxy (kernel count first) this beats the hand-written split-sequence pair
// of kernels (test/Programs/gqa_split_seq.mlir).
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1" %mirage_src_root/bench/programs/gqa_bs1.mlir -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},{{[0-9]+}},{{[0-9]+}}] forloop {{[0-9]+}} {matmul exp matmul accum_sum_last accum_sum | div}; 1 kernel(s)

// EQUIV: remark: equivalent to @gqa_reference

// CHECK-LABEL: func.func @gqa(
// CHECK-SAME:      attributes {mk.reference = @gqa_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:           %[[ACC:.*]]:2 = mb.for_loop
// CHECK-NEXT:        %[[Q:.*]] = mb.input_iter %{{.*}} fmap = -1
// CHECK-NEXT:        %[[KT:.*]] = mb.input_iter %{{.*}} fmap = 2
// CHECK-NEXT:        %[[V:.*]] = mb.input_iter %{{.*}} fmap = 1
// CHECK-NEXT:        %[[S:.*]] = mb.matmul %[[Q]], %[[KT]]
// CHECK-NEXT:        %[[E:.*]] = mb.exp %[[S]]
// CHECK-NEXT:        %[[N:.*]] = mb.matmul %[[E]], %[[V]]
// CHECK-NEXT:        %[[DEN:.*]] = mb.accum_sum_last %[[E]]
// CHECK-NEXT:        %[[NUM:.*]] = mb.accum_sum %[[N]]
// CHECK-NEXT:        mb.yield %[[DEN]], %[[NUM]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[O:.*]] = mb.div %[[ACC]]#1, %[[ACC]]#0
// CHECK-NEXT:      mb.output_saver %[[O]]
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
