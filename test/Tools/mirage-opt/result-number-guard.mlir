// Result numbers far beyond any op's result count are rejected before the
// upstream parser sees them: it sizes its table by the number (`%y#N` makes
// entries.resize(N + 1) in OperationParser::resolveSSAUse) and aborts with
// "out of memory" for N = 2^31 (issue 14). The limit is 2^20 - 1.
//
// RUN: split-file %s %t
// RUN: not mirage-opt %t/huge.mlir 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not mirage-opt %t/overflow.mlir 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not mirage-opt %t/def.mlir 2>&1 | FileCheck %s --check-prefix=DEF
// RUN: not mirage-opt < %t/huge.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not mirage-opt %t/limit.mlir 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: mirage-opt %t/comment.mlir | FileCheck %s --check-prefix=COMMENT

// HUGE: huge.mlir:2:10: error: result number 2147483648 of '%y' is too large (at most 1048575)
// HUGE-NEXT: return %y#2147483648 : tensor<4xf32>
// OVERFLOW: error: result number 000099999999999999999999999 of '%0' is too large
// DEF: error: result number 4294967296 of '%a' is too large
// STDIN: <stdin>:2:10: error: result number 2147483648 of '%y' is too large
// At the limit, the upstream parser diagnoses the use itself.
// LIMIT: error: use of undeclared SSA value name
// LIMIT-NOT: too large
// COMMENT: func.func @f

//--- huge.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %y#2147483648 : tensor<4xf32>
}
//--- overflow.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %0#000099999999999999999999999 : tensor<4xf32>
}
//--- def.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = arith.addf %a#4294967296, %x : tensor<4xf32>
  return %b : tensor<4xf32>
}
//--- limit.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %y#1048575 : tensor<4xf32>
}
//--- comment.mlir
// A comment may mention %y#2147483648, and so may a string:
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {note = "%y#2147483648"} {
  return %x : tensor<4xf32>
}
