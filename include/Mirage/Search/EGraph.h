//===- EGraph.h - A small e-graph with equality saturation ------*- C++ -*-===//
//
// A generic e-graph in the style of egg (Willsey et al., POPL 2021): e-nodes
// are an operator symbol, an integer payload and child e-classes; the graph
// hash-conses e-nodes, keeps e-classes in a union-find with path compression
// and restores congruence lazily in `rebuild()` (egg's deferred rebuild).
// Rewrite rules are patterns with class variables (`?x`) and payload
// variables (`$n`), optional conditions and either a right-hand pattern or a
// C++ applier. `saturate()` runs them to a fixpoint or to a node, iteration
// or wall-time limit and says which one stopped it.
//
// The superoptimizer uses it to hold the equational axioms of abstract
// expressions (AbstractExpr.h), but nothing here knows about tensors: the
// language is given by an `OpTable` of operator names.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_EGRAPH_H
#define MIRAGE_SEARCH_EGRAPH_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mirage::search {

/// Identifier of an e-class. Only `EGraph::find` results are canonical.
using ClassId = uint32_t;
/// Operator symbol of an e-node; its meaning comes from an `OpTable`.
using OpId = uint32_t;

/// An e-node: operator, integer payload (a reduction size, a variable index,
/// the bits of a constant...) and child e-classes. Also the node type of
/// `RecExpr`, where the children are indices of earlier nodes.
struct ENode {
  OpId op = 0;
  int64_t payload = 0;
  llvm::SmallVector<ClassId, 3> children;

  bool operator==(const ENode &o) const {
    return op == o.op && payload == o.payload && children == o.children;
  }
  bool operator<(const ENode &o) const;
};

/// DenseMap traits for e-nodes (empty/tombstone keys use reserved ops).
struct ENodeInfo {
  static ENode getEmptyKey();
  static ENode getTombstoneKey();
  static unsigned getHashValue(const ENode &n);
  static bool isEqual(const ENode &a, const ENode &b) { return a == b; }
};

/// Names of the operators of a term language, for parsing and printing.
class OpTable {
public:
  /// Registers `name` (idempotent) and returns its symbol.
  OpId add(llvm::StringRef name);
  /// The symbol of `name`, if registered.
  std::optional<OpId> lookup(llvm::StringRef name) const;
  /// The name of `op`.
  llvm::StringRef name(OpId op) const { return names[op]; }
  size_t size() const { return names.size(); }

private:
  std::vector<std::string> names;
  llvm::StringMap<OpId> ids;
};

/// A term stored as a DAG: nodes refer to earlier nodes by index, and equal
/// nodes are stored once (hash-consed), so shared subterms cost nothing.
class RecExpr {
public:
  using Id = uint32_t;
  /// Adds a node whose children are ids of this expression.
  Id add(ENode node);
  const ENode &get(Id id) const { return nodes[id]; }
  size_t size() const { return nodes.size(); }
  /// Prints `id` as an s-expression `(op:payload child...)`; the payload is
  /// omitted when zero.
  std::string print(Id id, const OpTable &ops) const;
  /// Parses an s-expression `(op[:payload] child...)` (a leaf may be written
  /// without parentheses) and returns the id of its root.
  llvm::Expected<Id> parse(llvm::StringRef text, const OpTable &ops);

private:
  std::vector<ENode> nodes;
  llvm::DenseMap<ENode, Id, ENodeInfo> memo;
};

class EGraph;

/// E-class analysis: one 64-bit datum per e-class (a bit set, a flag...),
/// computed from each e-node and joined over the nodes of a class. `join`
/// must be commutative, associative and idempotent and `make` monotone, so
/// that the fixpoint `rebuild` computes is well defined.
class EClassAnalysis {
public:
  virtual ~EClassAnalysis();
  /// The datum of `node` given the data of its (canonical) children.
  virtual uint64_t make(const EGraph &egraph, const ENode &node) const = 0;
  /// Combines the data of two equal classes.
  virtual uint64_t join(uint64_t a, uint64_t b) const = 0;
};

/// The e-graph proper.
class EGraph {
public:
  /// An analysis is optional; it must outlive the graph.
  explicit EGraph(const EClassAnalysis *analysis = nullptr)
      : analysis(analysis) {}

  /// Adds `node` (children may be non-canonical) and returns its class; an
  /// existing equal node is found by hash-consing instead of being copied.
  ClassId add(ENode node);
  /// Adds every node of `expr` below and including `root`.
  ClassId addExpr(const RecExpr &expr, RecExpr::Id root);
  /// Canonical representative of `id` (compresses paths).
  ClassId find(ClassId id);
  /// Canonical representative of `id` without mutating (for const users).
  ClassId findConst(ClassId id) const;
  /// Records that `a` and `b` are equal. Congruence (and the analysis) is
  /// restored by the next `rebuild()`. Returns false if already equal.
  bool merge(ClassId a, ClassId b);
  /// Restores the invariants after merges: the hash-cons maps canonical
  /// nodes, congruent nodes share a class, the analysis is at its fixpoint.
  void rebuild();
  /// Whether merges are pending a rebuild.
  bool isClean() const { return pending.empty() && analysisPending.empty(); }

  /// The class holding `node` (children in any form), if present. Only
  /// meaningful on a clean graph. No allocation in the common case.
  std::optional<ClassId> lookup(const ENode &node) const;
  /// The class of the term `root` of `expr`, if every one of its subterms is
  /// present: a bottom-up hash-cons lookup, no rewriting. Each shared
  /// subterm is looked up once. `normalize`, if given, rewrites each node
  /// (children already classes) into the form the graph keeps before lookup.
  std::optional<ClassId>
  lookupExpr(const RecExpr &expr, RecExpr::Id root,
             llvm::function_ref<void(ENode &)> normalize = nullptr) const;

  /// Nodes of canonical class `id` (children canonical after `rebuild`).
  llvm::ArrayRef<ENode> nodes(ClassId id) const { return classes[id].nodes; }
  /// Analysis datum of canonical class `id` (0 without an analysis).
  uint64_t data(ClassId id) const { return classes[findConst(id)].data; }
  /// Number of distinct e-nodes (after `rebuild`).
  size_t numNodes() const { return memo.size(); }
  /// Number of e-classes.
  size_t numClasses() const { return numCanonical; }
  /// Every canonical class id.
  llvm::SmallVector<ClassId> classIds() const;
  /// Checks the invariants a rebuild restores (canonical node lists, the
  /// hash-cons maps every node to its class and nothing else, congruence,
  /// analysis at its fixpoint). Returns "" or the first violation. For tests.
  std::string checkInvariants() const;
  /// Changes whenever the graph changes (a new node, an effective merge, an
  /// analysis update); equal versions mean nothing happened in between.
  uint64_t getVersion() const { return version; }
  /// Number of class ids ever created (canonical or not).
  size_t capacity() const { return unionFind.size(); }

private:
  struct EClass {
    llvm::SmallVector<ENode, 1> nodes;
    llvm::SmallVector<std::pair<ENode, ClassId>, 2> parents;
    uint64_t data = 0;
  };
  void canonicalize(ENode &node);
  void canonicalizeConst(ENode &node) const;
  void repair(ClassId id);
  void propagateAnalysis();

  const EClassAnalysis *analysis;
  std::vector<ClassId> unionFind;
  std::vector<EClass> classes;
  llvm::DenseMap<ENode, ClassId, ENodeInfo> memo;
  std::vector<ClassId> pending;
  std::vector<ClassId> analysisPending;
  size_t numCanonical = 0;
  /// Bumped by every new node, effective merge and analysis change, so that
  /// saturation can tell a fixpoint.
  uint64_t version = 0;
};

/// Bindings of a pattern match: class variables and payload variables.
struct Subst {
  llvm::SmallVector<ClassId, 4> classes;
  llvm::SmallVector<int64_t, 2> payloads;
};

/// A pattern: a term whose leaves may be class variables (`?x`) and whose
/// payloads may be variables (`$n`). Stored like a `RecExpr`, root last.
class Pattern {
public:
  struct Node {
    enum Kind { Var, Op } kind = Op;
    /// Class variable index (Var) or operator (Op).
    uint32_t index = 0;
    /// Payload: a literal, or a payload-variable index if `payloadIsVar`.
    int64_t payload = 0;
    bool payloadIsVar = false;
    llvm::SmallVector<uint32_t, 3> children;
  };

  /// Parses `(op[:payload|:$p] child...)`, `?x` for class variables.
  /// With `bindings`, variable names are those of `bindings` (the lhs of a
  /// rule) and unknown names are errors.
  static llvm::Expected<Pattern> parse(llvm::StringRef text, const OpTable &ops,
                                       const Pattern *bindings = nullptr);
  /// Calls `fn(rootClass, subst)` for every match in `egraph` (rebuilt).
  void search(const EGraph &egraph,
              const std::function<void(ClassId, const Subst &)> &fn) const;
  /// Calls `fn(subst)` for every match rooted in canonical class `id`.
  void searchClass(const EGraph &egraph, ClassId id,
                   const std::function<void(const Subst &)> &fn) const;
  /// Builds the pattern with `subst` in `egraph` and returns the root class.
  ClassId instantiate(EGraph &egraph, const Subst &subst) const;

  /// Index of the named class variable, or -1.
  int classVar(llvm::StringRef name) const;
  /// Index of the named payload variable, or -1.
  int payloadVar(llvm::StringRef name) const;
  size_t numClassVars() const { return classVarNames.size(); }
  size_t numPayloadVars() const { return payloadVarNames.size(); }
  /// The root of the pattern, last in `nodes`.
  const Node &root() const { return nodes.back(); }

private:
  void matchNode(const EGraph &egraph, uint32_t pat, const ENode &node,
                 Subst &subst, const std::function<void(Subst &)> &next) const;
  void matchChildren(const EGraph &egraph, uint32_t pat, const ENode &node,
                     unsigned i, Subst &subst,
                     const std::function<void(Subst &)> &next) const;
  void matchClass(const EGraph &egraph, uint32_t pat, ClassId id, Subst &subst,
                  const std::function<void(Subst &)> &next) const;

  std::vector<Node> nodes;
  std::vector<std::string> classVarNames;
  std::vector<std::string> payloadVarNames;
};

/// A rewrite rule `lhs -> rhs if condition`. The right-hand side is either a
/// pattern or a C++ applier, which may add several equal forms (e.g. every
/// factorisation of a sum) or compute payloads (constant folding).
struct Rewrite {
  /// Returns false to skip a match (e.g. "k divides n", "y does not depend on
  /// the summed index").
  using Condition =
      std::function<bool(const EGraph &, ClassId root, const Subst &)>;
  /// Appends the classes equal to the match root to `out`.
  using Applier = std::function<void(EGraph &, ClassId root, const Subst &,
                                     llvm::SmallVectorImpl<ClassId> &out)>;

  std::string name;
  Pattern lhs;
  std::optional<Pattern> rhs;
  Applier applier;
  Condition condition;

  /// `lhs => rhs` from s-expressions; variables of `rhs` must occur in `lhs`.
  static llvm::Expected<Rewrite> parse(llvm::StringRef name,
                                       llvm::StringRef lhs, llvm::StringRef rhs,
                                       const OpTable &ops,
                                       Condition condition = nullptr);
  /// `lhs => applier(...)`.
  static llvm::Expected<Rewrite>
  withApplier(llvm::StringRef name, llvm::StringRef lhs, const OpTable &ops,
              Applier applier, Condition condition = nullptr);
};

/// Limits of one saturation run.
struct SaturationLimits {
  size_t maxNodes = 200000;
  unsigned maxIterations = 100;
  double maxSeconds = 10.0;
};

/// Why saturation stopped.
enum class StopReason { Saturated, NodeLimit, IterationLimit, TimeLimit };

/// Returns "saturated", "node limit", ...
llvm::StringRef stringifyStopReason(StopReason reason);

/// What a saturation run did.
struct SaturationReport {
  StopReason reason = StopReason::Saturated;
  unsigned iterations = 0;
  size_t nodes = 0;
  size_t classes = 0;
  double seconds = 0;
  /// True iff a fixpoint was reached: every rule was applied everywhere.
  bool saturated() const { return reason == StopReason::Saturated; }
};

/// Equality saturation: applies `rules` (search all, then apply all, then
/// rebuild, per iteration) until nothing changes or a limit is hit. The
/// graph is left clean (rebuilt) in every case.
SaturationReport saturate(EGraph &egraph, llvm::ArrayRef<Rewrite> rules,
                          const SaturationLimits &limits = {});

} // namespace mirage::search

#endif // MIRAGE_SEARCH_EGRAPH_H
