//===- InterpreterTest.cpp - Evaluation of mk/mb/mt programs ----*- C++ -*-===//
//
// Small hand-computed programs in both domains: every accumulator kind, the
// imap/fmap/omap combinations of the DESIGN §8 programs, thread graphs with
// broadcasting and the error cases (kernel-level ops:
// InterpreterKernelOpsTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "InterpreterTestSupport.h"
#include "Mirage/Verify/Equivalence.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;
using namespace mirage::verify::test;

namespace {

/// A kernel on x: tensor<2x4xf32> with grid [1,1,1], forloop 2, the loop
/// walking dim 1 (tiles x[:, 0:2] then x[:, 2:4]) into accumulator `acc`.
std::string accumKernel(StringRef name, StringRef acc, StringRef outType) {
  return (Twine("func.func @") + name + "(%x: tensor<2x4xf32>) -> " + outType +
          R"( {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [32, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x4xf32>):
    %a = mb.for_loop -> ()" +
          outType + R"() {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
      )" + acc +
          R"(
      mb.yield %r : )" +
          outType + R"(
    }
    %o = mb.output_saver %a omap = [-1, -1, -1] : )" +
          outType + " -> " + outType + R"(
    mb.return %o : )" +
          outType + R"(
  } : (tensor<2x4xf32>) -> )" +
          outType + R"(
  return %y : )" +
          outType + R"(
})")
      .str();
}

//===----------------------------------------------------------------------===//
// Accumulators
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, AccumSum) {
  func::FuncOp f = parse(
      accumKernel("f",
                  "%r = mb.accum_sum %t : tensor<2x2xf32> -> tensor<2x2xf32>",
                  "tensor<2x2xf32>"),
      "f");
  ASSERT_TRUE(f);
  // x = [[1,2,3,4],[5,6,7,8]]: [1,2]+[3,4], [5,6]+[7,8].
  expectNear({4, 6, 12, 14}, runFloat(f));
  EXPECT_EQ(ints({4, 6, 12, 14}), runField(f, FieldTest(4)));
}

TEST_F(InterpreterTest, AccumSumLastAndMeanLast) {
  func::FuncOp f = parse(
      accumKernel(
          "f", "%r = mb.accum_sum_last %t : tensor<2x2xf32> -> tensor<2x1xf32>",
          "tensor<2x1xf32>"),
      "f");
  ASSERT_TRUE(f);
  expectNear({10, 26}, runFloat(f));
  EXPECT_EQ(ints({10, 26}), runField(f, FieldTest(5)));
  func::FuncOp g = parse(
      accumKernel(
          "g",
          "%r = mb.accum_mean_last %t : tensor<2x2xf32> -> tensor<2x1xf32>",
          "tensor<2x1xf32>"),
      "g");
  ASSERT_TRUE(g);
  // Mean over F * n = 4 elements.
  expectNear({2.5, 6.5}, runFloat(g));
  FieldValue half = fieldInv(fieldFromInt(2));
  EXPECT_EQ(std::vector<FieldValue>({fieldMul(fieldFromInt(5), half),
                                     fieldMul(fieldFromInt(13), half)}),
            runField(g, FieldTest(5)));
}

TEST_F(InterpreterTest, AccumRmsLast) {
  func::FuncOp f = parse(accumKernel("f",
                                     "%r = mb.accum_rms_last %t eps = 0.25 : "
                                     "tensor<2x2xf32> -> tensor<2x1xf32>",
                                     "tensor<2x1xf32>"),
                         "f");
  ASSERT_TRUE(f);
  // sqrt(sum(x^2) / 4 + 0.25): rows 30/4 + 1/4 = 31/4 and 174/4 + 1/4 = 175/4.
  expectNear({std::sqrt(31.0 / 4), std::sqrt(175.0 / 4)}, runFloat(f));
  FieldValue quarter = fieldInv(fieldFromInt(4));
  EXPECT_EQ(std::vector<FieldValue>(
                {fieldSqrt(fieldMul(fieldFromInt(31), quarter)),
                 fieldSqrt(fieldMul(fieldFromInt(175), quarter))}),
            runField(f, FieldTest(6)));
}

TEST_F(InterpreterTest, AccumSumTo) {
  func::FuncOp f = parse(R"(
    func.func @f(%x: tensor<2x8xf32>) -> tensor<2x2xf32> {
      %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [32, 1, 1] forloop = 2 {
      ^bb0(%X: tensor<2x8xf32>):
        %a = mb.for_loop -> (tensor<2x2xf32>) {
          %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
          %r = mb.accum_sum_to %t dimx = 2 : tensor<2x4xf32> -> tensor<2x2xf32>
          mb.yield %r : tensor<2x2xf32>
        }
        %o = mb.output_saver %a omap = [-1, -1, -1] : tensor<2x2xf32> -> tensor<2x2xf32>
        mb.return %o : tensor<2x2xf32>
      } : (tensor<2x8xf32>) -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })",
                         "f");
  ASSERT_TRUE(f);
  // Tiles [1 2 3 4] and [5 6 7 8]: entry 0 sums 1+2+5+6, entry 1 3+4+7+8.
  expectNear({14, 22, 46, 54}, runFloat(f));
  EXPECT_EQ(ints({14, 22, 46, 54}), runField(f, FieldTest(7)));
}

TEST_F(InterpreterTest, AccumMax) {
  func::FuncOp f =
      parse(accumKernel("f",
                        "%n = mb.neg %t : tensor<2x2xf32>\n      %r = "
                        "mb.accum_max %n : tensor<2x2xf32> -> tensor<2x2xf32>",
                        "tensor<2x2xf32>"),
            "f");
  ASSERT_TRUE(f);
  expectNear({-1, -2, -5, -6}, runFloat(f));
  FieldTest test(8);
  std::vector<FieldValue> got = runField(f, test);
  int64_t first[] = {1, 2, 5, 6}, second[] = {3, 4, 7, 8};
  for (int i = 0; i < 4; ++i) {
    FieldValue a = fieldFromInt(-first[i]), b = fieldFromInt(-second[i]);
    EXPECT_EQ(test.orderKey(a) >= test.orderKey(b) ? a : b, got[i]);
  }
}

TEST_F(InterpreterTest, AccumRescaledSum) {
  func::FuncOp f = parse(
      accumKernel(
          "f",
          R"(%m = mb.reduce_max %t dim = 1 : tensor<2x2xf32> -> tensor<2x1xf32>
      %r = mb.accum_rescaled_sum %t, %m : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x2xf32>)",
          "tensor<2x2xf32>"),
      "f");
  ASSERT_TRUE(f);
  // Row 0: tiles [1,2] (max 2) and [3,4] (max 4): [1,2] e^(2-4) + [3,4].
  double e = std::exp(-2.0);
  expectNear({1 * e + 3, 2 * e + 4, 5 * e + 7, 6 * e + 8}, runFloat(f));
  // In the field: sum_i x_i * omega^(m_i - M) with max in the random order.
  FieldTest test(9);
  auto fmax = [&](FieldValue a, FieldValue b) {
    return test.orderKey(a) >= test.orderKey(b) ? a : b;
  };
  auto fexp = [&](FieldValue v) {
    return FieldValue{test.omegaPow(v.q), kUndefinedQ};
  };
  std::vector<FieldValue> want;
  int64_t rows[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  for (auto &row : rows) {
    FieldValue m0 = fmax(fieldFromInt(row[0]), fieldFromInt(row[1]));
    FieldValue m1 = fmax(fieldFromInt(row[2]), fieldFromInt(row[3]));
    FieldValue big = fmax(m0, m1);
    for (int j = 0; j < 2; ++j)
      want.push_back(fieldAdd(
          fieldMul(fieldFromInt(row[j]), fexp(fieldSub(m0, big))),
          fieldMul(fieldFromInt(row[2 + j]), fexp(fieldSub(m1, big)))));
  }
  std::vector<FieldValue> got = runField(f, test);
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(want[i].p, got[i].p) << "element " << i;
}

//===----------------------------------------------------------------------===//
// imap / fmap / omap
//===----------------------------------------------------------------------===//

/// Sets MIRAGE_VERIFY_BLOCK_THREADS for one scope.
struct BlockThreadsScope {
  explicit BlockThreadsScope(const char *value) {
    setenv("MIRAGE_VERIFY_BLOCK_THREADS", value, 1);
  }
  ~BlockThreadsScope() { unsetenv("MIRAGE_VERIFY_BLOCK_THREADS"); }
};

/// A kernel reading x with (imap, fmap) and saving the accumulated sum with
/// omap.
std::string mapKernel(StringRef inType, StringRef tileType, StringRef outType,
                      StringRef grid, int forloop, StringRef imap, int fmap,
                      StringRef omap) {
  return (R"(func.func @f(%x: )" + inType + ") -> " + outType + R"( {
  %y = mk.graph_kernel (%x) grid = )" +
          grid + R"( block = [32, 1, 1] forloop = )" + Twine(forloop) + R"( {
  ^bb0(%X: )" +
          inType + R"():
    %a = mb.for_loop -> ()" +
          tileType + R"() {
      %t = mb.input_iter %X imap = )" +
          imap + " fmap = " + Twine(fmap) + " : " + inType + " -> " + tileType +
          R"(
      %r = mb.accum_sum %t : )" +
          tileType + " -> " + tileType + R"(
      mb.yield %r : )" +
          tileType + R"(
    }
    %o = mb.output_saver %a omap = )" +
          omap + " : " + tileType + " -> " + outType + R"(
    mb.return %o : )" +
          outType + R"(
  } : ()" +
          inType + ") -> " + outType + R"(
  return %y : )" +
          outType + R"(
})")
      .str();
}

TEST_F(InterpreterTest, GridOverTwoDimsIsIdentity) {
  // imap [0, 1, -1] / omap [0, 1, -1] and the swapped [1, 0, -1] mapping.
  for (auto [grid, map] :
       {std::pair<StringRef, StringRef>{"[2, 3, 1]", "[0, 1, -1]"},
        {"[3, 2, 1]", "[1, 0, -1]"}}) {
    func::FuncOp f = parse(mapKernel("tensor<4x6xf32>", "tensor<2x2xf32>",
                                     "tensor<4x6xf32>", grid, 1, map, -1, map),
                           "f");
    ASSERT_TRUE(f) << grid.str();
    std::vector<double> want;
    for (int i = 1; i <= 24; ++i)
      want.push_back(i);
    expectNear(want, runFloat(f));
  }
}

TEST_F(InterpreterTest, GridAndLoopOnOneDim) {
  // Block b at iteration i reads columns ((b * F) + i) * 2: block 0 sums
  // column chunks 0 and 1, block 1 chunks 2 and 3 (DESIGN §3.2).
  func::FuncOp f =
      parse(mapKernel("tensor<2x8xf32>", "tensor<2x2xf32>", "tensor<2x4xf32>",
                      "[2, 1, 1]", 2, "[1, -1, -1]", 1, "[1, -1, -1]"),
            "f");
  ASSERT_TRUE(f);
  expectNear({4, 6, 12, 14, 20, 22, 28, 30}, runFloat(f));
  EXPECT_EQ(ints({4, 6, 12, 14, 20, 22, 28, 30}), runField(f, FieldTest(10)));
}

TEST_F(InterpreterTest, ReplicatedLoopReadsWholeTensor) {
  // fmap = -1: every iteration reads the whole tensor, so the sum is F * x.
  func::FuncOp f =
      parse(mapKernel("tensor<2x2xf32>", "tensor<2x2xf32>", "tensor<2x2xf32>",
                      "[1, 1, 1]", 3, "[-1, -1, -1]", -1, "[-1, -1, -1]"),
            "f");
  ASSERT_TRUE(f);
  expectNear({3, 6, 9, 12}, runFloat(f));
}

TEST_F(InterpreterTest, BatchAndSplitMapsOf3dTensors) {
  // The attention pattern: grid x over the batch dim, grid z over dim 2, the
  // loop over dim 1; saved with the same dims: a reduce_sum over dim 1.
  func::FuncOp f = parse(mapKernel("tensor<2x3x4xf32>", "tensor<1x1x2xf32>",
                                   "tensor<2x1x4xf32>", "[2, 1, 2]", 3,
                                   "[0, -1, 2]", 1, "[0, -1, 2]"),
                         "f");
  ASSERT_TRUE(f);
  // x[b, r, c] = 12 b + 4 r + c + 1; sum over r = 36 b + 3 c + 15.
  expectNear({15, 18, 21, 24, 51, 54, 57, 60}, runFloat(f));
  EXPECT_EQ(ints({15, 18, 21, 24, 51, 54, 57, 60}), runField(f, FieldTest(11)));
}

TEST_F(InterpreterTest, RmsNormMatmulKernelWithThreadGraph) {
  // The DESIGN §3.2 kernel at a small size: X imap [-1,-1,-1] fmap 1, W imap
  // [1,-1,-1] fmap 0, omap [1,-1,-1], post-loop thread graph broadcasting the
  // 2x1 rms over 2x2 tiles.
  func::FuncOp f = parse(R"(
    func.func @fused(%x: tensor<2x4xf32>, %w: tensor<4x6xf32>) -> tensor<2x6xf32> {
      %y = mk.graph_kernel (%x, %w) grid = [3, 1, 1] block = [32, 1, 1] forloop = 2 {
      ^bb0(%X: tensor<2x4xf32>, %W: tensor<4x6xf32>):
        %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x2xf32>) {
          %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
          %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4x6xf32> -> tensor<2x2xf32>
          %m = mb.matmul %xt, %wt : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
          %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x2xf32> -> tensor<2x1xf32>
          %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
          mb.yield %r, %s : tensor<2x1xf32>, tensor<2x2xf32>
        }
        %q = mt.thread_graph (%acc#1, %acc#0) : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32> {
        ^bb0(%a: f32, %b: f32):
          %d = mt.div %a, %b : f32
          mt.yield %d : f32
        }
        %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x6xf32>
        mb.return %o : tensor<2x6xf32>
      } : (tensor<2x4xf32>, tensor<4x6xf32>) -> tensor<2x6xf32>
      return %y : tensor<2x6xf32>
    }
    func.func @ref(%x: tensor<2x4xf32>, %w: tensor<4x6xf32>) -> tensor<2x6xf32> {
      %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x4xf32>
      %y = mk.matmul %n, %w : tensor<2x4xf32>, tensor<4x6xf32> -> tensor<2x6xf32>
      return %y : tensor<2x6xf32>
    })",
                         "fused");
  ASSERT_TRUE(f);
  func::FuncOp ref = module->lookupSymbol<func::FuncOp>("ref");
  // Hand computation: row r of x is 4r + [1,2,3,4], w[k, j] = 6k + j + 1.
  std::vector<double> want;
  for (int r = 0; r < 2; ++r) {
    double ss = 0;
    for (int k = 0; k < 4; ++k)
      ss += (4.0 * r + k + 1) * (4.0 * r + k + 1);
    double rms = std::sqrt(ss / 4 + 1e-6);
    for (int j = 0; j < 6; ++j) {
      double dot = 0;
      for (int k = 0; k < 4; ++k)
        dot += (4.0 * r + k + 1) * (6.0 * k + j + 1);
      want.push_back(dot / rms);
    }
  }
  expectNear(want, runFloat(f));
  expectNear(want, runFloat(ref));
  FieldTest test(12);
  EXPECT_EQ(runField(ref, test), runField(f, test));
}

/// One input-iterator / output-saver combination of the DESIGN §8 programs.
struct MapCase {
  std::array<int64_t, 3> grid;
  int64_t forloop;
  std::array<int64_t, 3> imap;
  int64_t fmap;
  std::array<int64_t, 3> omap;
};

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + "f32>";
}

std::string arrStr(ArrayRef<int64_t> a) {
  return "[" + std::to_string(a[0]) + ", " + std::to_string(a[1]) + ", " +
         std::to_string(a[2]) + "]";
}

TEST_F(InterpreterTest, MapCombinationsOfTheBenchmarkPrograms) {
  // Every (imap, fmap) and omap used by test/Programs, on a 4x8x8 input read
  // by an input iterator, summed over the loop and saved. The expectation is
  // computed here element by element from the DESIGN §3.2 formulas.
  const SmallVector<int64_t> shape = {4, 8, 8};
  const MapCase cases[] = {
      {{1, 1, 1}, 2, {-1, -1, -1}, -1, {-1, -1, -1}},
      {{1, 1, 1}, 2, {-1, -1, -1}, 0, {-1, -1, -1}},
      {{1, 1, 1}, 4, {-1, -1, -1}, 1, {-1, -1, -1}},
      {{2, 1, 1}, 2, {0, -1, -1}, -1, {0, -1, -1}},
      {{2, 1, 1}, 4, {0, -1, -1}, 2, {0, -1, -1}},
      {{2, 1, 2}, 2, {0, -1, 1}, -1, {0, -1, 1}},
      {{2, 2, 1}, 2, {0, 1, -1}, 1, {0, 1, -1}},
      {{2, 2, 1}, 2, {0, 1, -1}, 2, {0, 1, -1}},
      {{2, 2, 1}, 2, {0, 2, -1}, 2, {0, 2, -1}},
      {{2, 2, 2}, 2, {0, 2, 1}, 1, {0, 2, 1}},
      {{2, 1, 1}, 2, {1, -1, -1}, -1, {1, -1, -1}},
      {{2, 1, 1}, 2, {1, -1, -1}, 0, {1, -1, -1}},
  };
  for (const MapCase &c : cases) {
    std::string why;
    auto tile = mb::computeInputTileShape(shape, c.grid, c.forloop, c.imap,
                                          c.fmap, why);
    ASSERT_TRUE(succeeded(tile)) << why;
    auto out = mb::computeOutputShape(*tile, c.grid, c.omap, why);
    ASSERT_TRUE(succeeded(out)) << why;
    std::string in = shapeStr(shape), t = shapeStr(*tile), o = shapeStr(*out);
    std::string src =
        "func.func @f(%x: " + in + ") -> " + o + " {\n" +
        "  %y = mk.graph_kernel (%x) grid = " + arrStr(c.grid) +
        " block = [32, 1, 1] forloop = " + std::to_string(c.forloop) +
        " {\n  ^bb0(%X: " + in + "):\n" + "    %a = mb.for_loop -> (" + t +
        ") {\n" + "      %t = mb.input_iter %X imap = " + arrStr(c.imap) +
        " fmap = " + std::to_string(c.fmap) + " : " + in + " -> " + t + "\n" +
        "      %r = mb.accum_sum %t : " + t + " -> " + t + "\n" +
        "      mb.yield %r : " + t + "\n    }\n" +
        "    %o = mb.output_saver %a omap = " + arrStr(c.omap) + " : " + t +
        " -> " + o + "\n    mb.return %o : " + o + "\n  } : (" + in + ") -> " +
        o + "\n  return %y : " + o + "\n}\n";
    func::FuncOp f = parse(src, "f");
    ASSERT_TRUE(f) << src;

    // Expected: for every block and iteration, add the tile at its origin
    // into the block's accumulator, then write it at the saver's offset.
    std::vector<double> want(Tensor<double>::numElementsOf(*out), 0.0);
    auto at = [](ArrayRef<int64_t> idx, ArrayRef<int64_t> dims) {
      return (idx[0] * dims[1] + idx[1]) * dims[2] + idx[2];
    };
    const SmallVector<int64_t> &ts = *tile;
    for (int64_t bz = 0; bz < c.grid[2]; ++bz)
      for (int64_t by = 0; by < c.grid[1]; ++by)
        for (int64_t bx = 0; bx < c.grid[0]; ++bx) {
          int64_t b[3] = {bx, by, bz};
          std::vector<double> acc(ts[0] * ts[1] * ts[2], 0.0);
          for (int64_t i = 0; i < c.forloop; ++i) {
            int64_t off[3] = {0, 0, 0};
            for (int g = 0; g < 3; ++g)
              if (c.imap[g] >= 0)
                off[c.imap[g]] = b[g];
            if (c.fmap >= 0)
              off[c.fmap] = off[c.fmap] * c.forloop + i;
            for (int k = 0; k < 3; ++k)
              off[k] *= ts[k];
            for (int64_t u = 0; u < ts[0]; ++u)
              for (int64_t v = 0; v < ts[1]; ++v)
                for (int64_t w = 0; w < ts[2]; ++w)
                  acc[at({u, v, w}, ts)] +=
                      at({off[0] + u, off[1] + v, off[2] + w}, shape) + 1;
          }
          int64_t off[3] = {0, 0, 0};
          for (int g = 0; g < 3; ++g)
            if (c.omap[g] >= 0)
              off[c.omap[g]] = b[g] * ts[c.omap[g]];
          for (int64_t u = 0; u < ts[0]; ++u)
            for (int64_t v = 0; v < ts[1]; ++v)
              for (int64_t w = 0; w < ts[2]; ++w)
                want[at({off[0] + u, off[1] + v, off[2] + w}, *out)] =
                    acc[at({u, v, w}, ts)];
        }
    SCOPED_TRACE("imap " + arrStr(c.imap) + " fmap " + std::to_string(c.fmap) +
                 " omap " + arrStr(c.omap));
    // Blocks on one thread, and the blocks after the first split between
    // two threads (kernels of at least 3 blocks).
    for (const char *threads : {"1", "2"}) {
      SCOPED_TRACE(std::string("block threads ") + threads);
      BlockThreadsScope scope(threads);
      expectNear(want, runFloat(f));
      std::vector<FieldValue> field = runField(f, FieldTest(13));
      ASSERT_EQ(want.size(), field.size());
      for (size_t i = 0; i < want.size(); ++i)
        EXPECT_EQ(fieldFromInt(static_cast<int64_t>(want[i])), field[i]);
    }
  }
}

TEST_F(InterpreterTest, BlocksOnTwoThreadsReportTheFirstError) {
  // Block b divides its row x[b, :] by x[b, :] - s (iota inputs: row b
  // holds 4b + 1 ... 4b + 4): with s = 1 only block 0 divides by zero in the
  // field, with s = 29 only block 7 (in the helper thread's half). The
  // error is the same as on one thread.
  for (const char *shift : {"1.0", "29.0"}) {
    func::FuncOp f = parse(std::string(R"(
      func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
        %y = mk.graph_kernel (%x) grid = [8, 1, 1] block = [32, 1, 1] forloop = 1 {
        ^bb0(%X: tensor<8x4xf32>):
          %a = mb.for_loop -> (tensor<1x4xf32>) {
            %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<8x4xf32> -> tensor<1x4xf32>
            %d = mb.add_scalar %t, -)") + shift + R"( : tensor<1x4xf32>
            %q = mb.div %t, %d : tensor<1x4xf32>, tensor<1x4xf32> -> tensor<1x4xf32>
            %r = mb.accum_sum %q : tensor<1x4xf32> -> tensor<1x4xf32>
            mb.yield %r : tensor<1x4xf32>
          }
          %o = mb.output_saver %a omap = [0, -1, -1] : tensor<1x4xf32> -> tensor<8x4xf32>
          mb.return %o : tensor<8x4xf32>
        } : (tensor<8x4xf32>) -> tensor<8x4xf32>
        return %y : tensor<8x4xf32>
      })",
                           "f");
    ASSERT_TRUE(f) << shift;
    std::string messages[2];
    for (int threads = 1; threads <= 2; ++threads) {
      BlockThreadsScope scope(threads == 1 ? "1" : "2");
      EvalError err;
      EXPECT_FALSE(evaluateField(f, iotaField(f), FieldTest(5), err));
      EXPECT_EQ(EvalErrorKind::DivisionByZero, err.kind);
      messages[threads - 1] = err.message;
    }
    EXPECT_EQ(messages[0], messages[1]);
  }
}

//===----------------------------------------------------------------------===//
// Errors and the equivalence API
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, UnknownOpIsReported) {
  func::FuncOp f = parse(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = arith.addf %x, %x : tensor<2xf32>
      return %y : tensor<2xf32>
    })",
                         "f");
  ASSERT_TRUE(f);
  EvalError err;
  EXPECT_FALSE(evaluateFloat(f, iotaFloat(f), err));
  EXPECT_EQ(EvalErrorKind::Unsupported, err.kind);
  EXPECT_NE(std::string::npos, err.message.find("arith.addf"));
}

TEST_F(InterpreterTest, DivisionByFieldZeroIsUnknown) {
  func::FuncOp f = parse(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %z = mk.sub %x, %x : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
      %y = mk.div %x, %z : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
      return %y : tensor<2xf32>
    })",
                         "f");
  ASSERT_TRUE(f);
  EquivalenceResult r = checkEquivalence(f, f);
  EXPECT_EQ(Verdict::Unknown, r.verdict);
  EXPECT_NE(std::string::npos, r.reason.find("zero in the field"));
}

/// 2*(x w), (x w) + (x w) and x w: the first two are equal.
constexpr const char *kScaledMatmuls = R"(
    func.func @a(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
      %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
      %s = mk.mul_scalar %m, 2.0 : tensor<4x4xf32>
      return %s : tensor<4x4xf32>
    }
    func.func @b(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
      %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
      %s = mk.add %m, %m : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      return %s : tensor<4x4xf32>
    }
    func.func @c(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
      %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
      return %m : tensor<4x4xf32>
    })";

TEST_F(InterpreterTest, EquivalenceVerdictsAndBound) {
  func::FuncOp a = parse(kScaledMatmuls, "a");
  ASSERT_TRUE(a);
  auto b = module->lookupSymbol<func::FuncOp>("b");
  auto c = module->lookupSymbol<func::FuncOp>("c");
  EquivalenceOptions options;
  options.numTests = 3;
  EquivalenceResult eq = checkEquivalence(a, b, options);
  EXPECT_EQ(Verdict::Equivalent, eq.verdict);
  EXPECT_EQ(3u, eq.testsRun);
  EXPECT_TRUE(eq.boundIsRigorous);
  // Degree 2 outputs: 2/p per test, cubed.
  EXPECT_NEAR(std::pow(2.0 / kFieldP, 3), eq.falseEquivalentBound,
              1e-3 * std::pow(2.0 / kFieldP, 3));
  ASSERT_TRUE(eq.floatMaxRelDiff.has_value());
  EXPECT_EQ(0.0, *eq.floatMaxRelDiff);

  EquivalenceResult ne = checkEquivalence(a, c, options);
  ASSERT_EQ(Verdict::NotEquivalent, ne.verdict);
  ASSERT_TRUE(ne.counterexample.has_value());
  EXPECT_EQ(0u, ne.counterexample->outputIndex);
  EXPECT_EQ(2u, ne.counterexample->element.size());
  // Reference value is twice the candidate's, in the field and in float.
  EXPECT_EQ(ne.counterexample->referenceValue.p,
            mulModP(2, ne.counterexample->candidateValue.p));
  ASSERT_TRUE(ne.counterexample->referenceFloat.has_value());
  EXPECT_DOUBLE_EQ(*ne.counterexample->referenceFloat,
                   2 * *ne.counterexample->candidateFloat);
}

TEST_F(InterpreterTest, SignatureMismatchIsInvalid) {
  func::FuncOp a = parse(R"(
    func.func @a(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      return %x : tensor<4x8xf32>
    }
    func.func @b(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
      return %x : tensor<8x4xf32>
    })",
                         "a");
  ASSERT_TRUE(a);
  EquivalenceResult r =
      checkEquivalence(a, module->lookupSymbol<func::FuncOp>("b"));
  EXPECT_EQ(Verdict::Invalid, r.verdict);
  EXPECT_NE(std::string::npos, r.reason.find("argument #0"));
}

} // namespace

TEST_F(InterpreterTest, PastDeadlineStopsEvaluationAndChecks) {
  func::FuncOp a = parse(kScaledMatmuls, "a");
  ASSERT_TRUE(a);
  auto b = module->lookupSymbol<func::FuncOp>("b");
  Deadline past = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  EvalError err;
  EXPECT_FALSE(evaluateFloat(a, iotaFloat(a), err, nullptr, past));
  EXPECT_EQ(EvalErrorKind::Cancelled, err.kind);
  FieldTest test(1);
  EXPECT_FALSE(evaluateField(a, iotaField(a), test, err, nullptr, past));
  EXPECT_EQ(EvalErrorKind::Cancelled, err.kind);
  // Drawing inputs stops too.
  EXPECT_TRUE(randomFieldInputs(a, test, 1, past).empty());
  EXPECT_EQ(2u, randomFieldInputs(a, test, 1).size());

  EquivalenceOptions options;
  options.deadline = past;
  EquivalenceResult r = checkEquivalence(a, b, options);
  EXPECT_EQ(Verdict::Unknown, r.verdict);
  EXPECT_NE(std::string::npos, r.reason.find("time budget")) << r.reason;
  // A deadline in the future changes nothing.
  options.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  EXPECT_EQ(Verdict::Equivalent, checkEquivalence(a, b, options).verdict);
}

namespace {
TEST_F(InterpreterTest, ExpMatchesStdExpOverTheWholeRange) {
  // The bulk f64 exp (AVX-512 where the CPU has it) against std::exp: within
  // 4 ulp where the result is normal, the same infinities, zeros and NaN
  // beyond, on 4099 values (not a multiple of 8: the masked tail too).
  func::FuncOp f = parse(R"(
    func.func @f(%x: tensor<4099xf32>) -> tensor<4099xf32> {
      %y = mk.exp %x : tensor<4099xf32>
      return %y : tensor<4099xf32>
    })",
                         "f");
  ASSERT_TRUE(f);
  FloatTensor x({4099});
  for (int64_t i = 0; i < 4096; ++i)
    x.data[i] = -760.0 + 1485.0 * static_cast<double>(i) / 4095.0;
  x.data[4096] = INFINITY;
  x.data[4097] = -INFINITY;
  x.data[4098] = NAN;
  x.data[17] = 0.0;
  x.data[18] = -1e-300;
  x.data[19] = 709.78;
  x.data[20] = -708.5; // a subnormal result
  EvalError err;
  auto out = evaluateFloat(f, {x}, err);
  ASSERT_TRUE(out) << err.message;
  for (int64_t i = 0; i < 4099; ++i) {
    double want = std::exp(x.data[i]), got = (*out)[0].data[i];
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << x.data[i];
    } else if (want == 0.0 || std::isinf(want)) {
      EXPECT_EQ(want, got) << x.data[i];
    } else if (want < 2.3e-308) {
      EXPECT_NEAR(want, got, 1e-322) << x.data[i];
    } else {
      EXPECT_NEAR(want, got, 4 * std::numeric_limits<double>::epsilon() * want)
          << x.data[i];
    }
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// Selects by a mask tensor and the inputs of mask arguments
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, WhereKeepsOrFillsByTheMask) {
  func::FuncOp f = parse(R"(
    func.func @f(%m: tensor<1x4xf32>, %x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
      %k = mk.where %m, %x fill = -5.0 : tensor<1x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
      %i = mk.where %m, %x fill = -5.0 inverted : tensor<1x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
      return %k, %i : tensor<2x4xf32>, tensor<2x4xf32>
    })",
                         "f");
  ASSERT_TRUE(f);
  FloatTensor m({1, 4}), x({2, 4});
  m.data = {0.0, 1.0, 0.5, 0.0};
  for (int64_t i = 0; i < 8; ++i)
    x.data[i] = static_cast<double>(i);
  EvalError err;
  auto out = evaluateFloat(f, {m, x}, err);
  ASSERT_TRUE(out) << err.message;
  for (int64_t r = 0; r < 2; ++r) {
    for (int64_t c = 0; c < 4; ++c) {
      bool set = m.data[c] != 0;
      double v = x.data[r * 4 + c];
      EXPECT_EQ(set ? v : -5.0, (*out)[0].data[r * 4 + c]);
      EXPECT_EQ(set ? -5.0 : v, (*out)[1].data[r * 4 + c]);
    }
  }
}

TEST_F(InterpreterTest, MaskArgumentsGetZerosAndOnes) {
  // %m is only a mask (through 1 - m's ops and a reshape); %x is also a
  // mask but feeds an exp; %s is the selected value.
  func::FuncOp f = parse(R"(
    func.func @f(%m: tensor<64xf32>, %x: tensor<1x64xf32>, %s: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<1x64xf32>) {
      %n = mk.neg %m : tensor<64xf32>
      %k = mk.add_scalar %n, 1.0 : tensor<64xf32>
      %r = mk.reshape %k : tensor<64xf32> -> tensor<1x64xf32>
      %w = mk.where %r, %s fill = 0.0 : tensor<1x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
      %v = mk.where %x, %w fill = 0.0 : tensor<1x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
      %e = mk.exp %x : tensor<1x64xf32>
      return %v, %e : tensor<8x64xf32>, tensor<1x64xf32>
    })",
                         "f");
  ASSERT_TRUE(f);
  ArgumentLayout layout = argumentLayout(f);
  EXPECT_EQ((SmallVector<bool>{true, false, false}), layout.masks);
  std::vector<FloatTensor> in = randomFloatInputs(f, 7);
  ASSERT_EQ(3u, in.size());
  int64_t zeros = llvm::count(in[0].data, 0.0);
  EXPECT_EQ(64, zeros + llvm::count(in[0].data, 1.0));
  EXPECT_GT(zeros, 8);
  EXPECT_LT(zeros, 56);
  EXPECT_EQ(0, llvm::count(in[1].data, 0.0));
  EXPECT_EQ(0, llvm::count(in[1].data, 1.0));
}

//===----------------------------------------------------------------------===//
// Rounding to the element type
//===----------------------------------------------------------------------===//

namespace {

/// The float with bits `bits`.
float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

TEST_F(InterpreterTest, RoundsToHalfAsTheCastDoes) {
  Type f16 = Float16Type::get(&ctx);
  auto expectSameBits = [&](float x) {
    float want = static_cast<float>(static_cast<_Float16>(x));
    float got = roundToElementType(x, f16);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << x;
      return;
    }
    uint32_t a, b;
    std::memcpy(&a, &want, sizeof(a));
    std::memcpy(&b, &got, sizeof(b));
    EXPECT_EQ(a, b) << "at the float with bits 0x" << std::hex << [&] {
      uint32_t x32;
      std::memcpy(&x32, &x, sizeof(x32));
      return x32;
    }();
  };
  // Every float whose 13 low fraction bits are one of the cases of
  // rounding (zero, below, at and above half an f16 ulp, all ones), over
  // every exponent and sign: normals, f16 subnormals, overflow to inf, inf
  // and NaN.
  for (uint32_t high = 0; high < (1u << 19); ++high)
    for (uint32_t low :
         {0x0000u, 0x0001u, 0x0FFFu, 0x1000u, 0x1001u, 0x17FFu, 0x1FFFu})
      expectSameBits(fromBits((high << 13) | low));
  // f32 keeps its value; bf16 keeps its upper 16 bits, rounded.
  EXPECT_EQ(1.0f + 0x1p-20f,
            roundToElementType(1.0f + 0x1p-20f, Float32Type::get(&ctx)));
  EXPECT_EQ(1.0f, roundToElementType(1.0f + 0x1p-20f, BFloat16Type::get(&ctx)));
}

} // namespace
