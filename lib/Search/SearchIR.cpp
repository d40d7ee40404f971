//===- SearchIR.cpp - The search's own small IR -----------------*- C++ -*-===//
//
// Names of the search's ops and the shapes of its values (SearchIR.h).
//
//===----------------------------------------------------------------------===//

#include "SearchIR.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace mirage::search::detail {

const char *kindName(Kind k) {
  static const char *names[] = {"exp",
                                "square",
                                "sqrt",
                                "rsqrt",
                                "silu",
                                "gelu",
                                "relu",
                                "sigmoid",
                                "neg",
                                "mul_scalar",
                                "add_scalar",
                                "clamp",
                                "reciprocal",
                                "tanh",
                                "gelu_erf",
                                "add",
                                "sub",
                                "mul",
                                "div",
                                "pow",
                                "max",
                                "where",
                                "matmul",
                                "reduce_sum",
                                "reduce_max",
                                "rms_norm",
                                "band_mask",
                                "accum_sum",
                                "accum_sum_last",
                                "accum_mean_last",
                                "accum_rms_last",
                                "accum_max",
                                "accum_rescaled_sum"};
  return names[static_cast<unsigned>(k)];
}

bool isEpilogueInput(const SKernel &k, int b) {
  if (b < 0 || b >= static_cast<int>(k.inputs.size()))
    return false;
  return llvm::any_of(
      llvm::drop_begin(k.ops, k.numBody + k.numAcc),
      [&](const SOp &op) { return llvm::is_contained(op.args, b); });
}

int64_t splitOf(const SKernel &k, uint32_t label) {
  if (label && label == k.loopAxis)
    return k.forloop;
  for (auto [axis, g] : k.grid)
    if (axis == label)
      return g;
  return 1;
}

SmallVector<int64_t, 4> kernelShape(const SValue &v, const Scale &scale) {
  SmallVector<int64_t, 4> shape;
  for (uint32_t l : v.labels)
    shape.push_back(l ? scale.lookup(l) : 1);
  return shape;
}

SmallVector<int64_t, 4> blockShape(const SKernel &k, const SValue &v,
                                   const Scale &scale) {
  SmallVector<int64_t, 4> shape;
  for (uint32_t l : v.labels)
    shape.push_back(l ? scale.lookup(l) / splitOf(k, l) : 1);
  return shape;
}

SmallVector<int64_t> divisorsAbove1(int64_t n) {
  SmallVector<int64_t> out;
  for (int64_t d = 2; d <= n; ++d)
    if (n % d == 0)
      out.push_back(d);
  return out;
}

} // namespace mirage::search::detail
