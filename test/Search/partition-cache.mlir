// The result cache (docs/cache.md) per subprogram of a partitioned function:
// a first run searches and stores, a second is answered from the cache; an
// entry with bytes appended is detected (remark) and searched again; an
// entry whose program was changed (silu replaced by relu, the checksum
// recomputed so that the entry itself is intact) fails the re-check and is
// searched again. Only the cached programs of the chosen cover are
// re-checked (two here), not every hit. Every result is equivalent to the
// input. Without joins (partition-joins=0), whose one kernel would leave no
// two subprograms to re-check.
//
// RUN: rm -rf %t.cache
// RUN: mirage-opt --mirage-superoptimize="threads=2 partition-joins=0 cache-dir=%t.cache" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: mirage-opt --mirage-superoptimize="threads=2 partition-joins=0 cache-dir=%t.cache keep-reference=1" %s -o %t.second 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: mirage-opt --mirage-check-equivalence %t.second -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
//
// RUN: for f in $(grep -l -r "mb.silu" %t.cache); do echo x >> $f; done
// RUN: mirage-opt --mirage-superoptimize="threads=2 partition-joins=0 cache-dir=%t.cache keep-reference=1" %s -o %t.third 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: mirage-opt --mirage-check-equivalence %t.third -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
//
// RUN: for f in $(grep -l -r "mb.silu" %t.cache); do sed -i 's/mb.silu/mb.relu/' $f && head -n -1 $f > $f.body && echo "sha256 $(sha256sum $f.body | cut -d' ' -f1)" >> $f.body && mv $f.body $f; done
// RUN: mirage-opt --mirage-superoptimize="threads=2 partition-joins=0 cache-dir=%t.cache keep-reference=1" %s -o %t.fourth 2>&1 | FileCheck %s --check-prefix=PLANTED
// RUN: mirage-opt --mirage-check-equivalence %t.fourth -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: not grep mb.relu %t.fourth

// FIRST: remark: subprogram 1 of 2: {{.*}}; searched in
// FIRST: remark: subprogram 2 of 2: {{.*}}; searched in
// FIRST: remark: superoptimized in 2 subprogram(s): {{.*}}, 0 from the cache (0 re-checked, 0 at reduced shapes),

// SECOND-NOT: result cache:
// SECOND: remark: subprogram 1 of 2: {{.*}} {rms_norm mul matmul matmul {{.*}}; {{.*}}; from cache
// SECOND: remark: subprogram 2 of 2: {{.*}} {{{.*}}matmul add accum_sum}; {{.*}}; from cache
// SECOND: remark: superoptimized in 2 subprogram(s): 8 ops, 2 kernel(s) (unfused 8), {{.*}} 0 searched, {{.*}} from the cache (2 re-checked, 2 at reduced shapes),

// CORRUPT: remark: result cache: {{.*}}: 2 trailing bytes after the checksum
// CORRUPT: remark: subprogram {{[12]}} of 2: {{.*}}silu{{.*}}; searched in

// PLANTED: remark: result cache: cached program in {{.*}} failed the re-check
// PLANTED: remark: subprogram {{[12]}} of 2: {{.*}}silu{{.*}}; searched in

// EQUIV: remark: equivalent to @mlp_reference
func.func @mlp(%x: tensor<8x64xf16>, %w: tensor<1x64xf16>, %wg: tensor<64x128xf16>, %wu: tensor<64x128xf16>, %wd: tensor<128x64xf16>) -> tensor<8x64xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<8x64xf16>
  %h = mk.mul %n, %w : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
  %g = mk.matmul %h, %wg : tensor<8x64xf16>, tensor<64x128xf16> -> tensor<8x128xf16>
  %u = mk.matmul %h, %wu : tensor<8x64xf16>, tensor<64x128xf16> -> tensor<8x128xf16>
  %s = mk.silu %g : tensor<8x128xf16>
  %p = mk.mul %s, %u : tensor<8x128xf16>, tensor<8x128xf16> -> tensor<8x128xf16>
  %d = mk.matmul %p, %wd : tensor<8x128xf16>, tensor<128x64xf16> -> tensor<8x64xf16>
  %o = mk.add %d, %x : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}
