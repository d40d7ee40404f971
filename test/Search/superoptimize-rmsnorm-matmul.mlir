// The superoptimizer on RMSNorm+MatMul at bs 1 (DESIGN.md section 8), real
// shapes: it must find a single graph-defined kernel whose loop walks the
// 4096-dim, accumulates the matmul and the rms of X (rms_last with the eps)
// and divides after the loop (the paper's Fig. 3). The result is checked
// against the input by the equivalence verifier, in the kernels' precision
// too: at the real 4096-dim each trip's matmul sums 256 products, which
// overflow f16 on inputs of magnitude 100 unless the tile is kept in f32
// (the search's numerics check at reduced extents used to miss it).
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1" %mirage_src_root/bench/programs/rmsnorm_matmul_bs1.mlir -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence="numerics=1" %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},1,1] forloop {{[0-9]+}} {matmul accum_rms_last accum_sum | div}; 1 kernel(s)
// REMARK-SAME: verified 1

// EQUIV: remark: equivalent to @rmsnorm_matmul_reference
// EQUIV-SAME: f16 numerics: accepted

// CHECK-LABEL: func.func @rmsnorm_matmul_reference(
// CHECK:         mk.rms_norm
// CHECK-LABEL: func.func @rmsnorm_matmul(
// CHECK-SAME:      attributes {mk.reference = @rmsnorm_matmul_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}) grid = [{{[0-9]+}}, 1, 1] block = [{{[0-9]+}}, 1, 1] forloop = {{[0-9]+}} {
// CHECK:           %[[ACC:.*]]:2 = mb.for_loop
// CHECK-NEXT:        %[[XT:.*]] = mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = 1
// CHECK-NEXT:        %[[WT:.*]] = mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = 0
// CHECK-NEXT:        %[[M:.*]] = mb.matmul %[[XT]], %[[WT]]
// CHECK-NEXT:        %[[R:.*]] = mb.accum_rms_last %[[XT]] eps = 9.9999999999999995E-7
// CHECK-NEXT:        %[[S:.*]] = mb.accum_sum %[[M]]
// CHECK-NEXT:        mb.yield %[[R]], %[[S]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[D:.*]] = mb.div %[[ACC]]#1, %[[ACC]]#0
// CHECK-NEXT:      %[[O:.*]] = mb.output_saver %[[D]] omap = [1, -1, -1]
// CHECK-NEXT:      mb.return %[[O]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[K]]
