// RUN: mirage-opt %s --mirage-specialize-sizes="sizes=tokens=100,s0=3,s1=5" | FileCheck %s
// RUN: mirage-opt %s --mirage-specialize-sizes="sizes=tokens=100,s0=3,s1=5" --mirage-check-equivalence 2>&1 | FileCheck %s --check-prefix=CHECKED

// Every dynamic dim takes the value of its size: the ops relate the dims
// (the matmul's rows are the rms_norm's, which are x's) so one value sets
// them all, the `mk.sizes` facts are dropped, and the function type follows.
// CHECK-LABEL: func.func @rmsnorm_matmul(
// CHECK-SAME:    %{{.*}}: tensor<100x64xf16>, %{{.*}}: tensor<64x32xf16>) -> tensor<100x2x16xf16>
// CHECK-NOT:   mk.sizes
// CHECK:       mk.rms_norm %{{.*}} eps = {{.*}} : tensor<100x64xf16>
// CHECK:       mk.matmul %{{.*}}, %{{.*}} : tensor<100x64xf16>, tensor<64x32xf16> -> tensor<100x32xf16>
// CHECK:       mk.reshape %{{.*}} : tensor<100x32xf16> -> tensor<100x2x16xf16>
// CHECK:       return %{{.*}} : tensor<100x2x16xf16>
func.func @rmsnorm_matmul(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096, divisor = 4>]},
                          %w: tensor<64x32xf16>) -> tensor<?x2x16xf16> attributes {mk.reference = @static_ref} {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x64xf16>
  %o = mk.matmul %n, %w : tensor<?x64xf16>, tensor<64x32xf16> -> tensor<?x32xf16>
  %r = mk.reshape %o : tensor<?x32xf16> -> tensor<?x2x16xf16>
  return %r : tensor<?x2x16xf16>
}

// Unnamed sizes are s0, s1, ... by order of appearance over the arguments;
// a dim of a later argument that an op relates to an earlier one shares its
// size (y's dim 0 is x's dim 1 through the transpose).
// CHECK-LABEL: func.func @unnamed(
// CHECK-SAME:    %{{.*}}: tensor<3x5xf32>, %{{.*}}: tensor<5x3xf32>) -> tensor<5x3xf32>
func.func @unnamed(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = mk.transpose %x perm = [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %s = mk.add %t, %y : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// A static function is left as it is.
// CHECK-LABEL: func.func @static_ref(
// CHECK-SAME:    tensor<100x64xf16>
func.func @static_ref(%x: tensor<100x64xf16>, %w: tensor<64x32xf16>) -> tensor<100x2x16xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<100x64xf16>
  %o = mk.matmul %n, %w : tensor<100x64xf16>, tensor<64x32xf16> -> tensor<100x32xf16>
  %r = mk.reshape %o : tensor<100x32xf16> -> tensor<100x2x16xf16>
  return %r : tensor<100x2x16xf16>
}

// The specialised function is an ordinary static program: the equivalence
// check runs on it.
// CHECKED: remark: equivalent to @static_ref
