//===- EGraphTest.cpp - Unit tests of the generic e-graph -------*- C++ -*-===//
//
// Hash-consing, union-find and congruence, pattern matching with class and
// payload variables, conditional rules and every saturation stop reason, on
// a toy language independent of tensors.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/EGraph.h"

#include "gtest/gtest.h"

using namespace mirage::search;

namespace {

/// A toy language: leaves a, b, c, n (payload = value); f, g unary; +, *.
class EGraphTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (const char *name : {"a", "b", "c", "n", "f", "g", "+", "*", "sum"})
      ops.add(name);
  }
  ClassId add(EGraph &g, const char *text) {
    auto id = expr.parse(text, ops);
    EXPECT_TRUE(static_cast<bool>(id)) << llvm::toString(id.takeError());
    return g.addExpr(expr, *id);
  }
  std::optional<ClassId> lookup(const EGraph &g, const char *text) {
    auto id = expr.parse(text, ops);
    EXPECT_TRUE(static_cast<bool>(id)) << llvm::toString(id.takeError());
    return g.lookupExpr(expr, *id);
  }
  Rewrite rule(const char *name, const char *lhs, const char *rhs) {
    auto rw = Rewrite::parse(name, lhs, rhs, ops);
    EXPECT_TRUE(static_cast<bool>(rw)) << llvm::toString(rw.takeError());
    return std::move(*rw);
  }

  OpTable ops;
  RecExpr expr;
};

TEST_F(EGraphTest, HashConsingDeduplicates) {
  EGraph g;
  ClassId x = add(g, "(+ (f a) (f a))");
  EXPECT_EQ(3u, g.numNodes()); // a, (f a), (+ fa fa)
  EXPECT_EQ(3u, g.numClasses());
  ClassId y = add(g, "(+ (f a) (f a))");
  EXPECT_EQ(x, y);
  EXPECT_EQ(3u, g.numNodes());
  // Payloads distinguish nodes.
  ClassId n1 = add(g, "n:1");
  ClassId n2 = add(g, "n:2");
  EXPECT_NE(n1, n2);
  EXPECT_EQ(n1, add(g, "n:1"));
  // The RecExpr itself shares subterms.
  RecExpr e;
  auto r = e.parse("(+ (g b) (g b))", ops);
  ASSERT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(3u, e.size());
  EXPECT_EQ("(+ (g b) (g b))", e.print(*r, ops));
}

TEST_F(EGraphTest, MergeAndRebuildRestoreCongruence) {
  EGraph g;
  ClassId fa = add(g, "(f a)");
  ClassId fb = add(g, "(f b)");
  ClassId gfa = add(g, "(g (f a))");
  ClassId gfb = add(g, "(g (f b))");
  EXPECT_NE(g.find(fa), g.find(fb));
  EXPECT_TRUE(g.merge(add(g, "a"), add(g, "b")));
  EXPECT_FALSE(g.isClean());
  // Before the rebuild only a and b are equal.
  EXPECT_NE(g.find(fa), g.find(fb));
  g.rebuild();
  EXPECT_TRUE(g.isClean());
  EXPECT_EQ("", g.checkInvariants());
  // Congruence propagates upwards: f a = f b, then g (f a) = g (f b).
  EXPECT_EQ(g.find(fa), g.find(fb));
  EXPECT_EQ(g.find(gfa), g.find(gfb));
  EXPECT_EQ(3u, g.numClasses());
  // a and b stay two nodes of one class; f a and f b became one node.
  EXPECT_EQ(4u, g.numNodes());
  EXPECT_EQ(g.lookup(ENode{*ops.lookup("f"), 0, {add(g, "b")}}),
            std::optional<ClassId>(g.find(fa)));
  EXPECT_FALSE(g.merge(fa, fb));
  // Lookups of either spelling now land in the same class.
  EXPECT_EQ(lookup(g, "(g (f a))"), lookup(g, "(g (f b))"));
  EXPECT_FALSE(lookup(g, "(g (g a))").has_value());
}

TEST_F(EGraphTest, PathCompression) {
  EGraph g;
  std::vector<ClassId> ids;
  for (int i = 1; i <= 64; ++i)
    ids.push_back(add(g, ("n:" + std::to_string(i)).c_str()));
  for (size_t i = 1; i < ids.size(); ++i)
    g.merge(ids[i - 1], ids[i]);
  g.rebuild();
  ClassId root = g.find(ids.front());
  for (ClassId id : ids)
    EXPECT_EQ(root, g.find(id));
  EXPECT_EQ(1u, g.numClasses());
}

TEST_F(EGraphTest, PatternsBindClassAndPayloadVariables) {
  EGraph g;
  add(g, "(+ (f a) (f b))");
  add(g, "(+ (f a) (f a))");
  add(g, "(sum:4 (f c))");
  add(g, "(sum:8 (sum:8 c))");
  g.rebuild();

  auto pat = Pattern::parse("(+ (f ?x) (f ?y))", ops);
  ASSERT_TRUE(static_cast<bool>(pat));
  int matches = 0;
  pat->search(g, [&](ClassId, const Subst &) { ++matches; });
  EXPECT_EQ(2, matches);

  // A repeated variable must bind the same class.
  auto same = Pattern::parse("(+ (f ?x) (f ?x))", ops);
  ASSERT_TRUE(static_cast<bool>(same));
  matches = 0;
  same->search(g, [&](ClassId, const Subst &s) {
    ++matches;
    EXPECT_EQ(g.find(add(g, "a")), s.classes[0]);
  });
  EXPECT_EQ(1, matches);

  // Payload variables bind payloads; a repeated one must agree.
  auto sum = Pattern::parse("(sum:$n ?x)", ops);
  ASSERT_TRUE(static_cast<bool>(sum));
  std::vector<int64_t> sizes;
  sum->search(g,
              [&](ClassId, const Subst &s) { sizes.push_back(s.payloads[0]); });
  llvm::sort(sizes);
  EXPECT_EQ((std::vector<int64_t>{4, 8, 8}), sizes);
  auto nested = Pattern::parse("(sum:$n (sum:$n ?x))", ops);
  ASSERT_TRUE(static_cast<bool>(nested));
  matches = 0;
  nested->search(g, [&](ClassId, const Subst &) { ++matches; });
  EXPECT_EQ(1, matches);
  auto literal = Pattern::parse("(sum:4 ?x)", ops);
  ASSERT_TRUE(static_cast<bool>(literal));
  matches = 0;
  literal->search(g, [&](ClassId, const Subst &) { ++matches; });
  EXPECT_EQ(1, matches);

  // Errors are reported, not asserted.
  EXPECT_FALSE(static_cast<bool>(Pattern::parse("(h ?x)", ops)));
  EXPECT_FALSE(static_cast<bool>(Pattern::parse("(f ?x", ops)));
  llvm::consumeError(Pattern::parse("(h ?x)", ops).takeError());
  llvm::consumeError(Pattern::parse("(f ?x", ops).takeError());
  auto unbound = Rewrite::parse("bad", "(f ?x)", "(g ?y)", ops);
  EXPECT_FALSE(static_cast<bool>(unbound));
  llvm::consumeError(unbound.takeError());
}

TEST_F(EGraphTest, SaturationReachesFixpoint) {
  EGraph g;
  ClassId root = add(g, "(* a (+ b c))");
  std::vector<Rewrite> rules;
  rules.push_back(rule("comm-mul", "(* ?x ?y)", "(* ?y ?x)"));
  rules.push_back(rule("comm-add", "(+ ?x ?y)", "(+ ?y ?x)"));
  rules.push_back(rule("dist", "(* ?x (+ ?y ?z))", "(+ (* ?x ?y) (* ?x ?z))"));
  rules.push_back(rule("fact", "(+ (* ?x ?y) (* ?x ?z))", "(* ?x (+ ?y ?z))"));
  SaturationReport r = saturate(g, rules);
  EXPECT_EQ(StopReason::Saturated, r.reason);
  EXPECT_TRUE(r.saturated());
  EXPECT_GT(r.iterations, 1u);
  EXPECT_EQ(g.numNodes(), r.nodes);
  EXPECT_EQ("", g.checkInvariants());
  auto found = lookup(g, "(+ (* c a) (* b a))");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(g.find(root), *found);
  // Not an equal form: a*b + c.
  auto other = lookup(g, "(+ (* a b) c)");
  EXPECT_TRUE(!other || *other != g.find(root));
  // A second run has nothing left to do.
  SaturationReport again = saturate(g, rules);
  EXPECT_EQ(StopReason::Saturated, again.reason);
  EXPECT_EQ(1u, again.iterations);
}

/// f x -> f (f x) grows forever: every limit must stop it and say so.
TEST_F(EGraphTest, SaturationStopsAtEachLimit) {
  std::vector<Rewrite> rules;
  rules.push_back(rule("grow", "(f ?x)", "(g (f (f ?x)))"));

  {
    EGraph g;
    add(g, "(f a)");
    SaturationLimits limits;
    limits.maxIterations = 5;
    SaturationReport r = saturate(g, rules, limits);
    EXPECT_EQ(StopReason::IterationLimit, r.reason);
    EXPECT_EQ(5u, r.iterations);
    EXPECT_FALSE(r.saturated());
    EXPECT_TRUE(g.isClean());
    EXPECT_EQ("", g.checkInvariants());
  }
  {
    EGraph g;
    add(g, "(f a)");
    SaturationLimits limits;
    limits.maxNodes = 50;
    limits.maxIterations = 1000000;
    SaturationReport r = saturate(g, rules, limits);
    EXPECT_EQ(StopReason::NodeLimit, r.reason);
    EXPECT_GT(r.nodes, 50u);
    EXPECT_LT(r.nodes, 200u); // it stopped promptly
  }
  {
    EGraph g;
    add(g, "(f a)");
    // The graph doubles per iteration; a zero time budget stops at once.
    SaturationLimits limits;
    limits.maxSeconds = 0.0;
    limits.maxIterations = 1000000;
    limits.maxNodes = 1u << 30;
    SaturationReport r = saturate(g, rules, limits);
    EXPECT_EQ(StopReason::TimeLimit, r.reason);
    EXPECT_EQ("time limit", stringifyStopReason(r.reason));
  }
}

TEST_F(EGraphTest, ConditionsAndAppliers) {
  EGraph g;
  ClassId s12 = add(g, "(sum:12 a)");
  std::vector<Rewrite> rules;
  // sum(n, x) = sum(k, sum(n/k, x)) for the factor k = 2 only, when 2 | n.
  auto split = Rewrite::withApplier(
      "split2", "(sum:$n ?x)", ops,
      [&](EGraph &eg, ClassId, const Subst &s,
          llvm::SmallVectorImpl<ClassId> &out) {
        OpId sum = *ops.lookup("sum");
        ClassId inner = eg.add(ENode{sum, s.payloads[0] / 2, {s.classes[0]}});
        out.push_back(eg.add(ENode{sum, 2, {inner}}));
      },
      [](const EGraph &, ClassId, const Subst &s) {
        return s.payloads[0] % 2 == 0 && s.payloads[0] > 2;
      });
  ASSERT_TRUE(static_cast<bool>(split));
  rules.push_back(std::move(*split));
  SaturationReport r = saturate(g, rules);
  EXPECT_TRUE(r.saturated());
  EXPECT_EQ(std::optional<ClassId>(g.find(s12)),
            lookup(g, "(sum:2 (sum:2 (sum:3 a)))"));
  // 3 is odd: no further split.
  EXPECT_FALSE(lookup(g, "(sum:3 (sum:1 a))").has_value());
}

/// Random terms and merges: the e-graph's classes after rebuild must be
/// exactly the congruence closure computed naively.
TEST_F(EGraphTest, RandomMergesMatchNaiveCongruenceClosure) {
  OpId leaves[] = {*ops.lookup("a"), *ops.lookup("b"), *ops.lookup("c")};
  OpId unary[] = {*ops.lookup("f"), *ops.lookup("g")};
  OpId binary[] = {*ops.lookup("+"), *ops.lookup("*")};
  uint64_t seed = 12345;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  for (int round = 0; round < 20; ++round) {
    RecExpr terms;
    for (OpId l : leaves)
      terms.add(ENode{l, 0, {}});
    while (terms.size() < 60) {
      uint32_t n = terms.size();
      if (rnd(2))
        terms.add(ENode{unary[rnd(2)], 0, {uint32_t(rnd(n))}});
      else
        terms.add(
            ENode{binary[rnd(2)], 0, {uint32_t(rnd(n)), uint32_t(rnd(n))}});
    }
    size_t n = terms.size();
    EGraph g;
    std::vector<ClassId> ids;
    for (uint32_t i = 0; i < n; ++i)
      ids.push_back(g.addExpr(terms, i));
    // Naive union-find over term indices.
    std::vector<uint32_t> uf(n);
    for (uint32_t i = 0; i < n; ++i)
      uf[i] = i;
    std::function<uint32_t(uint32_t)> find = [&](uint32_t x) {
      return uf[x] == x ? x : uf[x] = find(uf[x]);
    };
    for (int m = 0; m < 4; ++m) {
      uint32_t a = rnd(n), b = rnd(n);
      g.merge(ids[a], ids[b]);
      uf[find(a)] = find(b);
    }
    g.rebuild();
    ASSERT_EQ("", g.checkInvariants());
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < n; ++j) {
          const ENode &x = terms.get(i), &y = terms.get(j);
          if (find(i) == find(j) || x.op != y.op ||
              x.children.size() != y.children.size())
            continue;
          bool congruent = true;
          for (size_t k = 0; k < x.children.size(); ++k)
            congruent &= find(x.children[k]) == find(y.children[k]);
          if (congruent) {
            uf[find(i)] = find(j);
            changed = true;
          }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t j = 0; j < n; ++j)
        ASSERT_EQ(find(i) == find(j), g.find(ids[i]) == g.find(ids[j]))
            << "round " << round << " terms " << i << ", " << j;
  }
}

/// An analysis: does the class contain the leaf `a`? Joined with OR.
class HasA : public EClassAnalysis {
public:
  explicit HasA(OpId a) : a(a) {}
  uint64_t make(const EGraph &g, const ENode &n) const override {
    uint64_t v = n.op == a;
    for (ClassId c : n.children)
      v |= g.data(c);
    return v;
  }
  uint64_t join(uint64_t x, uint64_t y) const override { return x | y; }

private:
  OpId a;
};

TEST_F(EGraphTest, AnalysisFollowsMerges) {
  HasA analysis(*ops.lookup("a"));
  EGraph g(&analysis);
  ClassId gfb = add(g, "(g (f b))");
  ClassId c = add(g, "c");
  EXPECT_EQ(0u, g.data(gfb));
  g.merge(add(g, "b"), add(g, "(+ a c)"));
  g.rebuild();
  // The datum of b's class changed; its ancestors are updated.
  EXPECT_EQ(1u, g.data(gfb));
  EXPECT_EQ("", g.checkInvariants());
  EXPECT_EQ(0u, g.data(c));
}

} // namespace
