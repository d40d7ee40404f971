// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt --mirage-import-to-ptx="dump-dir=%t/bert" %S/bert-layer-linalg.mlir -o /dev/null 2>/dev/null
// RUN: mirage-opt --mirage-import-to-ptx="dump-dir=%t/llama90" %S/llama-layer-tosa.mlir -o /dev/null 2>/dev/null
// RUN: mirage-opt --mirage-import-to-ptx="chip=a100-80gb dump-dir=%t/llama80" %S/llama-layer-tosa.mlir -o /dev/null 2>/dev/null
// RUN: for d in bert:sm_90 llama90:sm_90 llama80:sm_80; do \
// RUN:   name=$(echo $d | cut -d: -f1); chip=$(echo $d | cut -d: -f2); dir=%t/$name; n=0; \
// RUN:   for f in $dir/*.ptx; do \
// RUN:     grep -q "^.target $chip" $f || echo "FAILED $f is not for $chip"; \
// RUN:     %ptxas -arch=$chip $f -o /dev/null || echo "FAILED $f"; n=$((n+1)); \
// RUN:   done; \
// RUN:   echo "$name: $n modules assembled for $chip"; \
// RUN:   grep -q '"launches"' $dir/manifest.json || echo "FAILED $dir/manifest.json"; \
// RUN: done | FileCheck %s

// The whole layers of bert-layer-linalg.mlir (linalg, as torch-mlir emits a
// BERT encoder layer) and llama-layer-tosa.mlir (tosa, a Llama decoder
// layer) go through the named pipeline, linalg/tosa -> mk -> superoptimize
// -> PTX, and ptxas accepts every kernel module it writes, for the chip the
// pipeline was given (a part name selects its architecture).

// CHECK-NOT: FAILED
// CHECK: bert: {{[1-9][0-9]*}} modules assembled for sm_90
// CHECK-NOT: FAILED
// CHECK: llama90: {{[1-9][0-9]*}} modules assembled for sm_90
// CHECK-NOT: FAILED
// CHECK: llama80: {{[1-9][0-9]*}} modules assembled for sm_80
// CHECK-NOT: FAILED
