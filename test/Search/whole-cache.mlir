// The result cache (docs/cache.md) for functions searched whole: a first run
// searches and stores each outcome; a second run is answered from the cache,
// both a program (re-checked before use) and an outcome that sends the
// function to the partitioned search (whose subprograms are cached in turn:
// five hits, of which only the one the cover chooses is re-checked);
// an entry with bytes appended is detected and searched again; an entry
// whose program was changed (add replaced by sub, the checksum recomputed so
// that the entry is intact) fails the re-check and is searched again. Every
// result is equivalent to its input.
//
// RUN: rm -rf %t.cache
// RUN: mirage-opt --mirage-superoptimize="cache-dir=%t.cache time-budget=30 max-block-ops=4" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: mirage-opt --mirage-superoptimize="cache-dir=%t.cache time-budget=30 max-block-ops=4 keep-reference=1" %s -o %t.second 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: mirage-opt --mirage-check-equivalence %t.second -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
//
// RUN: for f in $(grep -l -r "mb.add" %t.cache); do echo x >> $f; done
// RUN: mirage-opt --mirage-superoptimize="cache-dir=%t.cache time-budget=30 max-block-ops=4 keep-reference=1" %s -o %t.third 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: mirage-opt --mirage-check-equivalence %t.third -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
//
// RUN: for f in $(grep -l -r "mb.add" %t.cache); do sed -i 's/mb.add/mb.sub/' $f && head -n -1 $f > $f.body && echo "sha256 $(sha256sum $f.body | cut -d' ' -f1)" >> $f.body && mv $f.body $f; done
// RUN: mirage-opt --mirage-superoptimize="cache-dir=%t.cache time-budget=30 max-block-ops=4 keep-reference=1" %s -o %t.fourth 2>&1 | FileCheck %s --check-prefix=PLANTED
// RUN: mirage-opt --mirage-check-equivalence %t.fourth -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// FIRST: remark: superoptimized: graph_kernel {{.*}} {matmul add matmul accum_sum}; 1 kernel(s), modelled {{.*}}; states
// FIRST: remark: not superoptimized whole: the best verified program
// FIRST: remark: superoptimized in 2 subprogram(s): {{.*}}, 0 from the cache (0 re-checked, 0 at reduced shapes),

// SECOND-NOT: result cache:
// SECOND: remark: superoptimized (from the cache): graph_kernel {{.*}} {matmul add matmul accum_sum}; 1 kernel(s), modelled {{.*}}; re-checked at reduced shapes
// SECOND: remark: not superoptimized whole (from the cache): slower than the unfused ops
// SECOND: remark: superoptimized in 2 subprogram(s): {{.*}} 0 searched, {{.*}} {{[0-9]+}} from the cache (1 re-checked, 1 at reduced shapes),

// CORRUPT: remark: result cache: {{.*}}: 2 trailing bytes after the checksum; the entry is ignored
// CORRUPT-NEXT: func.func @lora(
// CORRUPT: remark: superoptimized: graph_kernel {{.*}} {matmul add matmul accum_sum}; 1 kernel(s), modelled {{.*}}; states

// PLANTED: remark: result cache: cached program in {{.*}} failed the re-check{{.*}}; the entry is ignored
// PLANTED: remark: superoptimized: graph_kernel {{.*}} {matmul add matmul accum_sum}; 1 kernel(s), modelled {{.*}}; states

// EQUIV-DAG: remark: equivalent to @lora_reference
// EQUIV-DAG: remark: equivalent to @rms_mul_matmul_reference

// LoRA at small shapes: the whole search finds one kernel.
func.func @lora(%X: tensor<16x64xf16>, %W: tensor<64x256xf16>, %A: tensor<64x16xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %xw = mk.matmul %X, %W : tensor<16x64xf16>, tensor<64x256xf16> -> tensor<16x256xf16>
  %xa = mk.matmul %X, %A : tensor<16x64xf16>, tensor<64x16xf16> -> tensor<16x16xf16>
  %xab = mk.matmul %xa, %B : tensor<16x16xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  %o = mk.add %xw, %xab : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  return %o : tensor<16x256xf16>
}

// As superoptimize-slower-than-unfused.mlir: with at most 4 block ops, the
// whole search's best is slower than the unfused ops, so the function is
// partitioned.
func.func @rms_mul_matmul(%X: tensor<8x4096xf16>, %w: tensor<1x4096xf16>, %W: tensor<4096x8192xf16>) -> tensor<8x8192xf16> {
  %n = mk.rms_norm %X eps = 1.0e-05 : tensor<8x4096xf16>
  %h = mk.mul %n, %w : tensor<8x4096xf16>, tensor<1x4096xf16> -> tensor<8x4096xf16>
  %q = mk.matmul %h, %W : tensor<8x4096xf16>, tensor<4096x8192xf16> -> tensor<8x8192xf16>
  return %q : tensor<8x8192xf16>
}
