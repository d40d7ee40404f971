// RUN: not mirage-opt %s --mirage-to-ptx="chip=sm_70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM70
// RUN: not mirage-opt %s --mirage-to-ptx="chip=sm_75" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not mirage-opt %s --mirage-to-ptx="chip=sm_61" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM61
// RUN: not mirage-opt %s --mirage-to-ptx="chip=sm_87" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM87
// RUN: not mirage-opt %s --mirage-to-ptx="chip=foo" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOO
// RUN: not mirage-opt %s --mirage-to-ptx="chip=" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not mirage-opt %s --mirage-to-ptx="chip=rtx3090" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PART
// RUN: not mirage-opt %s --mirage-to-ptx="chip=sm_86 features=+ptx70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not mirage-opt %s --mirage-to-ptx="chip=sm_100 features=+ptx80" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX100
// RUN: not mirage-opt %s --pass-pipeline="builtin.module(mirage-to-ptx{chip=sm_75})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75

// A chip that is neither a supported architecture nor a part of the cost
// model, and features asking for a PTX version older than the architecture
// needs, are an error when the pipeline is built, with exit code 1 (`not`
// fails on a crash): before, sm_70 and sm_75 aborted in the NVPTX backend on
// cp.async and sm_86 on PTX 7.0.

// SM70: error: mirage-to-ptx: unsupported chip 'sm_70' (expected an architecture (sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a) or a part (a100-40gb, a100-80gb, h100-sxm, h200, a10g, a40, l4, l40s, rtx4090, b200, rtx5090))
// SM75: error: mirage-to-ptx: unsupported chip 'sm_75' (expected an architecture (sm_80,
// SM61: error: mirage-to-ptx: unsupported chip 'sm_61' (expected
// SM87: error: mirage-to-ptx: unsupported chip 'sm_87' (expected
// FOO: error: mirage-to-ptx: unsupported chip 'foo' (expected
// EMPTY: error: mirage-to-ptx: unsupported chip '' (expected
// PART: error: mirage-to-ptx: unsupported chip 'rtx3090' (expected
// PTX: error: mirage-to-ptx: features '+ptx70' ask for PTX 7.0, but sm_86 needs PTX 7.1 or newer
// PTX100: error: mirage-to-ptx: features '+ptx80' ask for PTX 8.0, but sm_100 needs PTX 8.6 or newer
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = mk.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
