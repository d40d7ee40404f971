// Masks in kernels (issue 31 item 3, the search's part): the denominator of a
// causal safe softmax over rows too long for shared memory, with 65532
// cached positions before the 8 query rows (row i keeps keys j <= 65532 +
// i; the masked keys are -inf and add nothing to the max or the sum). The
// search takes mk.band_mask like an element-wise op: it masks each loop
// step's tile where the loop places it (fmap = the walked dim), before the
// step's maximum and the rescaled sum: one kernel, equivalent to the input.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9,]+}}] forloop {{[0-9]+}} {band_mask reduce_max sub exp reduce_sum accum_rescaled_sum}; 1 kernel(s)

// EQUIV: remark: equivalent to @masked_denominator_reference

// CHECK-LABEL: func.func @masked_denominator(
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%arg0)
// CHECK-SAME:      forloop = {{([2-9]|[1-9][0-9]+)}} {
// CHECK:           mb.for_loop
// CHECK-NEXT:        %[[T:.*]] = mb.input_iter %{{.*}} fmap = 1
// CHECK-NEXT:        %[[B:.*]] = mb.band_mask %[[T]] dims = [0, 1] upper = 65532 fill = 0xFFF0000000000000 imap = [{{.*}}] fmap = 1
// CHECK-NEXT:        %[[M:.*]] = mb.reduce_max %[[B]] dim = 1
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
func.func @masked_denominator(%X: tensor<8x65536xf16>) -> tensor<8x1xf16> {
  %b = mk.band_mask %X dims = [0, 1] upper = 65532 fill = 0xFFF0000000000000 : tensor<8x65536xf16>
  %m = mk.reduce_max %b dim = 1 : tensor<8x65536xf16> -> tensor<8x1xf16>
  %c = mk.sub %b, %m : tensor<8x65536xf16>, tensor<8x1xf16> -> tensor<8x65536xf16>
  %e = mk.exp %c : tensor<8x65536xf16>
  %d = mk.reduce_sum %e dim = 1 : tensor<8x65536xf16> -> tensor<8x1xf16>
  return %d : tensor<8x1xf16>
}
