// The superoptimizer on nTrans (DESIGN.md section 8), bs 1, real shapes: one
// graph-defined kernel over the rows; both normalisations need whole rows, so
// the loop does not walk the 4096-dim (forloop 1).
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1" %mirage_src_root/bench/programs/ntrans_bs1.mlir -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [8,1,1] forloop 1 {rms_norm sub mul add accum_sum | rms_norm}; 1 kernel(s)

// EQUIV: remark: equivalent to @ntrans_reference

// CHECK-LABEL: func.func @ntrans(
// CHECK-SAME:      attributes {mk.reference = @ntrans_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}}) grid = [8, 1, 1] block = [128, 1, 1] forloop = 1 {
// CHECK:             %[[H:.*]] = mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = -1
// CHECK-NEXT:        %[[X:.*]] = mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = -1
// CHECK-NEXT:        %[[A:.*]] = mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = -1
// CHECK-NEXT:        %[[HN:.*]] = mb.rms_norm %[[H]]
// CHECK-NEXT:        %[[D:.*]] = mb.sub %[[HN]], %[[X]]
// CHECK-NEXT:        %[[AD:.*]] = mb.mul %[[A]], %[[D]]
// CHECK-NEXT:        %[[Y:.*]] = mb.add %[[X]], %[[AD]]
// CHECK-NEXT:        %[[S:.*]] = mb.accum_sum %[[Y]]
// CHECK:           %[[N:.*]] = mb.rms_norm
// CHECK-NEXT:      mb.output_saver %[[N]] omap = [0, -1, -1]
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
