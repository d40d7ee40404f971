//===- mirage-run.cpp - Run a lowered uGraph against the interpreter ------===//
//
// Reads a function of mk ops (input form or superoptimized), lowers it with
// the project's `mirage-to-cpu` pipeline, JIT-compiles it with MLIR's
// ExecutionEngine, feeds it seeded inputs and compares every output with the
// f64 interpreter of lib/Verify on the same (element-type rounded) inputs.
// See docs/running.md.
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitMirage.h"
#include "Mirage/Verify/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<input file>"), cl::init("-"));
static cl::opt<std::string>
    funcName("func",
             cl::desc("Function to run (default: the only function "
                      "with a body, or the first one)"),
             cl::init(""));
static cl::opt<std::string>
    device("device", cl::desc("cpu (OpenMP) or gpu (CUDA)"), cl::init("cpu"));
static cl::opt<unsigned> threads("omp-threads",
                                 cl::desc("OpenMP threads per thread block "
                                          "(mirage-to-cpu threads=N)"),
                                 cl::init(2));
static cl::opt<uint64_t>
    seed("input-seed", cl::desc("Seed of the random inputs"), cl::init(1));
static cl::opt<unsigned>
    repeat("runs", cl::desc("Timed runs after the first one"), cl::init(1));
static cl::opt<double> inputScale(
    "input-scale",
    cl::desc("Multiplies the uniform [-1, 1) inputs (programs whose f16 "
             "intermediates overflow at scale 1, e.g. exp of a long dot "
             "product)"),
    cl::init(1.0));
static cl::opt<double>
    tolScale("tol-scale", cl::desc("Multiplies the tolerances"), cl::init(1.0));
static cl::opt<std::string> ompLib("omp-lib",
                                   cl::desc("OpenMP runtime library to load"),
                                   cl::init(MIRAGE_RUN_DEFAULT_OMP));
static cl::opt<std::string>
    gpuRuntimeLib("gpu-runtime-lib",
                  cl::desc("Mirage CUDA runtime library (--device=gpu)"),
                  cl::init(MIRAGE_RUN_DEFAULT_GPU_RUNTIME));

namespace {

int fail(const llvm::Twine &msg) {
  llvm::errs() << "mirage-run: " << msg << "\n";
  return 1;
}

/// Storage of one argument in the element type of the lowered code.
struct Buffer {
  Type elem;
  SmallVector<int64_t, 4> shape;
  std::vector<uint8_t> bytes;
  unsigned width = 4;
};

uint16_t toHalfBits(float x, Type elem) {
  const llvm::fltSemantics &sem =
      elem.isF16() ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat();
  llvm::APFloat f(x);
  bool lost;
  f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

/// f16/bf16 bits to float through a table (outputs can have 2^24 elements).
float fromHalfBits(uint16_t bits, Type elem) {
  static std::vector<float> f16Table, bf16Table;
  std::vector<float> &table = elem.isF16() ? f16Table : bf16Table;
  if (table.empty()) {
    const llvm::fltSemantics &sem =
        elem.isF16() ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat();
    table.resize(65536);
    for (unsigned i = 0; i < 65536; ++i)
      table[i] = llvm::APFloat(sem, llvm::APInt(16, i)).convertToFloat();
  }
  return table[bits];
}

/// Fills `buf` with `t` (already rounded to the element type).
Buffer makeBuffer(const mirage::verify::FloatTensor &t, Type elem) {
  Buffer b;
  b.elem = elem;
  b.shape.assign(t.shape.begin(), t.shape.end());
  b.width = elem.getIntOrFloatBitWidth() / 8;
  int64_t n = mirage::verify::FloatTensor::numElementsOf(b.shape);
  b.bytes.assign(n * b.width, 0);
  for (int64_t i = 0; i < static_cast<int64_t>(t.data.size()); ++i) {
    float v = static_cast<float>(t.data[i]);
    if (b.width == 2) {
      uint16_t h = toHalfBits(v, elem);
      std::memcpy(&b.bytes[i * 2], &h, 2);
    } else {
      std::memcpy(&b.bytes[i * 4], &v, 4);
    }
  }
  return b;
}

double readElement(const Buffer &b, int64_t i) {
  if (b.width == 2) {
    uint16_t h;
    std::memcpy(&h, &b.bytes[i * 2], 2);
    return fromHalfBits(h, b.elem);
  }
  float v;
  std::memcpy(&v, &b.bytes[i * 4], 4);
  return v;
}

/// Tolerance of an output element type: |got - ref| <= rel * |ref| +
/// abs * scale, where scale is the RMS of the reference output (so that
/// cancellation near zero is measured against the output's magnitude).
struct Tolerance {
  double rel, abs;
};
Tolerance toleranceFor(Type elem) {
  if (elem.isF16())
    return {1e-2, 1e-2};
  if (elem.isBF16())
    return {5e-2, 5e-2};
  return {1e-4, 1e-5};
}

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  mirage::registerAllMiragePasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "Mirage runner: lower, JIT and compare a uGraph "
                              "against the f64 interpreter\n");

  if (device != "cpu" && device != "gpu")
    return fail("unknown --device=" + device + " (expected cpu or gpu)");
  if (device == "gpu") {
#ifndef MIRAGE_HAVE_CUDA_RUNTIME
    return fail("--device=gpu needs the Mirage CUDA runtime (runtime/), "
                "which was not built: the CUDA toolkit was not found when "
                "the project was configured");
#else
    std::string err;
    auto lib = llvm::sys::DynamicLibrary::getPermanentLibrary(
        gpuRuntimeLib.c_str(), &err);
    if (!lib.isValid())
      return fail("--device=gpu: no usable CUDA driver or GPU: cannot load " +
                  gpuRuntimeLib + ": " + err);
    auto *count = reinterpret_cast<int (*)()>(
        lib.getAddressOfSymbol("mgpuMirageDeviceCount"));
    if (!count || count() <= 0)
      return fail("--device=gpu: no CUDA GPU is present (the runtime found "
                  "no device)");
    return fail("--device=gpu: GPU execution of the lowered host code is not "
                "implemented in mirage-run yet; use bench/gpu/run");
#endif
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  mirage::registerAllMirageDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file)
    return fail("cannot open '" + inputFilename + "': " + errorMessage);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFilename + "'");

  // Pick the function.
  func::FuncOp func;
  SmallVector<func::FuncOp> funcs;
  for (auto f : module->getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  if (!funcName.empty()) {
    func = module->lookupSymbol<func::FuncOp>(funcName);
    if (!func || func.isExternal())
      return fail("no function @" + funcName + " with a body in '" +
                  inputFilename + "'");
  } else {
    if (funcs.empty())
      return fail("no function with a body in '" + inputFilename + "'");
    func = funcs.front();
  }
  std::string name = func.getSymName().str();

  if (auto msg = mirage::verify::checkSignature(func))
    return fail("@" + name + ": " + *msg);
  for (Type t : llvm::concat<const Type>(func.getArgumentTypes(),
                                         func.getResultTypes())) {
    Type e = cast<RankedTensorType>(t).getElementType();
    if (!e.isF16() && !e.isBF16() && !e.isF32())
      return fail("@" + name + ": element type " + typeName(e) +
                  " is not supported (f16, bf16, f32)");
  }

  // Seeded inputs, rounded to the argument element types: both runs see the
  // same values.
  std::vector<mirage::verify::FloatTensor> inputs =
      mirage::verify::randomFloatInputs(func, seed);
  std::vector<Buffer> argBufs;
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    Type elem = cast<RankedTensorType>(t).getElementType();
    for (double &v : inputs[i].data)
      v = mirage::verify::roundToElementType(static_cast<float>(v * inputScale),
                                             elem);
    argBufs.push_back(makeBuffer(inputs[i], elem));
  }

  mirage::verify::EvalError evalError;
  auto auto0 = std::chrono::steady_clock::now();
  auto reference = mirage::verify::evaluateFloat(func, inputs, evalError);
  double interpMs = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - auto0)
                        .count();
  if (!reference) {
    if (evalError.op)
      evalError.op->emitError() << "interpreter: " << evalError.message;
    return fail("@" + name +
                ": the interpreter cannot evaluate it: " + evalError.message);
  }

  std::vector<Buffer> outBufs;
  for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
    auto rt = cast<RankedTensorType>(t);
    mirage::verify::FloatTensor zero(rt.getShape(), 0.0);
    outBufs.push_back(makeBuffer(zero, rt.getElementType()));
  }
  SmallVector<SmallVector<int64_t, 4>> resultShapes;

  // Lower only the chosen function.
  for (auto f : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (f != func)
      f.erase();
  PassManager pm(&context);
  std::string pipeline =
      "mirage-to-cpu{threads=" + std::to_string(threads.getValue()) + "}";
  if (failed(parsePassPipeline(pipeline, pm)))
    return fail("cannot build the pipeline " + pipeline);
  if (failed(pm.run(*module)))
    return fail("@" + name + ": lowering with " + pipeline + " failed");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  SmallVector<StringRef> libs;
  libs.push_back(ompLib);
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    std::string msg = llvm::toString(engine.takeError());
    return fail("@" + name + ": JIT compilation failed: " + msg);
  }

  // The lowered host function takes every memref (inputs, then one
  // destination per result) as an expanded descriptor: allocated pointer,
  // aligned pointer, offset, sizes, strides.
  std::vector<std::vector<int64_t>> descs;
  std::vector<void *> args;
  auto addDesc = [&](Buffer &b) {
    std::vector<int64_t> d;
    int64_t p = reinterpret_cast<int64_t>(b.bytes.data());
    d.push_back(p);
    d.push_back(p);
    d.push_back(0);
    for (int64_t s : b.shape)
      d.push_back(s);
    SmallVector<int64_t, 4> strides(b.shape.size(), 1);
    for (int i = static_cast<int>(b.shape.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * b.shape[i + 1];
    for (int64_t s : strides)
      d.push_back(s);
    descs.push_back(std::move(d));
  };
  for (Buffer &b : argBufs)
    addDesc(b);
  for (Buffer &b : outBufs)
    addDesc(b);
  for (auto &d : descs)
    for (int64_t &w : d)
      args.push_back(&w);

  auto invoke = [&]() -> bool {
    if (llvm::Error e = (*engine)->invokePacked(name, args)) {
      fail("@" + name + ": invocation failed: " + llvm::toString(std::move(e)));
      return false;
    }
    return true;
  };
  auto t0 = std::chrono::steady_clock::now();
  if (!invoke())
    return 1;
  auto t1 = std::chrono::steady_clock::now();
  for (unsigned r = 0; r < repeat; ++r)
    if (!invoke())
      return 1;
  auto t2 = std::chrono::steady_clock::now();
  double firstMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
  double perRunMs =
      repeat
          ? std::chrono::duration<double, std::milli>(t2 - t1).count() / repeat
          : firstMs;

  // Compare the outputs of the last run.
  bool ok = true;
  double maxAbs = 0, maxRel = 0;
  for (auto [o, b] : llvm::enumerate(outBufs)) {
    const auto &ref = (*reference)[o];
    Tolerance tol = toleranceFor(b.elem);
    double ss = 0;
    for (double v : ref.data)
      ss += v * v;
    double scale = ref.data.empty() ? 1.0 : std::sqrt(ss / ref.data.size());
    if (!(scale > 0))
      scale = 1.0;
    int64_t bad = 0, firstBad = -1;
    double outAbs = 0, outRel = 0;
    for (int64_t i = 0; i < ref.numElements(); ++i) {
      double got = readElement(b, i), want = ref.data[i];
      double err = std::fabs(got - want);
      double lim = tolScale * (tol.rel * std::fabs(want) + tol.abs * scale);
      if (!(err <= lim)) {
        if (firstBad < 0)
          firstBad = i;
        ++bad;
      }
      if (std::isfinite(err)) {
        outAbs = std::max(outAbs, err);
        outRel = std::max(outRel, err / std::max(std::fabs(want), scale));
      } else {
        outAbs = outRel = INFINITY;
      }
    }
    llvm::outs() << "output " << o << " (" << typeName(b.elem) << ", "
                 << ref.numElements() << " elements): max abs err "
                 << llvm::format("%.3e", outAbs) << ", max rel err "
                 << llvm::format("%.3e", outRel) << " (tolerance rel "
                 << llvm::format("%g", tol.rel * tolScale) << ", abs "
                 << llvm::format("%g", tol.abs * tolScale) << " x rms "
                 << llvm::format("%.3e", scale) << ")\n";
    if (bad) {
      ok = false;
      llvm::outs() << "MISMATCH output " << o << " element " << firstBad << " "
                   << mirage::verify::formatIndex(
                          mirage::verify::delinearize(firstBad, ref.shape))
                   << ": got " << llvm::format("%.6g", readElement(b, firstBad))
                   << ", expected " << llvm::format("%.6g", ref.data[firstBad])
                   << " (" << bad << " of " << ref.numElements()
                   << " elements out of "
                   << "tolerance)\n";
    }
    maxAbs = std::max(maxAbs, outAbs);
    maxRel = std::max(maxRel, outRel);
  }
  llvm::outs() << "@" << name << " on cpu (threads=" << threads
               << "): max abs err " << llvm::format("%.3e", maxAbs)
               << ", max rel err " << llvm::format("%.3e", maxRel)
               << ", time per run " << llvm::format("%.3f", perRunMs) << " ms ("
               << repeat << " timed runs, first run "
               << llvm::format("%.3f", firstMs) << " ms), interpreter "
               << llvm::format("%.1f", interpMs) << " ms\n";
  llvm::outs() << (ok ? "PASS" : "FAIL") << "\n";
  llvm::outs().flush();
  return ok ? 0 : 1;
}
