// Absurd options are errors (exit code 1), reported before any search.
//
// RUN: not mirage-opt --mirage-superoptimize="max-block-ops=100" %s 2>&1 | FileCheck %s --check-prefix=BLOCKOPS
// RUN: not mirage-opt --mirage-superoptimize="max-kernel-ops=0" %s 2>&1 | FileCheck %s --check-prefix=KERNELOPS
// RUN: not mirage-opt --mirage-superoptimize="threads=0" %s 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-opt --mirage-superoptimize="time-budget=-1" %s 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not mirage-opt --mirage-superoptimize="time-budget=1e9" %s 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not mirage-opt --mirage-superoptimize="verify-budget=-1" %s 2>&1 | FileCheck %s --check-prefix=VBUDGET
// RUN: not mirage-opt --mirage-superoptimize="chip=sm_70" %s 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mirage-opt --mirage-superoptimize="chip=sm_75" %s 2>&1 | FileCheck %s --check-prefix=CHIP75
// RUN: not mirage-opt --mirage-superoptimize="max-block-threads=2048" %s 2>&1 | FileCheck %s --check-prefix=THREADSPB
// RUN: not mirage-opt --mirage-superoptimize="max-blocks=0" %s 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not mirage-opt --mirage-superoptimize="final-tests=0" %s 2>&1 | FileCheck %s --check-prefix=TESTS
// RUN: not mirage-opt --mirage-superoptimize="max-kernel-inputs=0" %s 2>&1 | FileCheck %s --check-prefix=INPUTS
// RUN: not mirage-opt --mirage-superoptimize="max-kernel-outputs=9" %s 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// RUN: not mirage-opt --mirage-superoptimize="max-graph-kernels=99" %s 2>&1 | FileCheck %s --check-prefix=KERNELS
// RUN: not mirage-opt --mirage-superoptimize="rank=fastest" %s 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not mirage-opt --mirage-superoptimize="rank=time deepen-factor=-2" %s 2>&1 | FileCheck %s --check-prefix=DEEPEN

// BLOCKOPS: error: mirage-superoptimize: max-block-ops must be 0 (automatic) or in [1, 16], got 100
// KERNELOPS: error: mirage-superoptimize: max-kernel-ops must be in [1, 8]
// THREADS: error: mirage-superoptimize: threads must be in [1, 256]
// BUDGET: error: mirage-superoptimize: time-budget must be in (0, 1e6] seconds
// VBUDGET: error: mirage-superoptimize: verify-budget must be in [0, 1e6] seconds
// CHIP: error: mirage-superoptimize: unknown chip 'sm_70' (expected a100-40gb, a100-80gb, h100-sxm, h200, a10g, a40, l4, l40s, rtx4090, b200, rtx5090, sm_80 (a100-80gb), sm_86 (a10g), sm_89 (l40s), sm_90 (h100-sxm), sm_90a (h100-sxm), sm_100 (b200), sm_100a (b200), sm_120 (rtx5090) or sm_120a (rtx5090))
// CHIP75: error: mirage-superoptimize: unknown chip 'sm_75' (expected
// THREADSPB: error: mirage-superoptimize: max-block-threads must be a power of two in [32, 1024]
// BLOCKS: error: mirage-superoptimize: max-blocks must be >= 1
// TESTS: error: mirage-superoptimize: final-tests must be >= 1
// INPUTS: error: mirage-superoptimize: max-kernel-inputs must be in [1, 8]
// OUTPUTS: error: mirage-superoptimize: max-kernel-outputs must be in [1, 4]
// KERNELS: error: mirage-superoptimize: max-graph-kernels must be in [0, 8]
// RANK: error: mirage-superoptimize: rank must be 'kernels' or 'time', got 'fastest'
// DEEPEN: error: mirage-superoptimize: deepen-factor must be in [0, 1e6]
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = mk.exp %x : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
