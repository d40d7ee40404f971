//===- InputGuard.cpp - Reject input the upstream parser aborts on --------===//
//
// See InputGuard.h.
//
//===----------------------------------------------------------------------===//

#include "InputGuard.h"

#include "llvm/ADT/StringExtras.h"

using namespace mirage;

static bool isSuffixIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

std::optional<AbsurdResultNumber>
mirage::findAbsurdResultNumber(llvm::StringRef text) {
  size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n')
        ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < n && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c != '%')
      continue;
    size_t start = i;
    size_t j = i + 1;
    while (j < n && isSuffixIdChar(text[j]))
      ++j;
    if (j == i + 1 || j >= n || text[j] != '#') {
      i = j - 1;
      continue;
    }
    size_t k = j + 1;
    while (k < n && llvm::isDigit(text[k]))
      ++k;
    llvm::StringRef digits = text.slice(j + 1, k);
    // Leading zeros do not make a number large; count significant digits.
    llvm::StringRef significant = digits.ltrim('0');
    uint64_t value = 0;
    bool tooLarge = significant.size() > 12 ||
                    (!significant.empty() &&
                     (significant.getAsInteger(10, value) ||
                      value > kMaxResultNumber));
    if (tooLarge)
      return AbsurdResultNumber{
          start, "result number " + digits.str() + " of '" +
                     text.slice(start, j).str() +
                     "' is too large (at most " +
                     std::to_string(kMaxResultNumber) + ")"};
    i = k - 1;
  }
  return std::nullopt;
}
