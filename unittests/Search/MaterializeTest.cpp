//===- MaterializeTest.cpp - Candidates built as IR -------------*- C++ -*-===//
//
// White-box test of lib/Search's Materialize.h and of a candidate's
// identity (SearchIR.h): the candidates the enumeration finds for a few
// targets (matmuls with a norm, a gated MLP, element-wise chains with
// scalars and clamps, a masked softmax with a band mask and a where), built
// with builders at the real and at reduced shapes, print and parse back to
// the same IR, op for op and attribute for attribute (what crosses the cache
// and process boundaries comes back unchanged); and two candidates have the
// same key exactly when they build the same IR (deduplication by key never
// drops a distinct program, nor verifies one twice).
//
//===----------------------------------------------------------------------===//

#include "Materialize.h"
#include "Enumeration.h"
#include "TargetImport.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include "SearchTestSupport.h"

#include <map>
#include <vector>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;
using namespace mirage::search::detail;

namespace {

class MaterializeTest : public ::testing::Test {
protected:
  MaterializeTest() { loadSearchDialects(ctx); }

  static std::string print(Operation *op) {
    std::string s;
    llvm::raw_string_ostream os(s);
    op->print(os, OpPrintingFlags().printGenericOpForm());
    return s;
  }

  /// The generic form of `func` (names, attributes and types, all
  /// spelled out), under a fixed symbol name.
  static std::string generic(func::FuncOp func) {
    OwningOpRef<func::FuncOp> copy(func.clone());
    copy->setName("f");
    return print(*copy);
  }

  /// Checks the candidates with up to `numOps` kernel-level ops of the
  /// function in `src`: the round trip of about 60 per count of ops (spread
  /// over the enumeration's order) at two scales, the identity of up to 400;
  /// returns how many round trips were checked.
  unsigned checkCandidates(const char *src, unsigned numOps) {
    OwningOpRef<ModuleOp> input = parseSourceString<ModuleOp>(src, &ctx);
    EXPECT_TRUE(input);
    func::FuncOp func = *input->getOps<func::FuncOp>().begin();
    SuperoptimizeOptions options;
    options.maxBlockOps = 9;
    Target target;
    std::string error;
    EXPECT_TRUE(succeeded(importTarget(func, options, target, error))) << error;
    unsigned checked = 0;
    std::map<std::vector<int64_t>, std::string> irOfKey;
    std::map<std::string, std::vector<int64_t>> keyOfIr;
    for (unsigned n = 1; n <= numOps; ++n) {
      SuperoptimizeStats stats;
      std::vector<Candidate> found = enumerate(
          target, options, n, Clock::now() + std::chrono::seconds(60), stats);
      for (size_t i = 0; i < found.size() && i < 400; ++i) {
        const Candidate &c = found[i];
        OwningOpRef<ModuleOp> built = scratchModule(&ctx, target.smemLimit);
        std::string ir =
            generic(buildProgram(*built, c.prog, c.outputs, target.numInputs,
                                 target.extent, target.element, "f"));
        std::vector<int64_t> key(c.key().begin(), c.key().end());
        auto [k, newKey] = irOfKey.try_emplace(key, ir);
        EXPECT_EQ(k->second, ir) << "one key, two programs";
        auto [p, newIr] = keyOfIr.try_emplace(ir, key);
        EXPECT_TRUE(p->second == key) << "one program, two keys:\n" << ir;
      }
      size_t stride = std::max<size_t>(1, found.size() / 60);
      for (size_t i = 0; i < found.size(); i += stride) {
        const Candidate &c = found[i];
        Scale reduced;
        for (auto &[l, e] : target.extent)
          reduced[l] = std::min<int64_t>(e, 6);
        for (const Scale *scale : {&target.extent, &reduced}) {
          OwningOpRef<ModuleOp> built = scratchModule(&ctx, target.smemLimit);
          func::FuncOp f =
              buildProgram(*built, c.prog, c.outputs, target.numInputs, *scale,
                           target.element, "f");
          if (!verifiesQuietly(*built))
            continue;
          ProgramModule program(std::move(built));
          std::string text = program.print(), problem;
          FailureOr<ProgramModule> parsed =
              ProgramModule::parse(text, &ctx, problem);
          EXPECT_TRUE(succeeded(parsed)) << problem << "\n" << text;
          if (failed(parsed))
            continue;
          EXPECT_EQ(generic(parsed->func()), generic(f)) << text;
          EXPECT_EQ(parsed->module()->getAttrs(), program.module()->getAttrs());
          ++checked;
        }
      }
    }
    return checked;
  }

  MLIRContext ctx;
};

TEST_F(MaterializeTest, NormMatmulCandidatesRoundTripWithTheirIdentity) {
  EXPECT_GT(checkCandidates(kSmallRmsNormMatmul, 1), 10u);
}

TEST_F(MaterializeTest, GatedMlpCandidatesRoundTripWithTheirIdentity) {
  EXPECT_GT(checkCandidates(kSmallGatedMlp, 1), 10u);
}

TEST_F(MaterializeTest, ScalarsClampsAndReductionsRoundTripWithTheirIdentity) {
  EXPECT_GT(checkCandidates(R"mlir(
func.func @f(%x: tensor<8x32xf16>) -> tensor<8x1xf16> {
  %a = mk.mul_scalar %x, 5.000000e-01 : tensor<8x32xf16>
  %c = mk.clamp %a min = -2.000000e+00 max = 3.000000e+00 : tensor<8x32xf16>
  %b = mk.add_scalar %c, 1.000000e+00 : tensor<8x32xf16>
  %r = mk.reduce_max %b dim = 1 : tensor<8x32xf16> -> tensor<8x1xf16>
  return %r : tensor<8x1xf16>
}
)mlir",
                            1),
            5u);
}

TEST_F(MaterializeTest, MaskedSoftmaxCandidatesRoundTripWithTheirIdentity) {
  EXPECT_GT(checkCandidates(R"mlir(
func.func @f(%s: tensor<16x64xf16>, %m: tensor<1x64xf16>) -> tensor<16x64xf16> {
  %b = mk.band_mask %s dims = [0, 1] upper = 0 fill = 0xFFF0000000000000 : tensor<16x64xf16>
  %w = mk.where %m, %b fill = -1.000000e+04 inverted : tensor<1x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %e = mk.exp %w : tensor<16x64xf16>
  %r = mk.reduce_sum %e dim = 1 : tensor<16x64xf16> -> tensor<16x1xf16>
  %o = mk.div %e, %r : tensor<16x64xf16>, tensor<16x1xf16> -> tensor<16x64xf16>
  return %o : tensor<16x64xf16>
}
)mlir",
                            1),
            5u);
}

} // namespace
