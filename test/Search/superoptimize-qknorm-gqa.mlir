// The superoptimizer on QK-norm group-query attention (DESIGN.md section 8),
// bs 1, real shapes: as gqa, with the rms_norm of the Q and V tiles inside the
// loop body (their tiles hold whole rows of the normalised dim). It finds attention as ONE graph-defined kernel whose loop
// walks the 4096-long sequence: exp(Q . K) is accumulated both into the
// row sums (accum_sum_last) and, through the second matmul, into the
// numerator (accum_sum); the division runs after the loop. Under the cost
// proxy (kernel count first) this beats the hand-written split-sequence pair
// of kernels (test/Programs/gqa_split_seq.mlir).
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1" %mirage_src_root/bench/programs/qknorm_gqa_bs1.mlir -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},{{[0-9]+}},{{[0-9]+}}] forloop {{[0-9]+}} {rms_norm rms_norm matmul exp matmul accum_sum_last accum_sum | div}; 1 kernel(s)

// EQUIV: remark: equivalent to @qknorm_gqa_reference

// CHECK-LABEL: func.func @qknorm_gqa(
// CHECK-SAME:      attributes {mk.reference = @qknorm_gqa_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:           %[[ACC:.*]]:2 = mb.for_loop
// CHECK-NEXT:        %[[Q:.*]] = mb.input_iter %{{.*}} fmap = -1
// CHECK-NEXT:        %[[KT:.*]] = mb.input_iter %{{.*}} fmap = 2
// CHECK-NEXT:        %[[V:.*]] = mb.input_iter %{{.*}} fmap = 1
// CHECK-NEXT:        %[[QN:.*]] = mb.rms_norm %[[Q]] eps = 9.9999999999999995E-7
// CHECK-NEXT:        %[[VN:.*]] = mb.rms_norm %[[V]] eps = 9.9999999999999995E-7
// CHECK-NEXT:        %[[S:.*]] = mb.matmul %[[QN]], %[[KT]]
// CHECK-NEXT:        %[[E:.*]] = mb.exp %[[S]]
// CHECK-NEXT:        %[[N:.*]] = mb.matmul %[[E]], %[[VN]]
// CHECK-NEXT:        %[[DEN:.*]] = mb.accum_sum_last %[[E]]
// CHECK-NEXT:        %[[NUM:.*]] = mb.accum_sum %[[N]]
// CHECK-NEXT:        mb.yield %[[DEN]], %[[NUM]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[O:.*]] = mb.div %[[ACC]]#1, %[[ACC]]#0
// CHECK-NEXT:      mb.output_saver %[[O]]
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
