//===- SearchTestSupport.h - Shared set-up of the search tests --*- C++ -*-===//
//
// The dialects every test of unittests/Search parses and builds: mk, mb, mt
// and func, registered and loaded in a test's context.
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

} // namespace mirage::search

#endif // MIRAGE_UNITTESTS_SEARCH_SEARCHTESTSUPPORT_H
