// Online softmax from the search (issue 11 item 1): the denominator of a safe
// softmax, sum(exp(X - max(X))), over rows of 65536 f16 values, which no
// block can hold in shared memory (128 KiB), so the loop must walk the row.
// The search takes each step's maximum (reduce_max over the tile), sums
// exp(x - m) over the tile and accumulates with accum_rescaled_sum, which
// brings every step's sum to the running maximum: one kernel. (Without
// accum_rescaled_sum the best is two kernels, the maximum first.) The result
// keeps the max, passes the f16 numerics check and is equivalent to the input.
// Modelled faster, but rejected during the search by the numerics check
// (DESIGN section 4): the max-free forms the axioms reach through
// exp(x - M) = exp(x) * exp(-M), which sum exp of the raw tile (overflowing
// f16 on logits) and multiply by exp(-max) after the loop.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence="numerics=1" %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9,]+}}] forloop {{[0-9]+}} {reduce_max sub exp reduce_sum accum_rescaled_sum}; 1 kernel(s)
// REMARK-SAME: verified 1 ({{[1-9][0-9]*}} more rejected in the kernels' precision, the first graph_kernel grid [{{[0-9,]+}}] forloop {{[0-9]+}} {{[{]}}{{(reduce_max )?}}exp {{[a-z_ ]*}}| {{(reduce_max )?}}neg exp mul{{[a-z_ ]*}}})

// EQUIV: remark: equivalent to @softmax_denominator_reference
// EQUIV-SAME: f16 numerics: accepted

// CHECK-LABEL: func.func @softmax_denominator(
// CHECK-SAME:      attributes {mk.reference = @softmax_denominator_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%arg0)
// CHECK-SAME:      forloop = {{([2-9]|[1-9][0-9]+)}} {
// CHECK:           mb.for_loop
// CHECK-NEXT:        %[[T:.*]] = mb.input_iter %{{.*}} fmap = 1
// CHECK-NEXT:        %[[M:.*]] = mb.reduce_max %[[T]] dim = 1
// CHECK-NEXT:        %[[C:.*]] = mb.sub %[[T]], %[[M]]
// CHECK-NEXT:        %[[E:.*]] = mb.exp %[[C]]
// CHECK-NEXT:        %[[S:.*]] = mb.reduce_sum %[[E]] dim = 1
// CHECK-NEXT:        %[[R:.*]] = mb.accum_rescaled_sum %[[S]], %[[M]]
// CHECK-NEXT:        mb.yield %[[R]]
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
func.func @softmax_denominator(%X: tensor<8x65536xf16>) -> tensor<8x1xf16> {
  %m = mk.reduce_max %X dim = 1 : tensor<8x65536xf16> -> tensor<8x1xf16>
  %c = mk.sub %X, %m : tensor<8x65536xf16>, tensor<8x1xf16> -> tensor<8x65536xf16>
  %e = mk.exp %c : tensor<8x65536xf16>
  %s = mk.reduce_sum %e dim = 1 : tensor<8x65536xf16> -> tensor<8x1xf16>
  return %s : tensor<8x1xf16>
}
