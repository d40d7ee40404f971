// Mutation testing of the verifier (issue 9; docs/verification.md, "Mutation
// testing of the verifier"): every single mutation of the small-shape copies
// of the known-good fused programs and their variants
// (bench/verify/mutation-seeds), of the small equivalent pairs of
// test/Verify/equivalent and of test/Verify/numerics. No mutant may be
// reported equivalent by the field and not equivalent by the f64 check,
// commuted adds and muls must be accepted, and the run must make at least
// 2000 valid mutants (about 10 s).
// RUN: %mirage_mutation_bench --min-mutants=2000 %S/../../bench/verify/mutation-seeds/*.mlir %S/equivalent/block-*.mlir %S/equivalent/kernel-*.mlir %S/numerics/*.mlir | FileCheck %s

// CHECK: kind generated invalid valid both-reject both-accept DEFECT false-reject
// CHECK: {{^}}total
// CHECK-NEXT: seed pairs (0 not equivalent), {{[0-9]+}} valid mutants, {{[0-9]+}} invalid dropped; field and f64 agree on {{[0-9]+}}; 0 defects (field equivalent, f64 not)
// CHECK-NOT: DEFECTS
// CHECK: false rejects: field not equivalent, f64 equivalent
// CHECK-NOT: unexplained
// CHECK: truly equivalent mutants: both accept
// CHECK-DAG: lora.mlir @lora_fused: mb.add#{{[0-9]+}} operands swapped: field equivalent, f64 equivalent
// CHECK-DAG: gated_mlp.mlir @gated_mlp_fused: mt.mul#{{[0-9]+}} operands swapped: field equivalent, f64 equivalent
// CHECK-DAG: kernel-relu.mlir @relu: mk.add#{{[0-9]+}} operands swapped: field equivalent, f64 equivalent
// CHECK-DAG: rmsnorm_matmul.mlir @rmsnorm_matmul_fused: mk.graph_kernel#{{[0-9]+}} forloop 4 -> 8: field equivalent, f64 equivalent
// CHECK-DAG: rmsnorm_matmul.mlir @rmsnorm_matmul_fused: mk.graph_kernel#{{[0-9]+}} grid[0] 4 -> 8: field equivalent, f64 equivalent

// The JSON report of one seed.
// RUN: %mirage_mutation_bench --json=%t.json %S/../../bench/verify/mutation-seeds/lora.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "defects": 0,
// JSON: "kinds": [
// JSON: "kind": "imap",
// JSON: "mutants": [
// JSON: "mutation": "mb.add#10 operands swapped",
// JSON-NEXT: "note": "f64 max relative difference {{.*}}",
// JSON-NEXT: "outcome": "both-accept"
// JSON: "seedPairs": 1,
