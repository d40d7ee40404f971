//===- CandidateKey.cpp - A candidate's identity as numbers -----*- C++ -*-===//
//
// Candidate::key, and the candidate read back from a key (SearchIR.h): the
// identity that ranks and deduplicates candidates, and the structure a
// cache entry keeps so that a hit can be rebuilt and re-checked at reduced
// shapes (SearchCache.h).
//
// Every list is written as its length, then its items, so that no two
// different candidates give one sequence. A kernel op is written as its
// kernel's content, so kernels are read back in the order of their ops.
//
//===----------------------------------------------------------------------===//

#include "SearchIR.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <cstdint>

using namespace mlir;

namespace mirage::search::detail {

namespace {

struct KeyWriter {
  SmallVectorImpl<int64_t> &out;

  void operator()(int64_t v) { out.push_back(v); }
  void operator()(double v) { out.push_back(llvm::bit_cast<int64_t>(v)); }
  void operator()(std::optional<int64_t> v) {
    out.push_back(v.has_value());
    if (v)
      out.push_back(*v);
  }
  template <typename Range> void list(const Range &items) {
    out.push_back(static_cast<int64_t>(llvm::size(items)));
    for (const auto &item : items)
      (*this)(static_cast<int64_t>(item));
  }
  void values(ArrayRef<SValue> vals) {
    out.push_back(static_cast<int64_t>(vals.size()));
    for (const SValue &v : vals) {
      list(v.labels);
      (*this)(static_cast<int64_t>(v.variant) | (int64_t(v.after) << 1));
    }
  }
  void op(const SOp &op) {
    (*this)(static_cast<int64_t>(op.kind));
    (*this)(op.params.a);
    (*this)(op.params.b);
    (*this)(op.params.dim);
    (*this)(op.params.maskDims[0]);
    (*this)(op.params.maskDims[1]);
    (*this)(op.params.lower);
    (*this)(op.params.upper);
    (*this)(static_cast<int64_t>(op.params.additive));
    list(op.args);
    (*this)(static_cast<int64_t>(op.result));
  }
  void kernel(const SKernel &k) {
    list(k.inputs);
    (*this)(static_cast<int64_t>(k.loopAxis));
    list(k.gridAxes);
    values(k.vals);
    (*this)(static_cast<int64_t>(k.ops.size()));
    for (const SOp &o : k.ops)
      op(o);
    (*this)(static_cast<int64_t>(k.numBody));
    (*this)(static_cast<int64_t>(k.numAcc));
    list(k.outputs);
    list(k.results);
    (*this)(k.forloop);
    (*this)(static_cast<int64_t>(k.grid.size()));
    for (auto [axis, size] : k.grid) {
      (*this)(static_cast<int64_t>(axis));
      (*this)(size);
    }
    (*this)(k.threads);
  }
};

/// Reads what KeyWriter wrote, checking every number against what the
/// builders index with it; the first problem stops the reading.
class KeyReader {
public:
  KeyReader(ArrayRef<int64_t> key, const Target &target)
      : rest(key), target(target) {}

  std::string error;
  bool ok() const { return error.empty(); }
  bool atEnd() const { return rest.empty(); }

  int64_t next() {
    if (!ok())
      return 0;
    if (rest.empty()) {
      fail("it ends early");
      return 0;
    }
    int64_t v = rest.front();
    rest = rest.drop_front();
    return v;
  }
  /// A number in [lo, hi).
  int64_t inRange(int64_t lo, int64_t hi, const char *what) {
    int64_t v = next();
    if (ok() && (v < lo || v >= hi))
      fail(std::string(what) + " out of range");
    return ok() ? v : lo;
  }
  /// A list length: at most what is left.
  size_t length() {
    return static_cast<size_t>(
        inRange(0, static_cast<int64_t>(rest.size()) + 1, "a length"));
  }
  double real() { return llvm::bit_cast<double>(next()); }
  std::optional<int64_t> optional() {
    if (!inRange(0, 2, "a flag"))
      return std::nullopt;
    return next();
  }
  template <typename T>
  void list(SmallVectorImpl<T> &items, int64_t lo, int64_t hi,
            const char *what) {
    size_t n = length();
    for (size_t i = 0; i < n && ok(); ++i)
      items.push_back(static_cast<T>(inRange(lo, hi, what)));
  }
  /// Labels of the target's axes (0: a dim of size 1).
  uint32_t label() {
    int64_t l = inRange(0, UINT32_MAX, "a label");
    if (ok() && l && !target.extent.count(static_cast<uint32_t>(l)))
      fail("a label of no axis");
    return static_cast<uint32_t>(l);
  }
  void values(SmallVectorImpl<SValue> &vals) {
    size_t n = length();
    for (size_t i = 0; i < n && ok(); ++i) {
      SValue v;
      size_t rank = length();
      if (rank > 8)
        fail("a rank above 8");
      for (size_t d = 0; d < rank && ok(); ++d)
        v.labels.push_back(label());
      int64_t flags = inRange(0, 4, "value flags");
      v.variant = flags & 1;
      v.after = flags & 2;
      vals.push_back(std::move(v));
    }
  }
  /// An op over `numValues` values, whose operands are defined before it
  /// (`defined`) and whose result is not; marks the result defined.
  void op(SOp &op, std::vector<bool> &defined) {
    op.kind = static_cast<Kind>(inRange(0, kNumKinds, "an op kind"));
    op.params.a = real();
    op.params.b = real();
    op.params.dim = inRange(0, 8, "a dim");
    op.params.maskDims[0] = inRange(-1, 8, "a mask dim");
    op.params.maskDims[1] = inRange(-1, 8, "a mask dim");
    op.params.lower = optional();
    op.params.upper = optional();
    op.params.additive = inRange(0, 2, "a flag");
    int64_t numValues = static_cast<int64_t>(defined.size());
    list(op.args, 0, numValues, "an operand");
    if (op.args.size() != (takesTwoOperands(op.kind) ? 2u : 1u))
      fail("an op with the wrong number of operands");
    for (int a : op.args)
      if (ok() && !defined[a])
        fail("an operand used before it is defined");
    op.result = static_cast<int>(inRange(0, numValues, "a result"));
    if (ok() && defined[op.result])
      fail("a value defined twice");
    if (ok())
      defined[op.result] = true;
  }
  void kernel(SKernel &k, const SProgram &prog, std::vector<bool> &defined) {
    int64_t numValues = static_cast<int64_t>(prog.vals.size());
    list(k.inputs, 0, numValues, "a kernel input");
    for (int in : k.inputs)
      if (ok() && !defined[in])
        fail("a kernel input used before it is defined");
    k.loopAxis = label();
    size_t numGridAxes = length();
    for (size_t i = 0; i < numGridAxes && ok(); ++i)
      k.gridAxes.push_back(label());
    values(k.vals);
    if (ok() && k.vals.size() < k.inputs.size())
      fail("a kernel with fewer values than inputs");
    std::vector<bool> inner(k.vals.size(), false);
    for (size_t i = 0; i < k.inputs.size() && ok(); ++i)
      inner[i] = true;
    size_t numOps = length();
    for (size_t i = 0; i < numOps && ok(); ++i) {
      SOp o;
      op(o, inner);
      k.ops.push_back(std::move(o));
    }
    k.numBody = static_cast<unsigned>(
        inRange(0, static_cast<int64_t>(k.ops.size()) + 1, "a body size"));
    k.numAcc = static_cast<unsigned>(inRange(
        0, static_cast<int64_t>(k.ops.size() - k.numBody) + 1, "accumulators"));
    // An input read after the loop is loaded there only (isEpilogueInput).
    for (int in = 0; in < static_cast<int>(k.inputs.size()) && ok(); ++in)
      if (isEpilogueInput(k, in) &&
          llvm::any_of(
              ArrayRef(k.ops).take_front(k.numBody + k.numAcc),
              [&](const SOp &o) { return llvm::is_contained(o.args, in); }))
        fail("an input read both in the loop and after it");
    list(k.outputs, 0, static_cast<int64_t>(k.vals.size()), "a kernel output");
    for (int o : k.outputs)
      if (ok() && !inner[o])
        fail("a kernel output that is not defined");
    list(k.results, 0, numValues, "a kernel result");
    if (ok() && (k.results.size() != k.outputs.size() || k.results.empty()))
      fail("a kernel whose results are not its outputs");
    for (int r : k.results) {
      if (ok() && defined[r])
        fail("a value defined twice");
      if (ok())
        defined[r] = true;
    }
    k.forloop = inRange(1, INT32_MAX, "a loop range");
    size_t gridDims = length();
    if (gridDims > 3)
      fail("a grid of more than 3 dims");
    for (size_t i = 0; i < gridDims && ok(); ++i) {
      uint32_t axis = label();
      k.grid.emplace_back(axis, inRange(1, INT32_MAX, "a grid size"));
    }
    k.threads = inRange(1, 1025, "a thread count");
    // Every split must divide its axis, as the instantiation chose it.
    for (auto [axis, size] : k.grid)
      if (ok() && (!axis || target.extent.lookup(axis) % size))
        fail("a grid size that does not divide its axis");
    if (ok() && k.forloop > 1 &&
        (!k.loopAxis || target.extent.lookup(k.loopAxis) % k.forloop))
      fail("a loop range that does not divide its axis");
  }

private:
  ArrayRef<int64_t> rest;
  const Target &target;

  void fail(const std::string &message) {
    if (ok())
      error = message;
  }
};

} // namespace

ArrayRef<int64_t> Candidate::key() const {
  if (encoded)
    return *encoded;
  encoded.emplace();
  KeyWriter w{*encoded};
  w.values(prog.vals);
  w(static_cast<int64_t>(prog.ops.size()));
  for (const SKernelOp &kop : prog.ops) {
    w(static_cast<int64_t>(kop.isKernel));
    if (kop.isKernel)
      w.kernel(prog.kernels[kop.kernel]);
    else
      w.op(kop.op);
  }
  w.list(outputs);
  return *encoded;
}

bool sameProgram(const Candidate &a, const Candidate &b) {
  return a.key() == b.key();
}

FailureOr<Candidate> candidateOfKey(ArrayRef<int64_t> key, const Target &target,
                                    std::string &error) {
  Candidate c;
  c.target = &target;
  KeyReader r(key, target);
  r.values(c.prog.vals);
  if (r.ok() && c.prog.vals.size() < target.numInputs)
    error = "fewer values than the target's arguments";
  // The arguments are defined; every other value by one op.
  std::vector<bool> defined(c.prog.vals.size(), false);
  for (unsigned i = 0; i < target.numInputs && i < defined.size(); ++i)
    defined[i] = true;
  size_t numOps = r.length();
  for (size_t i = 0; i < numOps && r.ok() && error.empty(); ++i) {
    SKernelOp kop;
    kop.isKernel = r.inRange(0, 2, "a flag");
    if (kop.isKernel) {
      kop.kernel = static_cast<int>(c.prog.kernels.size());
      c.prog.kernels.emplace_back();
      r.kernel(c.prog.kernels.back(), c.prog, defined);
    } else {
      r.op(kop.op, defined);
    }
    c.prog.ops.push_back(std::move(kop));
  }
  r.list(c.outputs, 0, static_cast<int64_t>(c.prog.vals.size()), "an output");
  for (int o : c.outputs)
    if (r.ok() && !defined[o])
      r.error = "an output that is not defined";
  if (r.ok() && !r.atEnd())
    r.error = "numbers after its end";
  if (error.empty() && !r.ok())
    error = r.error;
  if (!error.empty())
    return failure();
  // Every kernel-level op is a kernel (Instantiation.cpp).
  c.kernels = c.numOps = static_cast<unsigned>(c.prog.ops.size());
  for (const SKernel &k : c.prog.kernels)
    c.numOps += static_cast<unsigned>(k.ops.size());
  return c;
}

} // namespace mirage::search::detail
