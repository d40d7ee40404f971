//===- InterpreterTestSupport.h - Fixture of the interpreter tests -*- C++ -*-===//
//
// The fixture (parse a function, run it on iota inputs in either domain) and
// the comparisons shared by the interpreter's test files.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_UNITTESTS_VERIFY_INTERPRETERTESTSUPPORT_H
#define MIRAGE_UNITTESTS_VERIFY_INTERPRETERTESTSUPPORT_H

#include "Mirage/InitMirage.h"
#include "Mirage/Verify/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <cmath>
#include <vector>

namespace mirage::verify::test {

using namespace mlir;

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect, arith::ArithDialect>();
    registerAllMirageDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Parses `src` (which must verify) and returns function `name`.
  func::FuncOp parse(StringRef src, StringRef name) {
    module = parseSourceString<ModuleOp>(src, &ctx);
    if (!module)
      return nullptr;
    return module->lookupSymbol<func::FuncOp>(name);
  }

  /// Float inputs 1, 2, 3, ... for every argument.
  static std::vector<FloatTensor> iotaFloat(func::FuncOp f) {
    std::vector<FloatTensor> in;
    for (Type t : f.getFunctionType().getInputs()) {
      FloatTensor x(cast<RankedTensorType>(t).getShape());
      for (size_t i = 0; i < x.data.size(); ++i)
        x.data[i] = static_cast<double>(i + 1);
      in.push_back(std::move(x));
    }
    return in;
  }
  static std::vector<FieldTensor> iotaField(func::FuncOp f) {
    std::vector<FieldTensor> in;
    for (Type t : f.getFunctionType().getInputs()) {
      FieldTensor x(cast<RankedTensorType>(t).getShape());
      for (size_t i = 0; i < x.data.size(); ++i)
        x.data[i] = fieldFromInt(i + 1);
      in.push_back(std::move(x));
    }
    return in;
  }

  /// Output #0 of `f` on iota inputs in float.
  std::vector<double> runFloat(func::FuncOp f) {
    EvalError err;
    auto out = evaluateFloat(f, iotaFloat(f), err);
    EXPECT_TRUE(out.has_value()) << err.message;
    return out ? std::vector<double>((*out)[0].data.begin(),
                                     (*out)[0].data.end())
               : std::vector<double>();
  }
  std::vector<FieldValue> runField(func::FuncOp f, const FieldTest &test) {
    EvalError err;
    auto out = evaluateField(f, iotaField(f), test, err);
    EXPECT_TRUE(out.has_value()) << err.message;
    return out ? std::vector<FieldValue>((*out)[0].data.begin(),
                                         (*out)[0].data.end())
               : std::vector<FieldValue>();
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

inline void expectNear(const std::vector<double> &expected,
                const std::vector<double> &actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(expected[i], actual[i],
                1e-9 * std::max(1.0, std::fabs(expected[i])))
        << "element " << i;
}

inline std::vector<FieldValue> ints(std::initializer_list<int64_t> values) {
  std::vector<FieldValue> r;
  for (int64_t v : values)
    r.push_back(fieldFromInt(v));
  return r;
}
} // namespace mirage::verify::test

#endif // MIRAGE_UNITTESTS_VERIFY_INTERPRETERTESTSUPPORT_H
