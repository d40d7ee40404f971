// REQUIRES: ptxas
// RUN: mirage-run %S/decode-attention-dynamic.mlir --func=decode --device=gpu --compile-only --chip=sm_90 --ptx-dump-dir=%t.sm90 | FileCheck %s
// RUN: for f in %t.sm90/*.ptx; do %ptxas -arch=sm_90 $f -o /dev/null || echo "FAILED $f"; done 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS
// RUN: cat %t.sm90/decode_kernel*.ptx | FileCheck %s --check-prefix=ZFILL
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90/manifest.json
// RUN: mirage-run %S/decode-attention-dynamic.mlir --func=decode --device=gpu --compile-only --chip=sm_80 --ptx-dump-dir=%t.sm80 | FileCheck %s --check-prefix=SM80
// RUN: for f in %t.sm80/*.ptx; do %ptxas -arch=sm_80 $f -o /dev/null || echo "FAILED $f"; done 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS

// Decode attention over a dynamic key length compiled once for the GPU
// (docs/dynamic.md "The walked tail"): the PTX of its '?' loop assembles for
// sm_90 and sm_80, and the walked tiles' cp.async copies take a source size
// (zero-filled past the end). The kernel has two variants: without masks,
// launched when the key length is a multiple of 32 (the manifest says so),
// and masked otherwise.

// CHECK: @decode on gpu (sm_90): compile-only: 2 kernel binaries
// SM80: @decode on gpu (sm_80): compile-only: 2 kernel binaries
// PTXAS-NOT: FAILED
// ZFILL: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// MANIFEST:      "when": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "holds": true,
// MANIFEST-NEXT:     "multiple_of": [
// MANIFEST-NEXT:       [
// MANIFEST-NEXT:         1,
// MANIFEST-NEXT:         1,
// MANIFEST-NEXT:         32
// MANIFEST:      "holds": false,
