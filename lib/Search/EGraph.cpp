//===- EGraph.cpp - A small e-graph with equality saturation ----*- C++ -*-===//
//
// Implementation of the e-graph, patterns, rewrites and the saturation loop.
// The rebuild follows egg: merges only record the union and queue the class;
// `rebuild` re-canonicalises the parents of queued classes, which discovers
// congruent parents and merges them in turn, until nothing is queued.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/EGraph.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <functional>

using namespace llvm;

namespace mirage::search {

//===----------------------------------------------------------------------===//
// ENode, OpTable
//===----------------------------------------------------------------------===//

bool ENode::operator<(const ENode &o) const {
  if (op != o.op)
    return op < o.op;
  if (payload != o.payload)
    return payload < o.payload;
  return std::lexicographical_compare(children.begin(), children.end(),
                                      o.children.begin(), o.children.end());
}

// Ops ~0 and ~0-1 are never handed out by an OpTable.
ENode ENodeInfo::getEmptyKey() { return ENode{~0u, 0, {}}; }
ENode ENodeInfo::getTombstoneKey() { return ENode{~0u - 1, 0, {}}; }
unsigned ENodeInfo::getHashValue(const ENode &n) {
  return static_cast<unsigned>(
      hash_combine(n.op, n.payload,
                   hash_combine_range(n.children.begin(), n.children.end())));
}

OpId OpTable::add(StringRef name) {
  auto it = ids.find(name);
  if (it != ids.end())
    return it->second;
  OpId id = names.size();
  names.push_back(name.str());
  ids[name] = id;
  return id;
}

std::optional<OpId> OpTable::lookup(StringRef name) const {
  auto it = ids.find(name);
  if (it == ids.end())
    return std::nullopt;
  return it->second;
}

//===----------------------------------------------------------------------===//
// S-expression reader shared by RecExpr and Pattern
//===----------------------------------------------------------------------===//

namespace {
/// A parsed s-expression: an atom, or a list whose head is an atom.
struct SExpr {
  std::string atom;
  std::vector<SExpr> children;
};

class SExprReader {
public:
  explicit SExprReader(StringRef text) : text(text) {}

  Expected<SExpr> read() {
    Expected<SExpr> e = readOne();
    if (!e)
      return e.takeError();
    skipSpace();
    if (pos != text.size())
      return error("trailing characters");
    return e;
  }

private:
  Error error(const Twine &msg) {
    return createStringError(inconvertibleErrorCode(),
                             "s-expression at offset " + Twine(pos) + ": " +
                                 msg + " in '" + text + "'");
  }
  void skipSpace() {
    while (pos < text.size() && isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  std::string readAtom() {
    size_t start = pos;
    while (pos < text.size() &&
           !isspace(static_cast<unsigned char>(text[pos])) &&
           text[pos] != '(' && text[pos] != ')')
      ++pos;
    return text.slice(start, pos).str();
  }
  Expected<SExpr> readOne() {
    skipSpace();
    if (pos >= text.size())
      return error("unexpected end");
    if (text[pos] == ')')
      return error("unexpected ')'");
    SExpr e;
    if (text[pos] != '(') {
      e.atom = readAtom();
      return e;
    }
    ++pos;
    skipSpace();
    e.atom = readAtom();
    if (e.atom.empty())
      return error("expected an operator");
    while (true) {
      skipSpace();
      if (pos >= text.size())
        return error("missing ')'");
      if (text[pos] == ')') {
        ++pos;
        return e;
      }
      Expected<SExpr> child = readOne();
      if (!child)
        return child.takeError();
      e.children.push_back(std::move(*child));
    }
  }

  StringRef text;
  size_t pos = 0;
};

/// Splits `op:payload` into its parts.
std::pair<StringRef, StringRef> splitAtom(StringRef atom) {
  return atom.split(':');
}

Error parseError(const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}
} // namespace

//===----------------------------------------------------------------------===//
// RecExpr
//===----------------------------------------------------------------------===//

RecExpr::Id RecExpr::add(ENode node) {
  auto it = memo.find(node);
  if (it != memo.end())
    return it->second;
  Id id = nodes.size();
  memo[node] = id;
  nodes.push_back(std::move(node));
  return id;
}

std::string RecExpr::print(Id id, const OpTable &ops) const {
  std::string out;
  raw_string_ostream os(out);
  std::function<void(Id)> rec = [&](Id i) {
    const ENode &n = nodes[i];
    if (!n.children.empty())
      os << '(';
    os << ops.name(n.op);
    if (n.payload != 0)
      os << ':' << n.payload;
    for (ClassId c : n.children) {
      os << ' ';
      rec(c);
    }
    if (!n.children.empty())
      os << ')';
  };
  rec(id);
  return out;
}

Expected<RecExpr::Id> RecExpr::parse(StringRef text, const OpTable &ops) {
  Expected<SExpr> sexpr = SExprReader(text).read();
  if (!sexpr)
    return sexpr.takeError();
  std::function<Expected<Id>(const SExpr &)> build =
      [&](const SExpr &e) -> Expected<Id> {
    auto [name, payloadText] = splitAtom(e.atom);
    std::optional<OpId> op = ops.lookup(name);
    if (!op)
      return parseError("unknown operator '" + name + "'");
    ENode node;
    node.op = *op;
    if (!payloadText.empty() && payloadText.getAsInteger(10, node.payload))
      return parseError("bad payload '" + payloadText + "'");
    for (const SExpr &c : e.children) {
      Expected<Id> child = build(c);
      if (!child)
        return child.takeError();
      node.children.push_back(*child);
    }
    return add(std::move(node));
  };
  return build(*sexpr);
}

//===----------------------------------------------------------------------===//
// EGraph
//===----------------------------------------------------------------------===//

EClassAnalysis::~EClassAnalysis() = default;

ClassId EGraph::find(ClassId id) {
  ClassId root = id;
  while (unionFind[root] != root)
    root = unionFind[root];
  // Path compression: point every class on the path at the root.
  while (unionFind[id] != root) {
    ClassId next = unionFind[id];
    unionFind[id] = root;
    id = next;
  }
  return root;
}

ClassId EGraph::findConst(ClassId id) const {
  while (unionFind[id] != id)
    id = unionFind[id];
  return id;
}

void EGraph::canonicalize(ENode &node) {
  for (ClassId &c : node.children)
    c = find(c);
}

void EGraph::canonicalizeConst(ENode &node) const {
  for (ClassId &c : node.children)
    c = findConst(c);
}

ClassId EGraph::add(ENode node) {
  canonicalize(node);
  auto it = memo.find(node);
  if (it != memo.end())
    return find(it->second);
  ClassId id = unionFind.size();
  unionFind.push_back(id);
  classes.emplace_back();
  ++numCanonical;
  ++version;
  EClass &cls = classes.back();
  if (analysis)
    cls.data = analysis->make(*this, node);
  for (ClassId child : node.children)
    classes[child].parents.push_back({node, id});
  memo[node] = id;
  cls.nodes.push_back(std::move(node));
  return id;
}

ClassId EGraph::addExpr(const RecExpr &expr, RecExpr::Id root) {
  // Children precede parents in a RecExpr, so one forward pass suffices;
  // only the nodes below `root` are added.
  std::vector<ClassId> ids(root + 1, ~0u);
  std::function<ClassId(RecExpr::Id)> rec = [&](RecExpr::Id i) -> ClassId {
    if (ids[i] != ~0u)
      return ids[i];
    ENode node = expr.get(i);
    for (ClassId &c : node.children)
      c = rec(c);
    return ids[i] = add(std::move(node));
  };
  return rec(root);
}

bool EGraph::merge(ClassId a, ClassId b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return false;
  // Keep the class with more parents as the root: fewer parents to move.
  if (classes[a].parents.size() < classes[b].parents.size())
    std::swap(a, b);
  unionFind[b] = a;
  --numCanonical;
  ++version;
  EClass &root = classes[a];
  EClass &other = classes[b];
  root.nodes.append(other.nodes.begin(), other.nodes.end());
  root.parents.append(other.parents.begin(), other.parents.end());
  other.nodes.clear();
  other.parents.clear();
  if (analysis) {
    uint64_t joined = analysis->join(root.data, other.data);
    if (joined != root.data || joined != other.data)
      analysisPending.push_back(a);
    root.data = joined;
  }
  pending.push_back(a);
  return true;
}

void EGraph::repair(ClassId id) {
  auto parents = std::move(classes[id].parents);
  classes[id].parents.clear();
  // Re-key the parents under their canonical form...
  for (auto &[node, cls] : parents) {
    memo.erase(node);
    canonicalize(node);
    memo[node] = find(cls);
  }
  // ...and merge the parents that became congruent.
  DenseMap<ENode, ClassId, ENodeInfo> seen;
  for (auto &[node, cls] : parents) {
    canonicalize(node);
    auto [it, inserted] = seen.try_emplace(node, find(cls));
    if (!inserted) {
      merge(it->second, cls);
      it->second = find(cls);
    }
  }
  ClassId root = find(id);
  for (auto &kv : seen)
    classes[root].parents.push_back({kv.first, kv.second});
}

void EGraph::propagateAnalysis() {
  while (!analysisPending.empty()) {
    ClassId id = find(analysisPending.back());
    analysisPending.pop_back();
    // No merge happens here, so the parent list is stable while updating
    // the parents' data.
    for (const auto &[node, cls] : classes[id].parents) {
      ClassId p = find(cls);
      ENode n = node;
      canonicalize(n);
      uint64_t d = analysis->join(classes[p].data, analysis->make(*this, n));
      if (d != classes[p].data) {
        classes[p].data = d;
        ++version;
        analysisPending.push_back(p);
      }
    }
  }
}

void EGraph::rebuild() {
  bool merged = !pending.empty();
  while (!pending.empty() || !analysisPending.empty()) {
    while (!pending.empty()) {
      std::vector<ClassId> todo;
      todo.swap(pending);
      for (ClassId &c : todo)
        c = find(c);
      llvm::sort(todo);
      todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
      for (ClassId c : todo)
        repair(find(c));
    }
    if (analysis)
      propagateAnalysis();
    else
      analysisPending.clear();
  }
  if (!merged)
    return;
  // Canonical, duplicate-free node lists make matching cheaper. The
  // hash-cons is rebuilt from them: a node with several children is re-keyed
  // by the repair of one child's class, but the copy in another child's
  // parent list still names the old key, so a stale key (harmless for
  // lookups, which use canonical keys, but counted) can survive otherwise.
  memo.clear();
  for (ClassId id = 0; id < unionFind.size(); ++id) {
    if (unionFind[id] != id)
      continue;
    auto &nodes = classes[id].nodes;
    for (ENode &n : nodes)
      canonicalize(n);
    llvm::sort(nodes);
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    for (const ENode &n : nodes)
      memo[n] = id;
  }
}

std::optional<ClassId> EGraph::lookup(const ENode &node) const {
  ENode key = node;
  canonicalizeConst(key);
  auto it = memo.find(key);
  if (it == memo.end())
    return std::nullopt;
  return findConst(it->second);
}

std::optional<ClassId>
EGraph::lookupExpr(const RecExpr &expr, RecExpr::Id root,
                   llvm::function_ref<void(ENode &)> normalize) const {
  // Terms are DAGs: each shared subterm is looked up once.
  llvm::DenseMap<RecExpr::Id, std::optional<ClassId>> seen;
  std::function<std::optional<ClassId>(RecExpr::Id)> rec =
      [&](RecExpr::Id id) -> std::optional<ClassId> {
    auto cached = seen.find(id);
    if (cached != seen.end())
      return cached->second;
    const ENode &n = expr.get(id);
    ENode key;
    key.op = n.op;
    key.payload = n.payload;
    std::optional<ClassId> result;
    bool complete = true;
    for (ClassId child : n.children) {
      std::optional<ClassId> c = rec(child);
      if (!c) {
        complete = false;
        break;
      }
      key.children.push_back(*c);
    }
    if (complete) {
      if (normalize)
        normalize(key);
      result = lookup(key);
    }
    seen[id] = result;
    return result;
  };
  return rec(root);
}

std::string EGraph::checkInvariants() const {
  if (!isClean())
    return "merges pending a rebuild";
  size_t total = 0;
  for (ClassId id : classIds()) {
    uint64_t data = 0;
    bool first = true;
    for (const ENode &n : classes[id].nodes) {
      ++total;
      ENode c = n;
      canonicalizeConst(c);
      if (!(c == n))
        return "non-canonical node in class " + std::to_string(id);
      auto it = memo.find(n);
      if (it == memo.end())
        return "node of class " + std::to_string(id) + " not hash-consed";
      if (findConst(it->second) != id)
        return "hash-cons maps a node of class " + std::to_string(id) +
               " elsewhere (congruence not restored)";
      if (analysis) {
        uint64_t m = analysis->make(*this, n);
        data = first ? m : analysis->join(data, m);
        first = false;
      }
    }
    if (analysis && data != classes[id].data)
      return "analysis of class " + std::to_string(id) + " not at fixpoint";
  }
  if (total != memo.size())
    return "hash-cons holds " + std::to_string(memo.size()) +
           " nodes, classes hold " + std::to_string(total);
  return "";
}

SmallVector<ClassId> EGraph::classIds() const {
  SmallVector<ClassId> ids;
  for (ClassId id = 0; id < unionFind.size(); ++id)
    if (unionFind[id] == id)
      ids.push_back(id);
  return ids;
}

//===----------------------------------------------------------------------===//
// Pattern
//===----------------------------------------------------------------------===//

static constexpr ClassId kUnbound = ~0u;
static constexpr int64_t kUnboundPayload = INT64_MIN;

Expected<Pattern> Pattern::parse(StringRef text, const OpTable &ops,
                                 const Pattern *bindings) {
  Expected<SExpr> sexpr = SExprReader(text).read();
  if (!sexpr)
    return sexpr.takeError();
  Pattern pat;
  if (bindings) {
    pat.classVarNames = bindings->classVarNames;
    pat.payloadVarNames = bindings->payloadVarNames;
  }
  auto varIndex = [&](std::vector<std::string> &names,
                      StringRef name) -> Expected<uint32_t> {
    auto it = llvm::find(names, name);
    if (it != names.end())
      return static_cast<uint32_t>(it - names.begin());
    if (bindings)
      return parseError("variable '" + name + "' is not bound by the lhs");
    names.push_back(name.str());
    return static_cast<uint32_t>(names.size() - 1);
  };
  std::function<Expected<uint32_t>(const SExpr &)> build =
      [&](const SExpr &e) -> Expected<uint32_t> {
    Node node;
    if (StringRef(e.atom).starts_with("?")) {
      if (!e.children.empty())
        return parseError("a class variable has no children");
      Expected<uint32_t> v = varIndex(pat.classVarNames, e.atom);
      if (!v)
        return v.takeError();
      node.kind = Node::Var;
      node.index = *v;
    } else {
      auto [name, payloadText] = splitAtom(e.atom);
      std::optional<OpId> op = ops.lookup(name);
      if (!op)
        return parseError("unknown operator '" + name + "'");
      node.kind = Node::Op;
      node.index = *op;
      if (payloadText.starts_with("$")) {
        Expected<uint32_t> v = varIndex(pat.payloadVarNames, payloadText);
        if (!v)
          return v.takeError();
        node.payloadIsVar = true;
        node.payload = *v;
      } else if (!payloadText.empty() &&
                 payloadText.getAsInteger(10, node.payload)) {
        return parseError("bad payload '" + payloadText + "'");
      }
      for (const SExpr &c : e.children) {
        Expected<uint32_t> child = build(c);
        if (!child)
          return child.takeError();
        node.children.push_back(*child);
      }
    }
    pat.nodes.push_back(std::move(node));
    return static_cast<uint32_t>(pat.nodes.size() - 1);
  };
  Expected<uint32_t> root = build(*sexpr);
  if (!root)
    return root.takeError();
  return pat;
}

int Pattern::classVar(StringRef name) const {
  auto it = llvm::find(classVarNames, name);
  return it == classVarNames.end() ? -1 : int(it - classVarNames.begin());
}

int Pattern::payloadVar(StringRef name) const {
  auto it = llvm::find(payloadVarNames, name);
  return it == payloadVarNames.end() ? -1 : int(it - payloadVarNames.begin());
}

void Pattern::matchClass(const EGraph &egraph, uint32_t pat, ClassId id,
                         Subst &subst,
                         const std::function<void(Subst &)> &next) const {
  id = egraph.findConst(id);
  const Node &p = nodes[pat];
  if (p.kind == Node::Var) {
    ClassId &slot = subst.classes[p.index];
    if (slot != kUnbound) {
      if (egraph.findConst(slot) == id)
        next(subst);
      return;
    }
    slot = id;
    next(subst);
    subst.classes[p.index] = kUnbound;
    return;
  }
  // Matching only reads the graph (rules are applied after the search), so
  // iterating the class's node list in place is safe.
  for (const ENode &n : egraph.nodes(id))
    if (n.op == p.index && n.children.size() == p.children.size())
      matchNode(egraph, pat, n, subst, next);
}

void Pattern::matchChildren(const EGraph &egraph, uint32_t pat,
                            const ENode &node, unsigned i, Subst &subst,
                            const std::function<void(Subst &)> &next) const {
  const Node &p = nodes[pat];
  if (i == p.children.size()) {
    next(subst);
    return;
  }
  matchClass(egraph, p.children[i], node.children[i], subst, [&](Subst &s) {
    matchChildren(egraph, pat, node, i + 1, s, next);
  });
}

void Pattern::matchNode(const EGraph &egraph, uint32_t pat, const ENode &node,
                        Subst &subst,
                        const std::function<void(Subst &)> &next) const {
  const Node &p = nodes[pat];
  bool boundHere = false;
  if (p.payloadIsVar) {
    int64_t &slot = subst.payloads[p.payload];
    if (slot == kUnboundPayload) {
      slot = node.payload;
      boundHere = true;
    } else if (slot != node.payload) {
      return;
    }
  } else if (p.payload != node.payload) {
    return;
  }
  matchChildren(egraph, pat, node, 0, subst, next);
  if (boundHere)
    subst.payloads[p.payload] = kUnboundPayload;
}

void Pattern::searchClass(const EGraph &egraph, ClassId id,
                          const std::function<void(const Subst &)> &fn) const {
  Subst subst;
  subst.classes.assign(classVarNames.size(), kUnbound);
  subst.payloads.assign(payloadVarNames.size(), kUnboundPayload);
  matchClass(egraph, nodes.size() - 1, id, subst, [&](Subst &s) { fn(s); });
}

void Pattern::search(
    const EGraph &egraph,
    const std::function<void(ClassId, const Subst &)> &fn) const {
  for (ClassId id : egraph.classIds())
    searchClass(egraph, id, [&](const Subst &s) { fn(id, s); });
}

ClassId Pattern::instantiate(EGraph &egraph, const Subst &subst) const {
  SmallVector<ClassId, 8> ids(nodes.size());
  for (auto [i, p] : llvm::enumerate(nodes)) {
    if (p.kind == Node::Var) {
      ids[i] = subst.classes[p.index];
      continue;
    }
    ENode n;
    n.op = p.index;
    n.payload = p.payloadIsVar ? subst.payloads[p.payload] : p.payload;
    for (uint32_t c : p.children)
      n.children.push_back(ids[c]);
    ids[i] = egraph.add(std::move(n));
  }
  return ids.back();
}

//===----------------------------------------------------------------------===//
// Rewrite and saturation
//===----------------------------------------------------------------------===//

Expected<Rewrite> Rewrite::parse(StringRef name, StringRef lhs, StringRef rhs,
                                 const OpTable &ops, Condition condition) {
  Expected<Pattern> l = Pattern::parse(lhs, ops);
  if (!l)
    return l.takeError();
  if (l->root().kind == Pattern::Node::Var)
    return parseError("rule '" + name + "': the lhs must not be a variable");
  Expected<Pattern> r = Pattern::parse(rhs, ops, &*l);
  if (!r)
    return r.takeError();
  Rewrite rw;
  rw.name = name.str();
  rw.lhs = std::move(*l);
  rw.rhs = std::move(*r);
  rw.condition = std::move(condition);
  return rw;
}

Expected<Rewrite> Rewrite::withApplier(StringRef name, StringRef lhs,
                                       const OpTable &ops, Applier applier,
                                       Condition condition) {
  Expected<Pattern> l = Pattern::parse(lhs, ops);
  if (!l)
    return l.takeError();
  Rewrite rw;
  rw.name = name.str();
  rw.lhs = std::move(*l);
  rw.applier = std::move(applier);
  rw.condition = std::move(condition);
  return rw;
}

StringRef stringifyStopReason(StopReason reason) {
  switch (reason) {
  case StopReason::Saturated:
    return "saturated";
  case StopReason::NodeLimit:
    return "node limit";
  case StopReason::IterationLimit:
    return "iteration limit";
  case StopReason::TimeLimit:
    return "time limit";
  }
  return "unknown";
}

SaturationReport saturate(EGraph &egraph, ArrayRef<Rewrite> rules,
                          const SaturationLimits &limits) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  SaturationReport report;
  auto finish = [&](StopReason reason) {
    egraph.rebuild();
    report.reason = reason;
    report.nodes = egraph.numNodes();
    report.classes = egraph.numClasses();
    report.seconds = elapsed();
    return report;
  };

  egraph.rebuild();
  while (true) {
    if (report.iterations >= limits.maxIterations)
      return finish(StopReason::IterationLimit);
    if (elapsed() > limits.maxSeconds)
      return finish(StopReason::TimeLimit);
    if (egraph.numNodes() > limits.maxNodes)
      return finish(StopReason::NodeLimit);
    ++report.iterations;
    uint64_t before = egraph.getVersion();

    // Search every rule on the same (clean) graph, then apply: the matches
    // of one rule must not see the effects of another in this iteration.
    struct Match {
      const Rewrite *rule;
      ClassId root;
      Subst subst;
    };
    std::vector<Match> matches;
    for (const Rewrite &rule : rules) {
      rule.lhs.search(egraph, [&](ClassId root, const Subst &s) {
        if (!rule.condition || rule.condition(egraph, root, s))
          matches.push_back({&rule, root, s});
      });
      if (elapsed() > limits.maxSeconds)
        return finish(StopReason::TimeLimit);
    }

    SmallVector<ClassId, 8> equal;
    for (auto [i, m] : llvm::enumerate(matches)) {
      equal.clear();
      if (m.rule->rhs)
        equal.push_back(m.rule->rhs->instantiate(egraph, m.subst));
      else
        m.rule->applier(egraph, m.root, m.subst, equal);
      for (ClassId c : equal)
        egraph.merge(m.root, c);
      // New nodes enter the hash-cons at once, so its size is current.
      if (egraph.numNodes() > limits.maxNodes)
        return finish(StopReason::NodeLimit);
      if ((i & 1023) == 1023 && elapsed() > limits.maxSeconds)
        return finish(StopReason::TimeLimit);
    }
    egraph.rebuild();
    if (egraph.getVersion() == before)
      return finish(StopReason::Saturated);
  }
}

} // namespace mirage::search
