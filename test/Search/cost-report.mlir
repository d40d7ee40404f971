// The cost report: one remark per kernel and one per function with the
// roofline floor. Hand-computed floor of @mm: X 2x4096 f16 (16,384 B) + W
// 4096x6144 f16 (50,331,648 B) + Y 2x6144 f16 (24,576 B) = 50,372,608 B;
// over 4.8 TB/s (h200) 10.49 us, over 3.35 TB/s (h100-sxm, sm_90) 15.04 us;
// 2*2*4096*6144 = 100.7 MFLOP is far below that on the tensor cores.
// RUN: mirage-opt --mirage-cost-report="chip=h200" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=H200
// RUN: mirage-opt --mirage-cost-report="chip=sm_90" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=H100
// RUN: not mirage-opt --mirage-cost-report="chip=h300" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mirage-opt --mirage-superoptimize="measured-times=%t.missing" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf '# a comment\nmm abc mk.matmul\n' > %t.bad
// RUN: not mirage-opt --mirage-superoptimize="measured-times=%t.bad" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// H200: remark: cost on h200: kernel 0 mk.matmul: {{.*}} DRAM 50.373 MB
// H200: remark: cost on h200: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 10.49 us (memory 50.373 MB in 10.49 us
// H100: remark: cost on h100-sxm: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 15.04 us
// CHIP: error: mirage-cost-report: unknown chip 'h300'
// MISSING: error: mirage-superoptimize: cannot read measured-times file
// BAD: error: mirage-superoptimize: measured-times file '{{.*}}.bad' line 2: 'abc' is not a positive finite number of microseconds

func.func @mm(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %y = mk.matmul %X, %W : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
