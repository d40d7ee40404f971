// RUN: mirage-opt %s -split-input-file -verify-diagnostics --mirage-specialize-sizes="sizes=tokens=6"
// RUN: not mirage-opt %s -split-input-file --mirage-specialize-sizes="sizes=tokens" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not mirage-opt %s -split-input-file --mirage-specialize-sizes="sizes=tokens=0" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not mirage-opt %s -split-input-file --mirage-specialize-sizes="sizes=tokens=4,tokens=8" 2>&1 | FileCheck %s --check-prefix=TWICE

// Sizes the pass cannot give (docs/dynamic.md): each split fails with a
// diagnostic and leaves the function as it is.

// ENTRY: size entry '{{tokens|tokens=0}}' is not name=value with a positive integer value
// TWICE: size 'tokens' is given twice

// A value must satisfy the merged facts: 6 is not a multiple of 4.
// expected-error @+1 {{size tokens = 6 breaks its facts tokens (1 <= tokens <= 64, a multiple of 4)}}
func.func @divisor(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<name = "tokens", max = 64, divisor = 4>]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// Facts on two arguments whose dims the ops relate are intersected: x says
// at most 64, y at least 8 and even; 6 is below 8.
// expected-error @+1 {{size tokens = 6 breaks its facts tokens (8 <= tokens <= 64, a multiple of 2)}}
func.func @merged(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<name = "tokens", max = 64>]},
                  %y: tensor<?x8xf16> {mk.sizes = [#mk.size<min = 8, divisor = 2>]}) -> tensor<?x8xf16> {
  %s = mk.add %x, %y : tensor<?x8xf16>, tensor<?x8xf16> -> tensor<?x8xf16>
  return %s : tensor<?x8xf16>
}

// -----

// Two names for one size.
// expected-error @+1 {{dim 0 of argument #1 is named 'rows' but the ops make it the size of dim 0 of argument #0, named 'tokens'}}
func.func @two_names(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<name = "tokens">]},
                     %y: tensor<?x8xf16> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf16> {
  %s = mk.add %x, %y : tensor<?x8xf16>, tensor<?x8xf16> -> tensor<?x8xf16>
  return %s : tensor<?x8xf16>
}

// -----

// Facts that admit no value: no multiple of 16 lies in [1, 10].
// expected-error @+1 {{size tokens (1 <= tokens <= 10, a multiple of 16) admits no value}}
func.func @empty(%x: tensor<?x8xf16> {mk.sizes = [#mk.size<name = "tokens", max = 10, divisor = 16>]}) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// A size of the function that is not given.
// expected-error @+1 {{no value given for size s0 (1 <= s0) of @other}}
func.func @other(%x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  return %x : tensor<?x8xf16>
}

// -----

// A given name that no function has.
// expected-error @+1 {{no function has a dynamic size named 'tokens'}}
module {
  func.func @static(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
    return %x : tensor<4x8xf16>
  }
}
