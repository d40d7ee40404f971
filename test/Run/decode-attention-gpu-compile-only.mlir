// REQUIRES: ptxas
// RUN: mirage-run %S/decode-attention-dynamic.mlir --func=decode --device=gpu --compile-only --chip=sm_90 --ptx-dump-dir=%t.sm90 | FileCheck %s
// RUN: for f in %t.sm90/*.ptx; do %ptxas -arch=sm_90 $f -o /dev/null || echo "FAILED $f"; done 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=ZFILL < %t.sm90/decode_kernel.ptx
// RUN: mirage-run %S/decode-attention-dynamic.mlir --func=decode --device=gpu --compile-only --chip=sm_80 --ptx-dump-dir=%t.sm80 | FileCheck %s --check-prefix=SM80
// RUN: for f in %t.sm80/*.ptx; do %ptxas -arch=sm_80 $f -o /dev/null || echo "FAILED $f"; done 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS

// Decode attention over a dynamic key length compiled once for the GPU
// (docs/dynamic.md "The walked tail"): the PTX of its '?' loop assembles for
// sm_90 and sm_80, and the walked tiles' cp.async copies take a source size
// (zero-filled past the end).

// CHECK: @decode on gpu (sm_90): compile-only: 1 kernel binaries
// SM80: @decode on gpu (sm_80): compile-only: 1 kernel binaries
// PTXAS-NOT: FAILED
// ZFILL: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
