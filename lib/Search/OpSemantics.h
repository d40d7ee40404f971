//===- OpSemantics.h - What a search op computes and costs ------*- C++ -*-===//
//
// Private to lib/Search. The rules of every search op in one place, for the
// kernel and block levels alike and for the target as for candidates: its
// result dims and abstract term (applyOp), and the cost model's view of it
// (costOpOf).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_OPSEMANTICS_H
#define MIRAGE_LIB_SEARCH_OPSEMANTICS_H

#include "SearchIR.h"

#include "Mirage/Search/KernelCost.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mirage::search::detail {

/// The loop context of a block graph: representative range and walked axis.
struct LoopCtx {
  int64_t forloop = 1;
  uint32_t axis = 0;
};

/// Applies `kind` to `args`: result dims (labels) and term, or nullopt when
/// the op is not legal on these operands. `size` gives the size of a label
/// at this level.
std::optional<SValue> applyOp(TermBuilder &tb, Kind kind, const Params &p,
                              llvm::ArrayRef<const SValue *> args,
                              llvm::function_ref<int64_t(uint32_t)> size,
                              const LoopCtx &loop);

/// The cost model's view of a search op on values of the given shapes.
CostOp costOpOf(Kind kind, llvm::ArrayRef<int64_t> resultShape,
                llvm::ArrayRef<llvm::ArrayRef<int64_t>> argShapes, bool inLoop);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_OPSEMANTICS_H
