// The cost report: one remark per kernel and one per function with the
// roofline floor. Hand-computed floor of @mm: X 2x4096 f16 (16,384 B) + W
// 4096x6144 f16 (50,331,648 B) + Y 2x6144 f16 (24,576 B) = 50,372,608 B;
// over 4.8 TB/s (h200) 10.49 us, over 3.35 TB/s (h100-sxm, sm_90) 15.04 us;
// 2*2*4096*6144 = 100.7 MFLOP is far below that on the tensor cores. The
// parts of the other architectures: 864 GB/s (l40s, sm_89's part) 58.30 us,
// 600 GB/s (a10g, sm_86's) 83.95 us, 7.7 TB/s (b200) 6.54 us, 1.792 TB/s
// (rtx5090, sm_120's) 28.11 us, 300 GB/s (l4) 167.91 us.
// RUN: mirage-opt --mirage-cost-report="chip=h200" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=H200
// RUN: mirage-opt --mirage-cost-report="chip=sm_90" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=H100
// RUN: mirage-opt --mirage-cost-report="chip=sm_89" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=L40S
// RUN: mirage-opt --mirage-cost-report="chip=sm_86" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=A10G
// RUN: mirage-opt --mirage-cost-report="chip=b200" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=B200
// RUN: mirage-opt --mirage-cost-report="chip=sm_120a" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=RTX5090
// RUN: mirage-opt --mirage-cost-report="chip=l4" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=L4
// The fused rmsnorm_matmul kernel copies its 50.373 MB from DRAM and 4.178
// MB from L2 in 16-byte cp.async chunks: 3.41 M load/store instructions,
// at 32 per SM and clock on 132 SMs at 1.98 GHz about 0.4 us.
// RUN: mirage-opt --mirage-cost-report="chip=sm_90" %mirage_src_root/test/Programs/rmsnorm_matmul_fused.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ISSUE
// ISSUE: cost on h100-sxm: kernel 0 mk.graph_kernel: {{.*}} + max(memory {{.*}} (bound), compute {{.*}}, issue 0.4, latency {{.*}}); DRAM 50.373 MB, L2 4.178 MB;{{.*}} load/store instructions 3.408 M;
// RUN: not mirage-opt --mirage-cost-report="chip=h300" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mirage-opt --mirage-cost-report="chip=rtx3090" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PART
// RUN: not mirage-opt --mirage-superoptimize="measured-times=%t.missing" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf '# a comment\nmm abc mk.matmul\n' > %t.bad
// RUN: not mirage-opt --mirage-superoptimize="measured-times=%t.bad" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// H200: remark: cost on h200: kernel 0 mk.matmul: {{.*}} us = launch {{.*}} + max(memory {{.*}}, compute {{.*}}, issue {{.*}}, latency {{.*}}); DRAM 50.373 MB
// H200: remark: cost on h200: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 10.49 us (memory 50.373 MB in 10.49 us
// H100: remark: cost on h100-sxm: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 15.04 us
// L40S: remark: cost on l40s: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 58.30 us
// A10G: remark: cost on a10g: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 83.95 us
// B200: remark: cost on b200: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 6.54 us
// RTX5090: remark: cost on rtx5090: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 28.11 us
// L4: remark: cost on l4: @mm: 1 kernel(s), modelled {{.*}}; roofline floor 167.91 us
// CHIP: error: mirage-cost-report: unknown chip 'h300'
// PART: error: mirage-cost-report: unknown chip 'rtx3090' (expected a100-40gb, a100-80gb, h100-sxm, h200, a10g, a40, l4, l40s, rtx4090, b200, rtx5090, sm_80 (a100-80gb), sm_86 (a10g), sm_89 (l40s), sm_90 (h100-sxm), sm_90a (h100-sxm), sm_100 (b200), sm_100a (b200), sm_120 (rtx5090) or sm_120a (rtx5090))
// MISSING: error: mirage-superoptimize: cannot read measured-times file
// BAD: error: mirage-superoptimize: measured-times file '{{.*}}.bad' line 2: 'abc' is not a positive finite number of microseconds

func.func @mm(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %y = mk.matmul %X, %W : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
