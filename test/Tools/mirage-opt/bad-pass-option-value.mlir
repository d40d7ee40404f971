// A pass-option value that the option parser rejects is one error: the
// parser's message, without the bare "error: " line that followed it (an
// empty message from Pass::initializeOptions, which mirage-opt drops while it
// builds the pipeline), for every pass: ours and upstream's, given as a flag
// or in --pass-pipeline. Unknown options and values out of range keep their
// own messages (superoptimize's: test/Search/superoptimize-invalid.mlir).
// RUN: not mirage-opt --mirage-superoptimize='time-budget=abc' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not mirage-opt --mirage-superoptimize='threads=x' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-opt --mirage-superoptimize='nosuch=1' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mirage-opt --mirage-import='outline=abc' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=IMPORT
// RUN: not mirage-opt --mirage-check-equivalence='seed=abc' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEED
// RUN: not mirage-opt --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=UPSTREAM

// VALUE: mirage-opt: for the --time-budget option: 'abc' value invalid for floating point argument!
// VALUE-NOT: error
// THREADS: mirage-opt: for the --threads option: 'x' value invalid for uint argument!
// THREADS-NOT: error
// UNKNOWN: error: <Pass-Options-Parser>: no such option nosuch
// IMPORT: mirage-opt: for the --outline option: 'abc' is invalid value for boolean argument! Try 0 or 1
// IMPORT-NOT: error
// SEED: mirage-opt: for the --seed option: 'abc' value invalid for ulong argument!
// SEED-NOT: error
// UPSTREAM: mirage-opt: for the --max-iterations option: 'abc' value invalid for long argument!
// UPSTREAM-NEXT: error: failed to add `canonicalize` with options `max-iterations=abc`
// UPSTREAM-NOT: error

func.func @f(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = mk.add %a, %b : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
