//===- mirage-run.cpp - Run a lowered uGraph against the interpreter ------===//
//
// Reads a function of mk ops (input form or superoptimized), lowers it with
// the project's `mirage-to-cpu` pipeline (or `mirage-to-ptx` with device
// buffers for --device=gpu), JIT-compiles it with MLIR's ExecutionEngine,
// feeds it seeded inputs and compares every output with the f64 interpreter
// of lib/Verify on the same (element-type rounded) inputs. See
// docs/running.md.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "ImportCheck.h"
#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/InitMirage.h"
#include "Mirage/Search/GPUTargets.h"
#include "Mirage/Transforms/SpecializeSizes.h"
#include "Mirage/Verify/Interpreter.h"
#include "SizedRun.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mirage::run;
namespace search = mirage::search;
namespace cl = llvm::cl;

/// mirage-run's own options: `--help` lists these and hides the LLVM
/// options the linked libraries register.
static cl::OptionCategory runCategory("mirage-run options");

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<input file>"), cl::cat(runCategory), cl::init("-"));
static cl::opt<std::string>
    funcName("func",
             cl::desc("Function to run (default: the only function "
                      "with a body, or the first one)"),
             cl::cat(runCategory), cl::init(""));
static cl::opt<std::string>
    device("device", cl::desc("cpu (OpenMP) or gpu (CUDA)"), cl::cat(runCategory), cl::init("cpu"));
static cl::opt<unsigned> threads("omp-threads",
                                 cl::desc("OpenMP threads per thread block "
                                          "(mirage-to-cpu threads=N)"),
                                 cl::cat(runCategory), cl::init(2));
static cl::opt<bool> cpuTensorCores(
    "tensor-cores",
    cl::desc("CPU: emit the tensor-core matmul code (nvgpu.mma.sync, "
             "ldmatrix) that the GPU path runs and emulate it lane by lane "
             "(mirage-to-cpu tensor-cores=1; one OpenMP thread per GPU "
             "thread, so --omp-threads must be 0)"),
    cl::cat(runCategory), cl::init(false));
static cl::opt<uint64_t>
    seed("input-seed", cl::desc("Seed of the random inputs"), cl::cat(runCategory), cl::init(1));
static cl::opt<unsigned>
    repeat("runs", cl::desc("Timed runs after the first one"), cl::cat(runCategory), cl::init(1));
static cl::opt<double> inputScale(
    "input-scale",
    cl::desc("Multiplies the uniform [-1, 1) inputs (programs whose f16 "
             "intermediates overflow at scale 1, e.g. exp of a long dot "
             "product)"),
    cl::cat(runCategory), cl::init(1.0));
static cl::opt<double>
    tolScale("tol-scale", cl::desc("Multiplies the tolerances"), cl::cat(runCategory), cl::init(1.0));
static cl::opt<std::string> ompLib("omp-lib",
                                   cl::desc("OpenMP runtime library to load"),
                                   cl::cat(runCategory), cl::init(MIRAGE_RUN_DEFAULT_OMP));
static cl::opt<std::string>
    gpuRuntimeLib("gpu-runtime-lib",
                  cl::desc("Mirage CUDA runtime library (--device=gpu)"),
                  cl::cat(runCategory), cl::init(MIRAGE_RUN_DEFAULT_GPU_RUNTIME));
static cl::opt<std::string>
    chip("chip",
         cl::desc("--device=gpu: PTX target, an architecture (sm_80, sm_86, "
                  "sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a) or "
                  "a part of the cost model (h200, l40s, ...) (default: the "
                  "newest that the GPU's compute capability runs; sm_90 "
                  "with --compile-only)"),
         cl::cat(runCategory), cl::init(""));
static cl::opt<bool> compileOnly(
    "compile-only",
    cl::desc("Lower and JIT-compile the host code, then stop: no inputs, no "
             "interpreter, no run; with --device=gpu the CUDA runtime and "
             "driver are not loaded (the host code's mgpu* calls are bound to "
             "a stub that counts calls)"),
    cl::cat(runCategory), cl::init(false));
static cl::opt<std::string>
    ptxDumpDir("ptx-dump-dir",
               cl::desc("--device=gpu: write the PTX of every kernel and "
                        "manifest.json to this directory (mirage-to-ptx "
                        "dump-dir)"),
               cl::cat(runCategory), cl::init(""));
static cl::list<std::string>
    sizeValues("sizes",
               cl::desc("Values of the function's dynamic sizes, as "
                        "name=value[,name=value...]: the program is run at "
                        "those sizes (docs/dynamic.md)"),
               cl::CommaSeparated, cl::cat(runCategory));
static cl::opt<bool> importCheck(
    "import-check",
    cl::desc("Differential check of mirage-import: run the linalg/tosa "
             "function (--func, or every public one outside mk) through "
             "upstream MLIR's CPU lowering and compare it with the f64 "
             "interpreter of its import"),
    cl::cat(runCategory), cl::init(false));

static cl::opt<std::string> importCheckPrecision(
    "import-check-precision",
    cl::desc("--import-check: the precision of the upstream run, 'f64' "
             "(default: the reference and the ops left outside in f64, as "
             "the interpreter; rounding and overflow of f32 do not enter) "
             "or 'f32' (the function's own arithmetic widened to f32; "
             "f32 overflow and ill-conditioned elements are NOTE lines)"),
    cl::cat(runCategory), cl::init("f64"));

static cl::opt<std::string> importCheckFault(
    "import-check-fault",
    cl::desc("--import-check: inject a fault into the import's evaluation "
             "to test the check itself: 'mk' (the interpreter's steps) or "
             "'outside' (the steps run upstream) add 1 to the first element "
             "of each step's first result"),
    cl::Hidden, cl::cat(runCategory), cl::init(""));

namespace {

/// The most runs a --sizes sweep may ask for.
constexpr unsigned kMaxSweepRuns = 4096;

/// Loads the runtime and checks that there is a GPU; the reason otherwise.
std::optional<std::string> loadGpuRuntime(GpuRuntime &rt) {
#ifndef MIRAGE_HAVE_CUDA_RUNTIME
  (void)rt;
  return std::string(
      "--device=gpu needs the Mirage CUDA runtime (runtime/), which was not "
      "built: the CUDA toolkit was not found when the project was configured");
#else
  std::string err;
  auto lib = llvm::sys::DynamicLibrary::getPermanentLibrary(
      gpuRuntimeLib.c_str(), &err);
  if (!lib.isValid())
    return "--device=gpu: no usable CUDA driver or GPU: cannot load " +
           gpuRuntimeLib + ": " + err;
  auto get = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        lib.getAddressOfSymbol(name));
    return fn != nullptr;
  };
  if (!get(rt.deviceCount, "mgpuMirageDeviceCount") ||
      !get(rt.computeCapability, "mgpuMirageComputeCapability") ||
      !get(rt.memAlloc, "mgpuMemAlloc") || !get(rt.memFree, "mgpuMemFree") ||
      !get(rt.memcpy, "mgpuMemcpy") ||
      !get(rt.streamSynchronize, "mgpuStreamSynchronize") ||
      !get(rt.errorCount, "mgpuMirageErrorCount"))
    return "--device=gpu: " + gpuRuntimeLib +
           " lacks an mgpu* function mirage-run needs (an older build?)";
  if (rt.deviceCount() <= 0)
    return std::string(
        "--device=gpu: no CUDA GPU is present (the runtime found no device)");
  return std::nullopt;
#endif
}

/// Counts calls of the stub that --compile-only binds the mgpu* functions to.
int stubCalls = 0;
extern "C" void *mirageRunRuntimeStub() {
  ++stubCalls;
  return nullptr;
}

/// The mgpu* functions the lowered host code calls, declared by the LLVM IR
/// translation of gpu.binary and gpu.launch_func (module load, launch) and by
/// gpu-to-llvm (streams, memory).
FailureOr<SmallVector<std::string>> runtimeCalls(ModuleOp module) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return failure();
  SmallVector<std::string> names;
  for (const llvm::Function &fn : *llvmModule)
    if (fn.isDeclaration() && fn.getName().starts_with("mgpu"))
      names.push_back(fn.getName().str());
  llvm::sort(names);
  return names;
}

/// Checks the kernel binaries embedded in the lowered module: one PTX object
/// each, with no call left to an undefined function (libdevice's __nv_*
/// functions are linked in from $CUDA_HOME; without it the driver would fail
/// to load the module).
LogicalResult checkBinaries(ModuleOp module, unsigned &count, size_t &bytes) {
  count = 0;
  bytes = 0;
  for (auto bin : module.getOps<gpu::BinaryOp>()) {
    for (Attribute a : bin.getObjectsAttr()) {
      auto obj = cast<gpu::ObjectAttr>(a);
      StringRef ptx = obj.getObject().getValue();
      size_t ext = ptx.find(".extern .func");
      if (ext != StringRef::npos) {
        StringRef line =
            ptx.substr(ext).take_until([](char c) { return c == '\n'; });
        return bin.emitError("the PTX calls an undefined function (")
               << line.trim()
               << "): libdevice was not linked; set CUDA_HOME to a CUDA "
                  "toolkit";
      }
      ++count;
      bytes += ptx.size();
    }
  }
  if (!count)
    return module.emitError("the lowering embedded no kernel binary");
  return success();
}

/// Why the command line is unusable, before any work: an LLVM option that
/// mirage-run does not read (`--threads` for `--omp-threads`), or a value
/// out of its option's range.
std::optional<std::string> badCommandLine() {
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *opt = entry.second;
    if (opt->getNumOccurrences() &&
        !llvm::is_contained(opt->Categories, &runCategory))
      return "--" + entry.first.str() +
             " is an option of a library linked into mirage-run, not one "
             "mirage-run reads (--help lists them" +
             (entry.first.contains("thread")
                  ? "; --omp-threads sets the OpenMP threads)"
                  : ")");
  }
  auto atLeast = [](cl::opt<double> &opt, bool zero,
                    StringRef what) -> std::optional<std::string> {
    double v = opt.getValue();
    if (std::isfinite(v) && (v > 0 || (zero && v == 0)))
      return std::nullopt;
    std::string value;
    llvm::raw_string_ostream(value) << llvm::format("%g", v);
    return "--" + opt.ArgStr.str() + "=" + value + ": expected a " +
           (zero ? "finite number >= 0" : "positive finite number") + " (" +
           what.str() + ")";
  };
  // A tolerance of 0 asks for exact agreement (test/Run/mismatch.mlir).
  if (auto why = atLeast(tolScale, /*zero=*/true,
                         "it multiplies the tolerances; 0: exact"))
    return *why;
  if (auto why = atLeast(inputScale, /*zero=*/false,
                         "it multiplies the uniform [-1, 1) inputs"))
    return *why;
  if (threads > 1024)
    return "--omp-threads=" + std::to_string(threads) +
           ": expected 0 (one per GPU thread) to 1024 (the most threads of "
           "a thread block)";
  if (!importCheckFault.empty() && importCheckFault != "mk" &&
      importCheckFault != "outside")
    return "--import-check-fault=" + importCheckFault +
           ": expected mk or outside";
  if (!importCheckFault.empty() && !importCheck)
    return "--import-check-fault needs --import-check";
  if (cpuTensorCores && (threads != 0 || device != "cpu"))
    return "--tensor-cores emulates the warp-level code on the CPU with one "
           "OpenMP thread per GPU thread: it needs --omp-threads=0 and "
           "--device=cpu (the GPU path always uses tensor cores)";
  if (importCheckPrecision != "f64" && importCheckPrecision != "f32")
    return "--import-check-precision=" + importCheckPrecision +
           ": expected f64 or f32";
  if (importCheckPrecision.getNumOccurrences() && !importCheck)
    return "--import-check-precision needs --import-check";
  return std::nullopt;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  mirage::registerAllMiragePasses();
  registerAllPasses();
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "Mirage runner: lower, JIT and compare a uGraph "
                              "against the f64 interpreter\n");
  if (auto why = badCommandLine())
    return fail(*why);

  if (device != "cpu" && device != "gpu")
    return fail("unknown --device=" + device + " (expected cpu or gpu)");
  bool gpu = device == "gpu";
  if (importCheck && (gpu || compileOnly || repeat != 1))
    return fail("--import-check runs on the CPU once: it takes neither "
                "--device=gpu, --compile-only nor --runs");
  if (!gpu && (!chip.empty() || !ptxDumpDir.empty()))
    return fail("--chip and --ptx-dump-dir need --device=gpu");
  const search::GpuArch *chipArch = nullptr;
  if (!chip.empty() && !(chipArch = search::resolveGpuChip(chip)))
    return fail("unknown --chip=" + chip + " (expected " +
                search::getGpuChipNames() + ")");
  // Refuse before anything is lowered when there is no GPU to run on.
  GpuRuntime rt;
  std::string target = chipArch ? chipArch->name : "";
  if (gpu && !compileOnly) {
    if (auto why = loadGpuRuntime(rt))
      return fail(*why);
    int cc = rt.computeCapability();
    std::string ccText =
        std::to_string(cc / 10) + "." + std::to_string(cc % 10);
    const search::GpuArch *native =
        search::getGpuArchForCapability(static_cast<unsigned>(std::max(cc, 0)));
    if (!native)
      return fail("--device=gpu: the GPU has compute capability " + ccText +
                  "; the lowering targets sm_80 and newer");
    // The driver compiles PTX forward to newer GPUs, never back; PTX of an
    // architecture-specific target (sm_90a) only for that architecture.
    if (chipArch && (static_cast<int>(chipArch->computeCapability) > cc ||
                     (chipArch->archSpecific &&
                      static_cast<int>(chipArch->computeCapability) != cc)))
      return fail("--chip=" + chip + " (" + chipArch->name +
                  ") does not run on this GPU of compute capability " +
                  ccText);
    if (target.empty())
      target = native->name;
  }
  if (gpu && target.empty())
    target = "sm_90";
  // gpu-module-to-binary links libdevice from $CUDA_HOME.
  if (gpu && !std::getenv("CUDA_HOME") && *MIRAGE_RUN_DEFAULT_CUDA_HOME)
    setenv("CUDA_HOME", MIRAGE_RUN_DEFAULT_CUDA_HOME, 0);

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  mirage::registerAllMirageDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A diagnostic names the op by its location; printing it (a whole kernel
  // module for a gpu.binary) would bury the message.
  context.printOpOnDiagnostic(false);

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
  if (importCheck) {
    ImportCheckOptions options{
        seed.getValue(), inputScale.getValue(), tolScale.getValue(),
        importCheckPrecision == "f64", importCheckFault.getValue()};
    if (!sizeValues.empty()) {
      FailureOr<mirage::SizeSweep> parsed = mirage::parseSizeSweep(
          module->getLoc(),
          SmallVector<std::string>(sizeValues.begin(), sizeValues.end()),
          kMaxSweepRuns);
      if (failed(parsed))
        return fail("--sizes: malformed sizes for --import-check");
      options.sizes = std::move(*parsed);
    }
    return checkImport(*module, funcName, options);
  }

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
  // A function with dynamic dims is compiled once and run at every size the
  // sweep lists (each run checked against the interpreter at that size).
  bool dynamic = mirage::mk::hasDynamicDims(func);
  std::optional<mirage::SizeSweep> sweep;
  if (!sizeValues.empty()) {
    if (!dynamic)
      return fail("--sizes: @" + name + " has no dynamic dims");
    FailureOr<mirage::SizeSweep> parsed = mirage::parseSizeSweep(
        func.getLoc(),
        SmallVector<std::string>(sizeValues.begin(), sizeValues.end()),
        kMaxSweepRuns);
    if (failed(parsed))
      return fail("--sizes: cannot run @" + name + " at those sizes");
    sweep = std::move(*parsed);
  } else if (dynamic && !compileOnly) {
    std::string names;
    if (FailureOr<mirage::mk::DynamicSizes> sizes =
            mirage::mk::DynamicSizes::analyze(func);
        succeeded(sizes))
      for (const mirage::mk::DynamicSize &size : sizes->getSizes())
        names += (names.empty() ? "" : ", ") + size.describe();
    return fail("@" + name +
                " has dynamic dims: give their sizes with "
                "--sizes name=value (" +
                names + ")");
  }

  // The runs: one, or one per size of the sweep, each on the function
  // specialised at its size. --compile-only needs neither inputs nor
  // references.
  RunOptions runOptions{seed.getValue(), inputScale.getValue(),
                        tolScale.getValue(), repeat.getValue()};
  OwningOpRef<ModuleOp> specialized = ModuleOp::create(func.getLoc());
  std::vector<SizedRun> runs;
  if (sweep) {
    for (unsigned c = 0; c < sweep->size(); ++c) {
      SizedRun &run = runs.emplace_back();
      llvm::StringMap<int64_t> values = sweep->at(c, &run.label);
      // The reference at each size is the function's body (the programs it
      // dispatches to are what runs).
      FailureOr<func::FuncOp> at = mirage::specializedCopy(
          func, values, *specialized, name + "_at_" + std::to_string(c));
      if (failed(at))
        return fail("--sizes: cannot give the dynamic dims of @" + name +
                    " the sizes " + run.label);
      run.func = *at;
    }
  } else {
    runs.emplace_back().func = func;
  }
  // A static function's run is prepared before it is lowered; a sweep's
  // runs (functions of their own) one at a time below, so that only one
  // size's buffers and reference are alive at once.
  for (SizedRun &run : runs)
    if (auto why = prepareRun(run, /*withReference=*/!compileOnly && !sweep,
                              runOptions))
      return fail("@" + name + (run.label.empty() ? "" : " at " + run.label) +
                  ": " + *why);

  // Lower only the chosen function (and the programs it dispatches to).
  FailureOr<std::optional<mirage::mk::SizeDispatch>> dispatch =
      mirage::mk::SizeDispatch::read(func);
  for (auto f : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (f != func &&
        !(succeeded(dispatch) && *dispatch &&
          llvm::any_of((*dispatch)->programs, [&](FlatSymbolRefAttr p) {
            return p.getValue() == f.getSymName();
          })))
      f.erase();
  PassManager pm(&context);
  std::string pipeline =
      gpu ? "mirage-to-ptx{chip=" + target + " device-buffers=1" +
                (ptxDumpDir.empty() ? "" : " dump-dir=" + ptxDumpDir) + "}"
          : "mirage-to-cpu{threads=" + std::to_string(threads.getValue()) +
                (cpuTensorCores ? " tensor-cores=1" : "") + "}";
  if (failed(parsePassPipeline(pipeline, pm)))
    return fail("cannot build the pipeline " + pipeline);
  if (failed(pm.run(*module)))
    return fail("@" + name + ": lowering with " + pipeline + " failed");
  unsigned numBinaries = 0;
  size_t binaryBytes = 0;
  if (gpu && failed(checkBinaries(*module, numBinaries, binaryBytes)))
    return fail("@" + name + ": the kernels cannot be loaded on a GPU");
  SmallVector<std::string> calls;
  if (gpu && compileOnly) {
    FailureOr<SmallVector<std::string>> c = runtimeCalls(*module);
    if (failed(c))
      return fail("@" + name + ": translation to LLVM IR failed");
    calls = std::move(*c);
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  SmallVector<StringRef> libs;
  if (!gpu)
    libs.push_back(ompLib);
  else if (!compileOnly)
    libs.push_back(gpuRuntimeLib);
  options.sharedLibPaths = libs;
  auto jit0 = std::chrono::steady_clock::now();
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    std::string msg = llvm::toString(engine.takeError());
    return fail("@" + name + ": JIT compilation failed: " + msg);
  }
  if (gpu && compileOnly)
    (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap map;
      for (const std::string &c : calls)
        map[interner(c)] = {
            llvm::orc::ExecutorAddr::fromPtr(&mirageRunRuntimeStub),
            llvm::JITSymbolFlags::Exported};
      return map;
    });

  if (compileOnly) {
    // Materialise the host code (every symbol it calls must resolve); the
    // global constructors that load the kernel modules are not run.
    if (auto fn = (*engine)->lookupPacked(name); !fn)
      return fail("@" + name + ": JIT compilation failed: " +
                  llvm::toString(fn.takeError()));
    double jitMs = msSince(jit0);
    llvm::outs() << "@" << name << " on " << device;
    if (gpu)
      llvm::outs() << " (" << target << "): compile-only: " << numBinaries
                   << " kernel binaries (PTX, " << binaryBytes << " bytes)";
    else
      llvm::outs() << " (threads=" << threads << "): compile-only";
    llvm::outs() << ", host code JIT-compiled in "
                 << llvm::format("%.1f", jitMs) << " ms, " << stubCalls
                 << " runtime calls made\n";
    if (gpu) {
      llvm::outs() << "runtime functions:";
      for (const std::string &c : calls)
        llvm::outs() << " " << c;
      llvm::outs() << "\n";
    }
    return stubCalls ? fail("--compile-only called the runtime") : 0;
  }

  double loadMs = 0;
  if (gpu) {
    // Runs the global constructors: the driver loads (JIT-compiles) the PTX.
    auto l0 = std::chrono::steady_clock::now();
    (*engine)->initialize();
    loadMs = msSince(l0);
    if (rt.errorCount())
      return fail("--device=gpu: " + std::to_string(rt.errorCount()) +
                  " CUDA driver call(s) failed loading the kernels (reported "
                  "above)");
  }
  // Each run: the buffers of its size, the lowered function invoked on them
  // (one compiled program for every size), its outputs compared with the
  // interpreter's.
  bool allOk = true;
  for (SizedRun &run : runs) {
    if (sweep)
      if (auto why = prepareRun(run, /*withReference=*/true, runOptions))
        return fail("@" + name + " at " + run.label + ": " + *why);
    std::optional<bool> ok =
        execute(**engine, name, run, gpu ? &rt : nullptr, runOptions);
    if (!ok)
      return 1;
    if (sweep)
      run.release();
    llvm::outs() << "@" << name;
    if (!run.label.empty())
      llvm::outs() << " at " << run.label;
    llvm::outs() << " on " << device << " (";
    if (gpu)
      llvm::outs() << target;
    else
      llvm::outs() << "threads=" << threads;
    llvm::outs() << "): max abs err " << llvm::format("%.3e", run.maxAbs)
                 << ", max rel err " << llvm::format("%.3e", run.maxRel)
                 << ", time per run " << llvm::format("%.3f", run.perRunMs)
                 << " ms (" << repeat << " timed runs, first run "
                 << llvm::format("%.3f", run.firstMs) << " ms";
    if (gpu)
      llvm::outs() << ", module load " << llvm::format("%.1f", loadMs) << " ms";
    llvm::outs() << "), interpreter " << llvm::format("%.1f", run.interpMs)
                 << " ms" << (runs.size() > 1 && !*ok ? ": FAIL" : "") << "\n";
    allOk &= *ok;
  }
  if (runs.size() > 1)
    llvm::outs() << runs.size() << " sizes, one compiled program: "
                 << llvm::count_if(runs,
                                   [](const SizedRun &r) { return r.passed; })
                 << " passed\n";
  llvm::outs() << (allOk ? "PASS" : "FAIL") << "\n";
  llvm::outs().flush();
  return allOk ? 0 : 1;
}
