// Bad inputs of the mutation harness: a clear error and exit code 1.
// RUN: not %mirage_mutation_bench %s 2>&1 | FileCheck %s --check-prefix=NOREF
// RUN: not %mirage_mutation_bench %S/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo 'func.func @f(' > %t.mlir
// RUN: not %mirage_mutation_bench %t.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not %mirage_mutation_bench %S/not-equivalent/kernel-div.mlir 2>&1 | FileCheck %s --check-prefix=SEED
// RUN: sed -e 's/@lonely(/@lonely_named(/' -e 's/-> tensor<2x2xf32> {/-> tensor<2x2xf32> attributes {mk.reference = @nowhere} {/' %s > %t.noref.mlir
// RUN: not %mirage_mutation_bench %t.noref.mlir 2>&1 | FileCheck %s --check-prefix=DANGLING

// NOREF: error: {{.*}}mutation-invalid.mlir: no function with 'mk.reference'
// NOREF: error: 1 bad input files, 0 seed pairs not equivalent
// MISSING: error: {{.*}}does-not-exist.mlir: no such file
// PARSE: error: {{.*}}: cannot parse
// SEED: error: kernel-div.mlir @{{[a-z_0-9]+}}: the seed pair is not equivalent (not equivalent
// SEED: seed pairs not equivalent
// DANGLING: error: {{.*}}noref.mlir: @lonely_named names reference @nowhere, which does not exist
// DANGLING: error: 1 bad input files

func.func @lonely(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %y = mk.exp %x : tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
