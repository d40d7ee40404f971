//===- InputGuard.h - Reject input the upstream parser aborts on -*- C++ -*-===//
//
// The upstream MLIR parser sizes its table of an SSA name by the largest
// result number it sees (`%y#N` makes `entries.resize(N + 1)` in
// OperationParser::resolveSSAUse and addDefinition, mlir/lib/AsmParser/
// Parser.cpp), so `return %y#2147483648` allocates tens of GiB and aborts
// with "out of memory" instead of diagnosing. mirage-opt and mirage-fuzz
// reject such result numbers before the parser sees them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_INPUTGUARD_H
#define MIRAGE_TOOLS_INPUTGUARD_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mirage {

/// The largest result number `%name#N` that input may use (an op with more
/// results than this is far outside what any dialect here produces).
constexpr uint64_t kMaxResultNumber = (uint64_t(1) << 20) - 1;

/// A result number in the input beyond kMaxResultNumber.
struct AbsurdResultNumber {
  /// Byte offset of the `%` of the use.
  size_t offset = 0;
  /// Diagnostic text (without location).
  std::string message;
};

/// Scans `text` for SSA uses `%name#N` with N > kMaxResultNumber, outside
/// comments and string literals; returns the first one.
std::optional<AbsurdResultNumber> findAbsurdResultNumber(llvm::StringRef text);

} // namespace mirage

#endif // MIRAGE_TOOLS_INPUTGUARD_H
