//===- Mutator.cpp - Structure-aware mutations of Mirage IR ---------------===//
//
// See Mutator.h. Every mutation works on the text with regular expressions
// over the few token classes our dialects use; it picks one match at random
// and rewrites it.
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <regex>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

using namespace mirage::fuzz;

namespace {

std::vector<std::string> mkOps, mbOps, mtOps;

using Rng = std::mt19937;

size_t pick(Rng &rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

template <typename T> const T &pickOf(Rng &rng, const std::vector<T> &v) {
  return v[pick(rng, v.size())];
}

/// Replaces one random match of `re` (group `group`) by `make(match)`.
/// False if `re` does not match.
template <typename Fn>
bool replaceOne(std::string &text, const std::regex &re, Rng &rng, Fn make,
                int group = 0) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
       it != std::sregex_iterator(); ++it) {
    spans.emplace_back(it->position(group), it->length(group));
    if (spans.size() > 4096)
      break;
  }
  if (spans.empty())
    return false;
  auto [pos, len] = spans[pick(rng, spans.size())];
  text.replace(pos, len, make(text.substr(pos, len)));
  return true;
}

/// Integers that stress divisibility, bounds and overflow.
std::string interestingInt(Rng &rng, const std::string &old) {
  static const std::vector<std::string> values = {
      "0", "1", "2", "3", "4", "7", "8", "16", "31", "32", "64", "96", "128",
      "256", "1000", "1024", "4096", "6144", "65535", "65536", "2147483647",
      "2147483648", "4294967296", "9223372036854775807", "-1", "-2"};
  switch (pick(rng, 4)) {
  case 0: {
    long long v = std::atoll(old.c_str());
    return std::to_string(pick(rng, 2) ? v * 2 : v / 2 + (v % 2));
  }
  case 1: {
    long long v = std::atoll(old.c_str());
    return std::to_string(v + (pick(rng, 2) ? 1 : -1));
  }
  default:
    return pickOf(rng, values);
  }
}

std::string interestingFloat(Rng &rng) {
  static const std::vector<std::string> values = {
      "0.0", "-0.0", "1.0", "-1.0", "0.5", "2.0", "1.0e-06", "1.0e-30",
      "1.0e+30", "3.4028235e+38", "1.0e+300", "0x7FC00000", "0x7F800000",
      "0xFF800000", "6.5504e+04", "0.015625", "0.125", "1.0e-45"};
  return pickOf(rng, values);
}

const std::regex &reInt() {
  static const std::regex re("-?\\b[0-9]+\\b(?![.e])");
  return re;
}
const std::regex &reShape() {
  static const std::regex re("tensor<([0-9x]*)(f16|bf16|f32|f64|i32|i1)>");
  return re;
}
const std::regex &reElem() {
  static const std::regex re("\\b(f16|bf16|f32|f64|i32|i1|index)\\b");
  return re;
}
const std::regex &reOp() {
  static const std::regex re("\\b(mk|mb|mt)\\.[a-z_]+\\b");
  return re;
}
const std::regex &reFloat() {
  static const std::regex re("-?[0-9]+\\.[0-9]*(e[-+]?[0-9]+)?");
  return re;
}
const std::regex &reList() {
  static const std::regex re(
      "(imap|omap|grid|block|perm|dims)\\s*=\\s*\\[([-0-9, ]*)\\]");
  return re;
}
const std::regex &reKeyword() {
  static const std::regex re("\\b(forloop|fmap|dim|dimx)\\s*=\\s*(-?[0-9]+)");
  return re;
}
const std::regex &reSsa() {
  static const std::regex re("%[A-Za-z0-9_]+(#[0-9]+)?");
  return re;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

std::string join(const std::vector<std::string> &v, const std::string &sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i)
    out += (i ? sep : "") + v[i];
  return out;
}

/// Rewrites the dims of a `tensor<AxBx...T>`: change, drop, add or swap one.
std::string mutateShape(Rng &rng, const std::string &dims) {
  std::vector<std::string> d = split(dims, 'x');
  if (!d.empty() && d.back().empty())
    d.pop_back();
  switch (pick(rng, 4)) {
  case 0:
    if (!d.empty()) {
      std::string &x = d[pick(rng, d.size())];
      x = interestingInt(rng, x);
      if (!x.empty() && x[0] == '-')
        x = "0";
    }
    break;
  case 1:
    if (!d.empty())
      d.erase(d.begin() + pick(rng, d.size()));
    break;
  case 2:
    d.insert(d.begin() + pick(rng, d.size() + 1), pick(rng, 2) ? "1" : "2");
    break;
  default:
    if (d.size() > 1)
      std::swap(d[pick(rng, d.size())], d[pick(rng, d.size())]);
  }
  std::string out;
  for (const std::string &x : d)
    out += x + "x";
  return out;
}

std::string mutateList(Rng &rng, const std::string &items) {
  std::vector<std::string> v = split(items, ',');
  for (std::string &x : v)
    x.erase(std::remove(x.begin(), x.end(), ' '), x.end());
  if (v.size() == 1 && v[0].empty())
    v.clear();
  static const std::vector<std::string> small = {"-1", "0", "1", "2", "3",
                                                 "4", "-2", "64", "1024"};
  switch (pick(rng, 3)) {
  case 0:
    if (!v.empty())
      v[pick(rng, v.size())] = pickOf(rng, small);
    break;
  case 1:
    if (!v.empty())
      v.erase(v.begin() + pick(rng, v.size()));
    break;
  default:
    v.insert(v.begin() + pick(rng, v.size() + 1), pickOf(rng, small));
  }
  return join(v, ", ");
}

bool mutateLines(std::string &text, Rng &rng) {
  std::vector<std::string> lines = split(text, '\n');
  if (lines.size() < 2)
    return false;
  size_t a = pick(rng, lines.size()), b = pick(rng, lines.size());
  switch (pick(rng, 3)) {
  case 0:
    lines.erase(lines.begin() + a);
    break;
  case 1:
    lines.insert(lines.begin() + b, lines[a]);
    break;
  default:
    std::swap(lines[a], lines[b]);
  }
  text = join(lines, "\n");
  return true;
}

bool mutateOnce(std::string &text, Rng &rng) {
  switch (pick(rng, 10)) {
  case 0:
    return replaceOne(text, reInt(), rng,
                      [&](const std::string &s) { return interestingInt(rng, s); });
  case 1:
    return replaceOne(
        text, reShape(), rng,
        [&](const std::string &s) { return mutateShape(rng, s); }, 1);
  case 2: {
    static const std::vector<std::string> types = {"f16", "bf16", "f32",
                                                   "f64", "i32", "i1"};
    return replaceOne(text, reElem(), rng,
                      [&](const std::string &) { return pickOf(rng, types); });
  }
  case 3:
    return replaceOne(text, reOp(), rng, [&](const std::string &s) {
      const std::vector<std::string> &names =
          s.compare(0, 3, "mk.") == 0   ? mkOps
          : s.compare(0, 3, "mb.") == 0 ? mbOps
                                        : mtOps;
      return names.empty() ? s : pickOf(rng, names);
    });
  case 4:
    return replaceOne(text, reFloat(), rng,
                      [&](const std::string &) { return interestingFloat(rng); });
  case 5:
    return replaceOne(
        text, reList(), rng,
        [&](const std::string &s) { return mutateList(rng, s); }, 2);
  case 6:
    return replaceOne(
        text, reKeyword(), rng,
        [&](const std::string &s) { return interestingInt(rng, s); }, 2);
  case 7: {
    // Replace one SSA use by another name of the text (or a result index).
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), reSsa());
         it != std::sregex_iterator() && names.size() < 256; ++it)
      names.push_back(it->str());
    if (names.size() < 2)
      return false;
    return replaceOne(text, reSsa(), rng, [&](const std::string &) {
      std::string n = pickOf(rng, names);
      if (pick(rng, 4) == 0)
        n = n.substr(0, n.find('#')) + "#" + std::to_string(pick(rng, 4));
      return n;
    });
  }
  default:
    return mutateLines(text, rng);
  }
}

} // namespace

void mirage::fuzz::initMutator(mlir::MLIRContext &ctx) {
  for (const char *ns : {"mk", "mb", "mt"})
    (void)ctx.getOrLoadDialect(ns);
  for (mlir::RegisteredOperationName op : ctx.getRegisteredOperations()) {
    std::string name = op.getStringRef().str();
    if (name.compare(0, 3, "mk.") == 0)
      mkOps.push_back(name);
    else if (name.compare(0, 3, "mb.") == 0)
      mbOps.push_back(name);
    else if (name.compare(0, 3, "mt.") == 0)
      mtOps.push_back(name);
  }
}

std::string mirage::fuzz::mutateText(const std::string &text, unsigned seed) {
  Rng rng(seed);
  std::string out = text;
  // One to three structural mutations; retry when a class has no match.
  unsigned want = 1 + pick(rng, 3), done = 0;
  for (unsigned tries = 0; done < want && tries < 16; ++tries)
    done += mutateOnce(out, rng);
  return out;
}

size_t mirage::fuzz::mutate(uint8_t *data, size_t size, size_t maxSize,
                            unsigned seed) {
  Rng rng(seed);
  // A fifth of the mutations are libFuzzer's own byte-level ones.
  if (pick(rng, 5) == 0 || size == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text = mutateText(
      std::string(reinterpret_cast<const char *>(data), size), rng());
  if (text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

size_t mirage::fuzz::crossOver(const uint8_t *data1, size_t size1,
                               const uint8_t *data2, size_t size2, uint8_t *out,
                               size_t maxOutSize, unsigned seed) {
  Rng rng(seed);
  std::vector<std::string> a =
      split(std::string(reinterpret_cast<const char *>(data1), size1), '\n');
  std::vector<std::string> b =
      split(std::string(reinterpret_cast<const char *>(data2), size2), '\n');
  size_t from = pick(rng, b.size()), len = 1 + pick(rng, 4);
  size_t at = pick(rng, a.size() + 1);
  std::vector<std::string> spliced(a.begin(), a.begin() + at);
  for (size_t i = from; i < std::min(b.size(), from + len); ++i)
    spliced.push_back(b[i]);
  spliced.insert(spliced.end(), a.begin() + at, a.end());
  std::string text = join(spliced, "\n");
  size_t n = std::min(text.size(), maxOutSize);
  std::memcpy(out, text.data(), n);
  return n;
}
