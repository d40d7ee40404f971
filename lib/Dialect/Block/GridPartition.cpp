//===- GridPartition.cpp - Blocks that do not combine along a grid dim ----===//
//
// Whether the blocks along a grid dim compute independent slices: no op of
// the block graph combines elements along the dim the grid dim partitions
// (DimWalk.h), so a block's slice of each output depends on the same slice
// of the inputs alone, and the program along that dim is the same function
// of each block's rows whatever the number of blocks.
//
//===----------------------------------------------------------------------===//

#include "DimWalk.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::mb;
using namespace mirage::mb::detail;

LogicalResult mb::checkBlocksIndependent(GraphKernelOpInterface kernel,
                                         int64_t g, std::string &why) {
  auto seed = [&](InputIterOp it) {
    return Tracked{it.getImap()[g], Pad::Unknown};
  };
  auto combines = [&](Operation *op, const Twine &how) {
    why = ("'" + op->getName().getStringRef() + "' " + how).str();
    return failure();
  };
  auto need = [&](OpOperand &operand, int64_t dim, Pad) {
    return combines(operand.getOwner(),
                    "combines the elements of dim " + Twine(dim) +
                        " of operand #" + Twine(operand.getOperandNumber()) +
                        ", which grid dim " + Twine(g) + " partitions");
  };
  return DimWalk(DimWalk::Mode::GridPartition, seed, need, combines, g)
      .run(kernel->getRegion(0).front());
}
