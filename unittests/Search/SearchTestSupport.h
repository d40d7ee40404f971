//===- SearchTestSupport.h - Shared set-up of the search tests --*- C++ -*-===//
//
// The dialects every test of unittests/Search parses and builds (mk, mb, mt
// and func, registered and loaded in a test's context), and small programs
// several of them search.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_UNITTESTS_SEARCH_SEARCHTESTSUPPORT_H
#define MIRAGE_UNITTESTS_SEARCH_SEARCHTESTSUPPORT_H

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

namespace mirage::search {

inline void loadSearchDialects(mlir::MLIRContext &ctx) {
  mlir::DialectRegistry registry;
  registry.insert<mk::MKDialect, mb::MBDialect, mt::MTDialect,
                  mlir::func::FuncDialect>();
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
}

/// rms_norm then a matmul, and a gated MLP, at small shapes: each is one
/// graph-defined kernel for the search.
constexpr const char *kSmallRmsNormMatmul = R"mlir(
func.func @f(%x: tensor<2x64xf16>, %w: tensor<64x96xf16>) -> tensor<2x96xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x64xf16>
  %o = mk.matmul %n, %w : tensor<2x64xf16>, tensor<64x96xf16> -> tensor<2x96xf16>
  return %o : tensor<2x96xf16>
}
)mlir";

constexpr const char *kSmallGatedMlp = R"mlir(
func.func @f(%x: tensor<4x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<64x128xf32>) -> tensor<4x128xf32> {
  %a = mk.matmul %x, %w1 : tensor<4x64xf32>, tensor<64x128xf32> -> tensor<4x128xf32>
  %b = mk.matmul %x, %w2 : tensor<4x64xf32>, tensor<64x128xf32> -> tensor<4x128xf32>
  %s = mk.silu %a : tensor<4x128xf32>
  %o = mk.mul %s, %b : tensor<4x128xf32>, tensor<4x128xf32> -> tensor<4x128xf32>
  return %o : tensor<4x128xf32>
}
)mlir";

} // namespace mirage::search

#endif // MIRAGE_UNITTESTS_SEARCH_SEARCHTESTSUPPORT_H
