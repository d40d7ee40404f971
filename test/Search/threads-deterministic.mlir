// The result does not depend on the number of search threads: one, two and
// three threads give the same module for a layer that is partitioned (the
// reduced GPT-2 MLP block of test/Run/layers, 17 ops: its subprogram
// searches run as parallel jobs, a wave at a time), one and two for a
// program searched whole (the gated MLP below).
//
// RUN: mirage-opt --mirage-superoptimize="cache-dir=none threads=1" %S/../Run/layers/gpt2_mlp.mlir -o %t.layer1 2>/dev/null
// RUN: mirage-opt --mirage-superoptimize="cache-dir=none threads=2" %S/../Run/layers/gpt2_mlp.mlir -o %t.layer2 2>/dev/null
// RUN: mirage-opt --mirage-superoptimize="cache-dir=none threads=3" %S/../Run/layers/gpt2_mlp.mlir -o %t.layer3 2>/dev/null
// RUN: diff %t.layer1 %t.layer2
// RUN: diff %t.layer1 %t.layer3
// RUN: FileCheck %s --check-prefix=LAYER --input-file=%t.layer1
// RUN: mirage-opt --mirage-superoptimize="cache-dir=none threads=1" %s -o %t.whole1 2>/dev/null
// RUN: mirage-opt --mirage-superoptimize="cache-dir=none threads=2" %s -o %t.whole2 2>/dev/null
// RUN: diff %t.whole1 %t.whole2
// RUN: FileCheck %s --input-file=%t.whole1

// LAYER-COUNT-3: mk.graph_kernel
// LAYER-NOT: mk.graph_kernel

// CHECK-LABEL: func.func @gated_mlp(
// CHECK: mk.graph_kernel
func.func @gated_mlp(%x: tensor<8x256xf16>, %w1: tensor<256x256xf16>, %w2: tensor<256x256xf16>) -> tensor<8x256xf16> {
  %a = mk.matmul %x, %w1 : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %b = mk.matmul %x, %w2 : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %s = mk.silu %a : tensor<8x256xf16>
  %m = mk.mul %s, %b : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  return %m : tensor<8x256xf16>
}
