//===- Passes.td - Equivalence checking and evaluation passes -*- tablegen -*-===//
//
// User-facing passes of the verification library (lib/Verify).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_PASSES_TD
#define MIRAGE_VERIFY_PASSES_TD

include "mlir/Pass/PassBase.td"

def MirageCheckEquivalence
    : Pass<"mirage-check-equivalence", "::mlir::ModuleOp"> {
  let summary = "check functions against their reference by random "
                "finite-field evaluation, f64 runs and (optionally) the "
                "numerics in the kernels' precision";
  let description = [{
    For every `func.func` carrying the dialect attribute
    `mk.reference = @ref`, evaluates the function and `@ref` on the same
    random inputs over the finite field of docs/verification.md (`tests`
    independent tests, fresh inputs and a fresh root of unity per test) and
    reports the verdict on the function:

    - a remark `equivalent to @ref (N tests, P(false equivalent) <= B)`;
    - an error `not equivalent to @ref: output #i element [..]: ...` with the
      two field values (and the float values of the same element);
    - a warning `equivalence to @ref unknown: ...` when the programs leave
      the verifiable fragment (exp inside exp, division by a field zero);
    - an error for bad input: a missing reference, an unknown op, different
      argument or result shapes.

    With `repeat = R` the whole check runs with R consecutive seeds and an
    error is reported if the verdicts differ (a flaky outcome).

    A function or reference with dynamic dims (docs/dynamic.md) is checked
    at the sizes `sizes` lists, entries `name=v1:v2:...`: at every
    combination of the values (at most 64), both are specialised and checked,
    and the verdict names the sizes (`equivalent to @ref at tokens=7`).
    Without `sizes`, a dynamic function is an error.

    ```mlir
    func.func @ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
      %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
      return %s : tensor<4x1xf32>
    }
    // remark@+1 {{equivalent to @ref}}
    func.func @cand(%x: tensor<4x8xf32>) -> tensor<4x1xf32>
        attributes {mk.reference = @ref} { ... }
    ```
  }];
  let options = [
    Option<"numTests", "tests", "unsigned", /*default=*/"4",
           "number of independent finite-field tests per function">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "seed of the random inputs and roots of unity">,
    Option<"repeat", "repeat", "unsigned", /*default=*/"1",
           "run the check with this many consecutive seeds and report an "
           "error if the verdicts differ">,
    Option<"floatCheck", "float-check", "bool", /*default=*/"true",
           "run the f64 check (part of the verdict)">,
    Option<"floatTolerance", "float-tolerance", "double", /*default=*/"1e-6",
           "largest accepted relative difference of the f64 check">,
    Option<"numerics", "numerics", "bool", /*default=*/"false",
           "also check the numerics in the kernels' precision (f16/bf16 "
           "storage, f32 arithmetic)">,
    Option<"numericsFactor", "numerics-factor", "double", /*default=*/"8.0",
           "reject when the candidate's error exceeds factor times the "
           "reference's error plus the floor">,
    Option<"numericsFloor", "numerics-floor", "double", /*default=*/"1e-2",
           "the floor of the numerics check">,
    ListOption<"sizes", "sizes", "std::string",
               "sizes to check functions with dynamic dims at, as "
               "name=v1:v2:... (every combination)">,
  ];
  let statistics = [
    Statistic<"numEquivalent", "equivalent", "functions found equivalent">,
    Statistic<"numNotEquivalent", "not-equivalent",
              "functions found not equivalent">,
    Statistic<"numInaccurate", "inaccurate",
              "functions equivalent over the reals but inaccurate in the "
              "kernels' precision">,
    Statistic<"numUnknown", "unknown",
              "functions outside the verifiable fragment">,
    Statistic<"numInvalid", "invalid", "functions with bad input">,
  ];
}

def MirageEvaluate : Pass<"mirage-evaluate", "::mlir::ModuleOp"> {
  let summary = "evaluate functions on seeded inputs and print their outputs";
  let description = [{
    Evaluates every function of `mk`/`mb`/`mt` ops in the module (or only
    `func`) with the interpreter of lib/Verify and prints, per output, its
    type and statistics (sum, mean, min, max in the float domain; the sum in
    the field domain) and with `print-values` every element, to stdout. Meant
    for lit tests of the semantics of the three levels.

    Inputs: `random` (uniform in [-1, 1) in float, uniform field elements in
    the field, from `seed`), `iota` (element i of every argument is i + 1) or
    `ones`.

    ```
    mirage-opt --mirage-evaluate="inputs=iota print-values" f.mlir
    // @f output #0 tensor<2x1xf32>: sum = 21 mean = 10.5 min = 6 max = 15
    //   6 15
    ```
  }];
  let options = [
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "seed of the random inputs">,
    Option<"domain", "domain", "std::string", /*default=*/"\"float\"",
           "value domain: float or field">,
    Option<"inputs", "inputs", "std::string", /*default=*/"\"random\"",
           "input values: random, iota or ones">,
    Option<"printValues", "print-values", "bool", /*default=*/"false",
           "print every output element">,
    Option<"function", "func", "std::string", /*default=*/"\"\"",
           "evaluate only this function">,
  ];
  let statistics = [
    Statistic<"numEvaluated", "evaluated", "functions evaluated">,
  ];
}

#endif // MIRAGE_VERIFY_PASSES_TD
