//===- Mutator.h - Structure-aware mutations of Mirage IR -------*- C++ -*-===//
//
// Mutations of MLIR text that keep it close to valid for the mk/mb/mt
// dialects: shapes, imap/fmap/omap and grid lists, forloop ranges, op names,
// element types, float constants, SSA uses and whole lines. A share of the
// mutations is left to libFuzzer's byte-level mutator.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_FUZZ_MUTATOR_H
#define MIRAGE_TOOLS_FUZZ_MUTATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mirage::fuzz {

/// Collects the op names of the mk, mb and mt dialects from `ctx`.
void initMutator(mlir::MLIRContext &ctx);

/// One structure-aware mutation of `text` (deterministic in `seed`).
std::string mutateText(const std::string &text, unsigned seed);

/// LLVMFuzzerCustomMutator: mutates data[0, size) in place, returns the new
/// size (at most maxSize).
size_t mutate(uint8_t *data, size_t size, size_t maxSize, unsigned seed);

/// LLVMFuzzerCustomCrossOver: a line range of the second input spliced into
/// the first.
size_t crossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                 size_t size2, uint8_t *out, size_t maxOutSize, unsigned seed);

} // namespace mirage::fuzz

#endif // MIRAGE_TOOLS_FUZZ_MUTATOR_H
