// REQUIRES: ptxas
// RUN: mirage-run %S/dynamic-kernels.mlir --func=rmsnorm_matmul --device=gpu --compile-only --chip=sm_90 --ptx-dump-dir=%t.sm90 | FileCheck %s
// RUN: for f in %t.sm90/*.ptx; do %ptxas -arch=sm_90 $f -o /dev/null || echo "FAILED $f"; done 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS
// RUN: mirage-run %S/dynamic-kernels.mlir --func=rmsnorm_matmul --device=gpu --compile-only --chip=sm_80 --ptx-dump-dir=%t.sm80 | FileCheck %s --check-prefix=SM80
// RUN: for f in %t.sm80/*.ptx; do %ptxas -arch=sm_80 $f -o /dev/null || echo "FAILED $f"; done 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90/manifest.json
// RUN: mirage-run %S/dynamic-sizes.mlir --device=gpu --compile-only | FileCheck %s --check-prefix=UNFUSED

// A kernel with a dynamic token count compiled once for the GPU, without
// sizes (docs/dynamic.md): the PTX assembles for sm_90 and sm_80, and the
// manifest gives the '?' grid dim as ceil(dim 0 of argument 0 / 8).

// CHECK: @rmsnorm_matmul on gpu (sm_90): compile-only: 2 kernel binaries
// SM80: @rmsnorm_matmul on gpu (sm_80): compile-only: 2 kernel binaries
// PTXAS-NOT: FAILED
// MANIFEST:      "grid": [
// MANIFEST-NEXT:   3,
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "ceil_div": [
// MANIFEST-NEXT:       0,
// MANIFEST-NEXT:       0,
// MANIFEST-NEXT:       8
// UNFUSED: @rmsnorm_matmul on gpu (sm_90): compile-only: 5 kernel binaries
