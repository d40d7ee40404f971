//===- ImportEval.h - Evaluation of an imported program -------------------===//
//
// The import side of the differential check: a function after
// `mirage-import` is evaluated as a whole, in program order. Its mk parts
// (the outlined `@F_mk<N>` calls, mk ops, and the reshapes between them)
// go to the interpreter; every maximal run of ops left outside mk becomes a
// function of its own that upstream MLIR's CPU path lowers and runs. Values
// pass between the two as host tensors. See docs/import.md.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_MIRAGE_RUN_IMPORTEVAL_H
#define MIRAGE_TOOLS_MIRAGE_RUN_IMPORTEVAL_H

#include "UpstreamRun.h"

#include "Mirage/Verify/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mirage::run {

class ImportedProgram {
public:
  /// Splits `func` (of `module`, imported and widened to f32; the program
  /// keeps `module`) into interpreter and upstream steps. Returns nullptr
  /// with the reason in `why` when the function cannot be evaluated this
  /// way (control flow, an mk call inside an op left outside, a value
  /// between the steps that is not a static tensor); `lowering` is then
  /// set when the reason is that the ops left outside do not lower. With
  /// `outsideIn`, the ops left outside compute in that float type (f64: the
  /// precision of the interpreter), their operands and results converted.
  static std::unique_ptr<ImportedProgram>
  create(mlir::OwningOpRef<mlir::ModuleOp> module, mlir::func::FuncOp func,
         std::string &why, bool &lowering,
         mlir::FloatType outsideIn = nullptr);
  ~ImportedProgram();

  /// Evaluates the program on `inputs` (one per argument of the function):
  /// the mk steps in f64 (evaluateFloat) or, with `f32`, in f32
  /// arithmetic (evaluateKernelPrecision of the f32-widened steps). The
  /// outputs, or nullopt with the reason in `why`. `fault` ("mk" or
  /// "outside"; a test of the check itself) adds 1 to the first element of
  /// the first result of every step of that kind.
  std::optional<std::vector<verify::FloatTensor>>
  evaluate(llvm::ArrayRef<verify::FloatTensor> inputs, bool f32,
           llvm::StringRef fault, std::string &why);

  /// mk ops evaluated by the interpreter, outlined mk calls among them.
  unsigned numMkOps = 0, numCalls = 0;
  /// Ops left outside mk (top level), and the functions they form.
  unsigned numOutsideOps = 0, numSegments = 0;
  /// Time in the interpreter and in the upstream code (summed over runs).
  double interpreterMs = 0, upstreamMs = 0;

private:
  struct Step;
  ImportedProgram() = default;
  mlir::OwningOpRef<mlir::ModuleOp> imported, mkSteps;
  std::unique_ptr<UpstreamProgram> upstream;
  mlir::func::FuncOp func;
  std::vector<Step> steps;
  /// The float type of the buffers of the upstream steps (null: their own).
  mlir::FloatType outsideIn;
};

} // namespace mirage::run

#endif // MIRAGE_TOOLS_MIRAGE_RUN_IMPORTEVAL_H
