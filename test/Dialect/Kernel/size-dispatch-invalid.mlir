// RUN: mirage-opt %s -split-input-file -verify-diagnostics

// [K20] Malformed mk.size_dispatch attributes (docs/constraints/mk.md).

// expected-error @+1 {{[K20] 'mk.size_dispatch' must be a dictionary on a function}}
func.func @K20_not_a_dictionary(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {mk.size_dispatch = "rows"} {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{[K20] 'mk.size_dispatch' must hold exactly size (a string), bounds (array<i64>) and programs (an array of function symbols)}}
func.func @K20_missing_bounds(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {mk.size_dispatch = {size = "rows", programs = [@K20_missing_bounds]}} {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{[K20] 'mk.size_dispatch' bounds must be positive and ascending}}
func.func @K20_bounds_descending(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {mk.size_dispatch = {size = "rows", bounds = array<i64: 16, 8>, programs = [@K20_bounds_descending, @K20_bounds_descending, @K20_bounds_descending]}} {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{[K20] 'mk.size_dispatch' must have one program more than bounds}}
func.func @K20_program_count(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {mk.size_dispatch = {size = "rows", bounds = array<i64: 16>, programs = [@K20_program_count]}} {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{[K20] 'mk.size_dispatch' program other is not a function of the same type}}
func.func @K20_program_type(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {mk.size_dispatch = {size = "rows", bounds = array<i64: 16>, programs = [@K20_program_type, @other]}} {
  return %x : tensor<?x8xf32>
}
func.func private @other(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{[K20] 'mk.size_dispatch' program missing is not a function of the same type}}
func.func @K20_program_missing(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {mk.size_dispatch = {size = "rows", bounds = array<i64: 16>, programs = [@K20_program_missing, @missing]}} {
  return %x : tensor<?x8xf32>
}
