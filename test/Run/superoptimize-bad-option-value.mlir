// A pass-option value that the option parser rejects is one error: the
// parser's message, without the bare "error: " line that followed it (an
// empty message from Pass::initializeOptions). Unknown options and values out
// of range keep their own messages. (Here beside mirage-run's option tests;
// the pass's other option errors are in test/Search/superoptimize-invalid.mlir.)
// RUN: not mirage-opt --mirage-superoptimize='time-budget=abc' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not mirage-opt --mirage-superoptimize='threads=x' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-opt --mirage-superoptimize='nosuch=1' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// VALUE: mirage-opt: for the --time-budget option: 'abc' value invalid for floating point argument!
// VALUE-NOT: error
// THREADS: mirage-opt: for the --threads option: 'x' value invalid for uint argument!
// THREADS-NOT: error
// UNKNOWN: error: <Pass-Options-Parser>: no such option nosuch

func.func @f(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = mk.add %a, %b : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
