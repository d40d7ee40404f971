// RUN: mirage-opt %s --mirage-wrap-kernels | FileCheck %s
// RUN: mirage-opt %s --mirage-wrap-kernels --mirage-specialize-sizes="sizes=tokens=100" | FileCheck %s --check-prefix=AT100
// RUN: mirage-opt %s --mirage-wrap-kernels --mirage-specialize-sizes="sizes=tokens=100" --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// Dynamic mk ops wrap into dynamic graph-defined kernels ([K19],
// docs/dynamic.md): a dynamic dim gets a '?' grid dim with the tile a dim of
// unbounded size would get (a row op's rows one per block, a matmul's rows
// in tiles of max-tile), on x, whose limit is the largest. Specialised, the
// kernels have ceil(size / tile) blocks there, with a tail tile where the
// tile does not divide the size, and compute what the unwrapped program
// computes.

// CHECK-LABEL: func.func @rmsnorm_matmul(
// CHECK:       mk.graph_kernel(%{{.*}}) grid = [?, 1, 1]
// CHECK:       mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = -1 : tensor<?x64xf16> -> tensor<1x64xf16>
// CHECK:       mb.rms_norm
// CHECK:       mb.output_saver %{{.*}} omap = [0, -1, -1] : tensor<1x64xf16> -> tensor<?x64xf16>
// CHECK:       mk.graph_kernel(%{{.*}}, %{{.*}}) grid = [?, {{[0-9]+}}, 1]
// CHECK:       mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = 1 : tensor<?x64xf16> -> tensor<[[ROWS:[0-9]+]]x64xf16>
// CHECK:       mb.matmul
// CHECK:       mb.output_saver %{{.*}} omap = [0, 1, -1] : tensor<[[ROWS]]x{{[0-9]+}}xf16> -> tensor<?x48xf16>
// CHECK:       mk.graph_kernel(%{{.*}}) grid = [?, {{[0-9]+}}, 1]
// CHECK:       mb.silu

// AT100-LABEL: func.func @rmsnorm_matmul(
// AT100-SAME:    tensor<100x64xf16>
// AT100:       mk.graph_kernel(%{{.*}}) grid = [100, 1, 1]
// AT100:       mk.graph_kernel(%{{.*}}, %{{.*}}) grid = [{{[0-9]+}}, {{[0-9]+}}, 1]

// EQUIV: remark: equivalent to @rmsnorm_matmul_ref

func.func @rmsnorm_matmul_ref(%x: tensor<100x64xf16>, %w: tensor<64x48xf16>) -> tensor<100x48xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<100x64xf16>
  %o = mk.matmul %n, %w : tensor<100x64xf16>, tensor<64x48xf16> -> tensor<100x48xf16>
  %s = mk.silu %o : tensor<100x48xf16>
  return %s : tensor<100x48xf16>
}

func.func @rmsnorm_matmul(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                          %w: tensor<64x48xf16>) -> tensor<?x48xf16> attributes {mk.reference = @rmsnorm_matmul_ref} {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x64xf16>
  %o = mk.matmul %n, %w : tensor<?x64xf16>, tensor<64x48xf16> -> tensor<?x48xf16>
  %s = mk.silu %o : tensor<?x48xf16>
  return %s : tensor<?x48xf16>
}
