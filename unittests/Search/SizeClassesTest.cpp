//===- SizeClassesTest.cpp - Size classes and generalisation --*- C++ -*-===//
//
// The pieces of the search per size class (docs/dynamic.md): the classes a
// size's facts leave, the sample sizes of a class, a static program
// generalised back to dynamic dims (and where that is refused), and the
// check of a program at sample sizes.
//
//===----------------------------------------------------------------------===//

#include "SearchTestSupport.h"

#include "Mirage/Search/SizeClasses.h"
#include "Mirage/Transforms/GeneralizeSizes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

struct SizeClassesTest : ::testing::Test {
  MLIRContext ctx;
  SizeClassesTest() { loadSearchDialects(ctx); }
  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, &ctx);
  }
};

TEST_F(SizeClassesTest, ClassesFollowTheFacts) {
  mk::DynamicSize size;
  size.name = "tokens";
  size.max = 100;
  size.divisor = 8;
  // 1 is not a multiple of 8: that class goes; the last one ends at 100.
  // Each is searched at the admitted power of two nearest its geometric
  // middle (sqrt(2 * 16) = 5.7: 8; sqrt(17 * 64) = 33: 32); 65..100 holds
  // no power of two: its largest multiple of 8.
  SmallVector<SizeClass> classes =
      makeSizeClasses(size, defaultSizeClassBounds());
  ASSERT_EQ(3u, classes.size());
  EXPECT_EQ(2, classes[0].lo);
  EXPECT_EQ(16, classes[0].hi);
  EXPECT_EQ(8, classes[0].representative);
  EXPECT_EQ(17, classes[1].lo);
  EXPECT_EQ(32, classes[1].representative);
  EXPECT_EQ(65, classes[2].lo);
  EXPECT_EQ(100, classes[2].hi);
  EXPECT_EQ(96, classes[2].representative);
  // The largest admitted values, searched where nothing found at the
  // representative holds over the class.
  EXPECT_EQ(16, classes[0].largest);
  EXPECT_EQ(64, classes[1].largest);
  EXPECT_EQ(96, classes[2].largest);

  // Without a max the last class ends at the last bound.
  mk::DynamicSize open;
  classes = makeSizeClasses(open, defaultSizeClassBounds());
  ASSERT_EQ(5u, classes.size());
  EXPECT_EQ(1, classes[0].representative);
  EXPECT_EQ(257, classes[4].lo);
  EXPECT_EQ(1024, classes[4].representative);
  // A class with no admitted power of two: its largest admitted value.
  mk::DynamicSize odd;
  odd.divisor = 3;
  odd.max = 12;
  classes = makeSizeClasses(odd, {16});
  ASSERT_EQ(1u, classes.size());
  EXPECT_EQ(12, classes[0].representative);
}

TEST_F(SizeClassesTest, RepresentativesAvoidStaticExtents) {
  // A decode attention over heads of 128 (static extents 4 and 128): the
  // key length's 65-256 class is searched at 128 and, where the program
  // found there cannot be generalised (128 could not be told from the
  // heads' dim), at the nearest power of two or three times one that no
  // static dim has (96; sqrt(65 * 256) = 129).
  mk::DynamicSize kv;
  kv.name = "kv";
  kv.max = 4096;
  SmallVector<SizeClass> classes =
      makeSizeClasses(kv, defaultSizeClassBounds(), {4, 128});
  ASSERT_EQ(5u, classes.size());
  EXPECT_EQ(128, classes[3].representative);
  EXPECT_EQ(96, classes[3].avoiding);
  // 1, 8 (2-16), 32 (17-64) and 1024 (257-4096) collide with nothing.
  for (size_t i : {0, 1, 2, 4})
    EXPECT_EQ(0, classes[i].avoiding);
  // The class of one value has nothing else.
  EXPECT_EQ(0, makeSizeClasses(kv, {1, 16}, {1})[0].avoiding);
}

// A dynamic RMSNorm+MatMul kernel with 8-row tiles.
constexpr StringLiteral kDynamicKernel = R"mlir(
func.func @f(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 64>]}, %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [3, ?, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<?x64xf16>, %W: tensor<64x48xf16>):
    %acc:2 = mb.for_loop -> (tensor<8x1xf16>, tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<?x64xf16> -> tensor<8x32xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<64x48xf16> -> tensor<32x16xf16>
      %m = mb.matmul %xt, %wt : tensor<8x32xf16>, tensor<32x16xf16> -> tensor<8x16xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<8x32xf16> -> tensor<8x1xf16>
      %s = mb.accum_sum %m : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %r, %s : tensor<8x1xf16>, tensor<8x16xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<8x16xf16>, tensor<8x1xf16> -> tensor<8x16xf16>
    %o = mb.output_saver %q omap = [1, 0, -1] : tensor<8x16xf16> -> tensor<?x48xf16>
    mb.return %o : tensor<?x48xf16>
  } : (tensor<?x64xf16>, tensor<64x48xf16>) -> tensor<?x48xf16>
  return %y : tensor<?x48xf16>
}
func.func @ref(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 64>]}, %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x64xf16>
  %o = mk.matmul %n, %w : tensor<?x64xf16>, tensor<64x48xf16> -> tensor<?x48xf16>
  return %o : tensor<?x48xf16>
}
func.func @wrong(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 64>]}, %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %o = mk.matmul %x, %w : tensor<?x64xf16>, tensor<64x48xf16> -> tensor<?x48xf16>
  return %o : tensor<?x48xf16>
}
)mlir";

/// A size `name` of at most `max`.
static mk::DynamicSize sizeUpTo(StringRef name, int64_t max) {
  mk::DynamicSize size;
  size.name = name.str();
  size.max = max;
  return size;
}

TEST_F(SizeClassesTest, SamplesCoverBoundsMultiplesAndTails) {
  OwningOpRef<ModuleOp> module = parse(kDynamicKernel);
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  mk::DynamicSize size = sizeUpTo("tokens", 64);
  SizeClass c{17, 64, 64};
  SmallVector<int64_t> samples = classSamples(c, size, f);
  // The bounds, a multiple of the 8-row tile and one past it.
  EXPECT_EQ((SmallVector<int64_t>{17, 24, 25, 64}), samples);
  SizeClass one{1, 1, 1};
  EXPECT_EQ((SmallVector<int64_t>{1}), classSamples(one, size, f));
}

/// Points of the one size "tokens".
static SmallVector<SizePoint> tokens(ArrayRef<int64_t> values) {
  SmallVector<SizePoint> points;
  for (int64_t v : values)
    points.push_back({{"tokens", v}});
  return points;
}

TEST_F(SizeClassesTest, NumericsAtOneSampleOfEachTailOfRows) {
  OwningOpRef<ModuleOp> module = parse(kDynamicKernel);
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  // Rows of 8-row tiles: one sample of each residue modulo 8, the smallest.
  EXPECT_EQ(tokens({17, 24}), numericsPoints(tokens({64, 17, 25, 24}), f));
}

// Blocks along a `?` grid dim that combine the rows they hold: each block
// subtracts the maximum of its own 8 rows (a maximum across the rows held
// whole at the size searched, wrong once there are several blocks).
constexpr StringLiteral kCombiningBlocks = R"mlir(
func.func @combining(%x: tensor<?x16xf32> {mk.sizes = [#mk.size<name = "tokens", max = 64>]}) -> tensor<?x16xf32> {
  %y = mk.graph_kernel (%x) grid = [?, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<?x16xf32>):
    %t = mb.for_loop -> (tensor<8x16xf32>) {
      %x8 = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<?x16xf32> -> tensor<8x16xf32>
      %s = mb.accum_sum %x8 : tensor<8x16xf32> -> tensor<8x16xf32>
      mb.yield %s : tensor<8x16xf32>
    }
    %m = mb.reduce_max %t dim = 0 : tensor<8x16xf32> -> tensor<1x16xf32>
    %d = mb.sub %t, %m : tensor<8x16xf32>, tensor<1x16xf32> -> tensor<8x16xf32>
    %o = mb.output_saver %d omap = [0, -1, -1] : tensor<8x16xf32> -> tensor<?x16xf32>
    mb.return %o : tensor<?x16xf32>
  } : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
func.func @column_max(%x: tensor<?x16xf32> {mk.sizes = [#mk.size<name = "tokens", max = 64>]}) -> tensor<1x16xf32> {
  %m = mk.reduce_max %x dim = 0 : tensor<?x16xf32> -> tensor<1x16xf32>
  return %m : tensor<1x16xf32>
}
)mlir";

TEST_F(SizeClassesTest, RowwiseProgramsAreCheckedAtOnePeriodAndTheirTail) {
  OwningOpRef<ModuleOp> module = parse(kDynamicKernel);
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  auto ref = module->lookupSymbol<func::FuncOp>("ref");
  // 8-row tiles over a `?` grid dim; the reference has no kernels.
  EXPECT_EQ(std::optional<int64_t>(8), rowwisePeriod(f));
  EXPECT_EQ(std::optional<int64_t>(1), rowwisePeriod(ref));
  mk::DynamicSize size = sizeUpTo("tokens", 64);
  // Past 8 rows, one tile and the same last tile: 17 and 25 at 9, the
  // multiples at 8.
  EXPECT_EQ(tokens({1, 8, 9}),
            rowwisePoints(tokens({1, 8, 17, 24, 25, 64}), ref, f, {size}));
  // A divisor of 16 joins the period (64 would not come down to 8).
  size.divisor = 16;
  EXPECT_EQ(tokens({16}), rowwisePoints(tokens({16, 64}), ref, f, {size}));
  // A value the size would not admit stays.
  size.divisor = 1;
  size.min = 16;
  EXPECT_EQ(tokens({17, 64}), rowwisePoints(tokens({17, 64}), ref, f, {size}));
  // The check at the points brought down still tells a wrong program.
  std::string why;
  verify::EquivalenceOptions options;
  options.numTests = 1;
  auto wrong = module->lookupSymbol<func::FuncOp>("wrong");
  EXPECT_TRUE(failed(checkAtPoints(
      ref, wrong,
      rowwisePoints(tokens({64}), ref, wrong, {sizeUpTo("tokens", 64)}), {},
      options, why)));

  OwningOpRef<ModuleOp> combining = parse(kCombiningBlocks);
  ASSERT_TRUE(combining);
  auto blocks = combining->lookupSymbol<func::FuncOp>("combining");
  auto kernel = cast<mk::GraphKernelOp>(&blocks.getBody().front().front());
  EXPECT_TRUE(failed(mb::checkBlocksIndependent(
      cast<GraphKernelOpInterface>(kernel.getOperation()), 0, why)));
  EXPECT_EQ("'mb.reduce_max' combines the elements of dim 0 of operand #0, "
            "which grid dim 0 partitions",
            why);
  // Neither a program whose blocks combine along the size nor one that
  // reduces across it outside its kernels is checked anywhere but where
  // asked.
  EXPECT_EQ(std::nullopt, rowwisePeriod(blocks));
  auto columnMax = combining->lookupSymbol<func::FuncOp>("column_max");
  EXPECT_EQ(std::nullopt, rowwisePeriod(columnMax));
  EXPECT_EQ(tokens({9, 64}), rowwisePoints(tokens({9, 64}), ref, blocks,
                                           {sizeUpTo("tokens", 64)}));
}

TEST_F(SizeClassesTest, PointsVaryEachSizeAndThenAll) {
  OwningOpRef<ModuleOp> module = parse(kDynamicKernel);
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  mk::DynamicSize size = sizeUpTo("tokens", 64);
  SizeClass c{17, 64, 64};
  HeldSize held{sizeUpTo("kv", 100), SizeClass{1, 100, 64}};
  SmallVector<SizePoint> points = classPoints(c, size, {held}, f);
  // tokens over its class with kv at 64; kv over its range with tokens at
  // 64; then both at their second-smallest samples.
  SmallVector<SizePoint> expected;
  for (int64_t t : {17, 24, 25, 64})
    expected.push_back({{"tokens", t}, {"kv", 64}});
  for (int64_t v : {1, 8, 9, 100})
    if (v != 64)
      expected.push_back({{"tokens", 64}, {"kv", v}});
  expected.push_back({{"tokens", 24}, {"kv", 8}});
  EXPECT_EQ(expected, points);
  EXPECT_EQ("kv=8, tokens=24", describePoint(points.back()));
  // One size: its samples.
  EXPECT_EQ(tokens({17, 24, 25, 64}), classPoints(c, size, {}, f));
}

TEST_F(SizeClassesTest, CheckAtSamplesNamesTheFailingSize) {
  OwningOpRef<ModuleOp> module = parse(kDynamicKernel);
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  auto ref = module->lookupSymbol<func::FuncOp>("ref");
  auto wrong = module->lookupSymbol<func::FuncOp>("wrong");
  verify::EquivalenceOptions options;
  std::string why;
  EXPECT_TRUE(succeeded(checkAtPoints(ref, f, tokens({1, 7, 8, 9, 64}),
                                      tokens({9}), options, why)))
      << why;
  EXPECT_TRUE(failed(checkAtPoints(ref, wrong, tokens({3}), {}, options, why)));
  EXPECT_NE(std::string::npos, why.find("at tokens=3: not equivalent")) << why;
  // The modelled time over sizes is the mean of the times at each.
  FailureOr<double> small = modelledTimeOver(f, tokens({1}), "sm_90");
  FailureOr<double> large = modelledTimeOver(f, tokens({64}), "sm_90");
  FailureOr<double> both = modelledTimeOver(f, tokens({1, 64}), "sm_90");
  ASSERT_TRUE(succeeded(small) && succeeded(large) && succeeded(both));
  EXPECT_GT(*small, 0.0);
  EXPECT_DOUBLE_EQ((*small + *large) / 2, *both);
  EXPECT_TRUE(failed(modelledTimeOver(f, {}, "sm_90")));
}

// The static kernel the search finds at 24 rows: 3 blocks of 8 rows on y.
constexpr StringLiteral kSpecialised = R"mlir(
func.func @found(%x: tensor<24x64xf16>, %w: tensor<64x48xf16>) -> tensor<24x48xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [3, 3, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<24x64xf16>, %W: tensor<64x48xf16>):
    %acc:2 = mb.for_loop -> (tensor<8x1xf16>, tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<24x64xf16> -> tensor<8x32xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<64x48xf16> -> tensor<32x16xf16>
      %m = mb.matmul %xt, %wt : tensor<8x32xf16>, tensor<32x16xf16> -> tensor<8x16xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<8x32xf16> -> tensor<8x1xf16>
      %s = mb.accum_sum %m : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %r, %s : tensor<8x1xf16>, tensor<8x16xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<8x16xf16>, tensor<8x1xf16> -> tensor<8x16xf16>
    %o = mb.output_saver %q omap = [1, 0, -1] : tensor<8x16xf16> -> tensor<24x48xf16>
    mb.return %o : tensor<24x48xf16>
  } : (tensor<24x64xf16>, tensor<64x48xf16>) -> tensor<24x48xf16>
  return %y : tensor<24x48xf16>
}
// One block covers all 4 rows: the free grid dim z takes them.
func.func @whole(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x64xf32>):
    %acc = mb.for_loop -> (tensor<4x32xf32>) {
      %t = mb.input_iter %X imap = [1, -1, -1] fmap = -1 : tensor<4x64xf32> -> tensor<4x32xf32>
      %s = mb.accum_sum %t : tensor<4x32xf32> -> tensor<4x32xf32>
      mb.yield %s : tensor<4x32xf32>
    }
    %e = mb.exp %acc : tensor<4x32xf32>
    %o = mb.output_saver %e omap = [1, -1, -1] : tensor<4x32xf32> -> tensor<4x64xf32>
    mb.return %o : tensor<4x64xf32>
  } : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
func.func @whole_dynamic(%x: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x64xf32> {
  %y = mk.exp %x : tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
// The loop walks the rows: a '?' loop walks them at every size, the sum
// reading the iterator's zeros past the end. (Only the dynamic function's
// signature matters.)
func.func @walked(%x: tensor<4x64xf32>) -> tensor<2x64xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x64xf32>):
    %acc = mb.for_loop -> (tensor<2x64xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 0 : tensor<4x64xf32> -> tensor<2x64xf32>
      %s = mb.accum_sum %t : tensor<2x64xf32> -> tensor<2x64xf32>
      mb.yield %s : tensor<2x64xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x64xf32> -> tensor<2x64xf32>
    mb.return %o : tensor<2x64xf32>
  } : (tensor<4x64xf32>) -> tensor<2x64xf32>
  return %y : tensor<2x64xf32>
}
func.func private @walked_dynamic(tensor<?x64xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<2x64xf32>
// A mean across the walked columns: a tail would count the columns past
// the end.
func.func @walked_mean(%x: tensor<2x8xf32>) -> tensor<2x1xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x8xf32>):
    %acc = mb.for_loop -> (tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
      %s = mb.accum_mean_last %t : tensor<2x4xf32> -> tensor<2x1xf32>
      mb.yield %s : tensor<2x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x1xf32> -> tensor<2x1xf32>
    mb.return %o : tensor<2x1xf32>
  } : (tensor<2x8xf32>) -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}
func.func private @walked_mean_dynamic(tensor<2x?xf32> {mk.sizes = [#mk.size<name = "cols">]}) -> tensor<2x1xf32>
)mlir";

TEST_F(SizeClassesTest, GeneralizesTheGridDimOfTheSize) {
  OwningOpRef<ModuleOp> module = parse(kSpecialised);
  ASSERT_TRUE(module);
  OwningOpRef<ModuleOp> dynamic = parse(kDynamicKernel);
  ASSERT_TRUE(dynamic);
  auto found = module->lookupSymbol<func::FuncOp>("found");
  std::string why;
  ASSERT_TRUE(succeeded(
      generalizeSizes(found, dynamic->lookupSymbol<func::FuncOp>("ref"), why)))
      << why;
  auto kernel = cast<mk::GraphKernelOp>(&found.getBody().front().front());
  EXPECT_EQ(3, kernel.getGrid()[0]);
  EXPECT_TRUE(ShapedType::isDynamic(kernel.getGrid()[1]));
  EXPECT_EQ("tensor<?x48xf16>",
            llvm::formatv("{0}", kernel.getResult(0).getType()).str());
  EXPECT_TRUE(found.getArgAttr(0, mk::MKDialect::kSizesAttrName));
}

TEST_F(SizeClassesTest, GivesAWholeTileAFreeGridDim) {
  OwningOpRef<ModuleOp> module = parse(kSpecialised);
  ASSERT_TRUE(module);
  auto whole = module->lookupSymbol<func::FuncOp>("whole");
  std::string why;
  ASSERT_TRUE(succeeded(generalizeSizes(
      whole, module->lookupSymbol<func::FuncOp>("whole_dynamic"), why)))
      << why;
  auto kernel = cast<mk::GraphKernelOp>(&whole.getBody().front().front());
  EXPECT_TRUE(ShapedType::isDynamic(kernel.getGrid()[1]));
  mb::InputIterOp it;
  kernel.getBody().walk([&](mb::InputIterOp op) { it = op; });
  EXPECT_EQ((SmallVector<int64_t>{1, 0, -1}),
            SmallVector<int64_t>(it.getImap()));
}

TEST_F(SizeClassesTest, WalksADynamicDimWithADynamicLoop) {
  OwningOpRef<ModuleOp> module = parse(kSpecialised);
  ASSERT_TRUE(module);
  auto walked = module->lookupSymbol<func::FuncOp>("walked");
  std::string why;
  ASSERT_TRUE(succeeded(generalizeSizes(
      walked, module->lookupSymbol<func::FuncOp>("walked_dynamic"), why)))
      << why;
  auto kernel = cast<mk::GraphKernelOp>(&walked.getBody().front().front());
  EXPECT_TRUE(ShapedType::isDynamic(kernel.getForloop()));
  EXPECT_EQ(llvm::to_vector(kernel.getGrid()),
            (SmallVector<int64_t>{1, 1, 1}));
  // The sum reads the iterator's zeros: no mask.
  bool masked = false;
  kernel.walk([&](mb::TailMaskOp) { masked = true; });
  EXPECT_FALSE(masked);
  // A walked size changes how many values each sum adds: the numerics
  // check runs at every sample, and so do the others.
  EXPECT_EQ(std::nullopt, rowwisePeriod(walked));
  EXPECT_EQ(tokens({5, 64, 65, 4096}),
            numericsPoints(tokens({5, 64, 65, 4096}), walked));
}

// A row sum found at 8 rows of 16 columns: the grid splits the rows, one
// trip holds the columns whole. With rows and columns two dynamic sizes the
// generalisation tells them apart by their extents at the values searched.
constexpr StringLiteral kTwoSizes = R"mlir(
func.func @sum_rows(%x: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %0 = mk.graph_kernel(%x) grid = [4, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%a: tensor<8x16xf32>):
    %r = mb.for_loop -> (tensor<2x1xf32>) {
      %t = mb.input_iter %a imap = [0, -1, -1] fmap = -1 : tensor<8x16xf32> -> tensor<2x16xf32>
      %s = mb.accum_sum_last %t : tensor<2x16xf32> -> tensor<2x1xf32>
      mb.yield %s : tensor<2x1xf32>
    }
    %o = mb.output_saver %r omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<8x1xf32>
    mb.return %o : tensor<8x1xf32>
  } : (tensor<8x16xf32>) -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}
func.func @sum_rows_dynamic(%x: tensor<?x?xf32> {mk.sizes = [#mk.size<name = "rows">, #mk.size<name = "cols">]}) -> tensor<?x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<?x?xf32> -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}
)mlir";

TEST_F(SizeClassesTest, GeneralizesTwoSizesByTheirExtents) {
  OwningOpRef<ModuleOp> module = parse(kTwoSizes);
  ASSERT_TRUE(module);
  auto found = module->lookupSymbol<func::FuncOp>("sum_rows");
  std::string why;
  // Rows searched at 8 (up to 16), columns at 16 (up to 64).
  ASSERT_TRUE(succeeded(generalizeSizes(
      found, module->lookupSymbol<func::FuncOp>("sum_rows_dynamic"), why,
      {{8, 16}, {16, 64}})))
      << why;
  auto kernel = cast<mk::GraphKernelOp>(&found.getBody().front().front());
  // The rows keep their grid dim, now '?'; the columns, held whole in one
  // trip and summed, are walked by a '?' loop in tiles of their largest 64.
  EXPECT_TRUE(ShapedType::isDynamic(kernel.getGrid()[0]));
  EXPECT_EQ(1, kernel.getGrid()[1]);
  EXPECT_TRUE(ShapedType::isDynamic(kernel.getForloop()));
  mb::InputIterOp it;
  kernel.getBody().walk([&](mb::InputIterOp op) { it = op; });
  EXPECT_EQ(1, static_cast<int64_t>(it.getFmap()));
  EXPECT_EQ((SmallVector<int64_t>{2, 64}),
            SmallVector<int64_t>(it.getType().getShape()));
  // Where two sizes were searched at the whole tile's extent, the smaller
  // bound holds: the tile stays 16.
  OwningOpRef<ModuleOp> again = parse(kTwoSizes);
  auto both = again->lookupSymbol<func::FuncOp>("sum_rows");
  ASSERT_TRUE(succeeded(generalizeSizes(
      both, again->lookupSymbol<func::FuncOp>("sum_rows_dynamic"), why,
      {{16, 16}, {16, 64}})))
      << why;
  both.walk([&](mb::InputIterOp op) { it = op; });
  EXPECT_EQ((SmallVector<int64_t>{2, 16}),
            SmallVector<int64_t>(it.getType().getShape()));
}

TEST_F(SizeClassesTest, RefusesAMeanAcrossTheWalkedDim) {
  OwningOpRef<ModuleOp> module = parse(kSpecialised);
  ASSERT_TRUE(module);
  std::string why;
  EXPECT_TRUE(failed(generalizeSizes(
      module->lookupSymbol<func::FuncOp>("walked_mean"),
      module->lookupSymbol<func::FuncOp>("walked_mean_dynamic"), why)));
  EXPECT_EQ("'mb.accum_mean_last' divides by the count of the walked "
            "elements, which a tail would change",
            why);
}

} // namespace
