// RUN: mirage-opt %mirage_src_root/bench/programs/gated_mlp.mlir --mirage-to-ptx="chip=sm_90 dump-dir=%t/sm_90" -o /dev/null
// RUN: cat %t/sm_90/*.ptx | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %mirage_src_root/bench/programs/gated_mlp.mlir --mirage-to-ptx="chip=sm_80 dump-dir=%t/sm_80" -o /dev/null
// RUN: cat %t/sm_80/*.ptx | FileCheck %s --check-prefix=SM80
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sm_90/manifest.json

// The benchmark program `bench/programs/gated_mlp.mlir` lowers to PTX for sm_80 and sm_90: 4 kernel
// module(s), one entry point each, and a manifest entry per launch.

// SM90-COUNT-4: .version 8.0
// SM90-NOT: .version
// SM80-COUNT-4: .version 7.0
// SM80-NOT: .version
// MANIFEST: "functions"
// MANIFEST-COUNT-4: "kernel":
// MANIFEST-NOT: "kernel":
