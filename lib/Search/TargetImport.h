//===- TargetImport.h - The function to superoptimize -----------*- C++ -*-===//
//
// Private to lib/Search. Checks that the search supports a function of mk ops
// and imports it into the search IR with the same op rules as candidates
// (OpSemantics.h): its axes and extents, its outputs and their e-classes in
// the saturated oracle, the constants and kinds candidates may use, and the
// device of the cost model.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_TARGETIMPORT_H
#define MIRAGE_LIB_SEARCH_TARGETIMPORT_H

#include "SearchIR.h"

#include "Mirage/Search/Superoptimizer.h"

#include <string>

namespace mirage::search::detail {

/// What every searched function (whole or partitioned) must have: a body of
/// one block, and a chip the cost model knows, whose device is returned;
/// fails with `error`.
mlir::FailureOr<DeviceModel> checkSearchable(mlir::func::FuncOp func,
                                             llvm::StringRef chip,
                                             std::string &error);

/// Whether the search takes `op` (a pre-defined mk op with an op rule).
/// The partitioned search leaves any other op as it is, on its own.
bool isSearchableOp(mlir::Operation *op);

/// Builds the target description; fails with `error` on unsupported input.
mlir::LogicalResult importTarget(mlir::func::FuncOp func,
                                 const SuperoptimizeOptions &options, Target &t,
                                 std::string &error);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_TARGETIMPORT_H
