// The defect report of the mutation harness: with an f64 tolerance of 1e-300
// every rounding difference of a tiling mutant counts as "f64 not
// equivalent", so the mutants the field accepts are reported as verifier
// defects, and the run fails.
// RUN: not %mirage_mutation_bench --float-tolerance=1e-300 %S/../../bench/verify/mutation-seeds/lora.mlir > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// CHECK: {{^}}total
// CHECK: DEFECTS: field equivalent, f64 not equivalent
// CHECK-NEXT: lora.mlir @lora_fused: {{.*}}: field equivalent, f64 not equivalent; f64 not equivalent (mixed, output #0 [{{[0-9, ]+}}]: {{.*}} vs {{.*}})
// ERR: error: {{[1-9][0-9]*}} verifier defects (field equivalent, f64 not)
