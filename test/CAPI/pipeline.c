/*===- pipeline.c - C API test of the Mirage dialects and passes ----------===*\
|*                                                                            *|
|* Compiled as C and linked against MirageCAPI (test/CAPI/CMakeLists.txt):    *|
|* registers the Mirage dialects on an MlirDialectRegistry, parses an mk      *|
|* program and a linalg one, verifies them, runs a pipeline of Mirage passes  *|
|* (one by name, two created through the C API) and prints the result.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

// RUN: mirage-capi-pipeline-test 2>&1 | FileCheck %s

#include "mirage-c/Dialects.h"
#include "mirage-c/Passes.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

static const char *program =
    "func.func @matmul_exp(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>)\n"
    "    -> tensor<16x32xf16> {\n"
    "  %m = mk.matmul %a, %b : tensor<16x64xf16>, tensor<64x32xf16>\n"
    "       -> tensor<16x32xf16>\n"
    "  %e = mk.exp %m : tensor<16x32xf16>\n"
    "  return %e : tensor<16x32xf16>\n"
    "}\n"
    "func.func @linalg_mm(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>)\n"
    "    -> tensor<16x32xf32> {\n"
    "  %z = arith.constant 0.0 : f32\n"
    "  %0 = tensor.empty() : tensor<16x32xf32>\n"
    "  %1 = linalg.fill ins(%z : f32) outs(%0 : tensor<16x32xf32>)\n"
    "       -> tensor<16x32xf32>\n"
    "  %2 = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x32xf32>)\n"
    "       outs(%1 : tensor<16x32xf32>) -> tensor<16x32xf32>\n"
    "  return %2 : tensor<16x32xf32>\n"
    "}\n";

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fprintf(stdout, "diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  fprintf(stdout, "\n");
  return mlirLogicalResultSuccess();
}

static void fail(const char *what) {
  fprintf(stdout, "FAILED: %s\n", what);
  fflush(stdout);
  exit(1);
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mirageRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__func__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__arith__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__tensor__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__linalg__(), registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  // The per-dialect handles of mirage-c/Dialects.h.
  MlirDialectHandle handles[3] = {mlirGetDialectHandle__mk__(),
                                  mlirGetDialectHandle__mb__(),
                                  mlirGetDialectHandle__mt__()};
  for (int i = 0; i < 3; ++i) {
    MlirDialect dialect = mlirDialectHandleLoadDialect(handles[i], ctx);
    MlirStringRef ns = mlirDialectGetNamespace(dialect);
    fprintf(stdout, "loaded dialect %.*s\n", (int)ns.length, ns.data);
  }
  // CHECK: loaded dialect mk
  // CHECK: loaded dialect mb
  // CHECK: loaded dialect mt

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(program));
  if (mlirModuleIsNull(module))
    fail("parse");
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op))
    fail("verify");
  fprintf(stdout, "parsed and verified\n");
  // CHECK: parsed and verified

  // A pass by name (the registry of mirageRegisterAllPasses), then passes
  // created through the C API: the import on the module, the wrapping of mk
  // ops into graph-defined kernels on every function.
  mirageRegisterAllPasses();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          opm,
          mlirStringRefCreateFromCString(
              "builtin.module(mirage-cost-report{chip=h200})"),
          printToStdout, NULL)))
    fail("parse pipeline");
  mlirOpPassManagerAddOwnedPass(opm, mirageCreateImportPass());
  MlirOpPassManager funcPm = mlirPassManagerGetNestedUnder(
      pm, mlirStringRefCreateFromCString("func.func"));
  mlirOpPassManagerAddOwnedPass(funcPm, mirageCreateWrapKernelsPass());
  fprintf(stdout, "pipeline: ");
  mlirPrintPassPipeline(opm, printToStdout, NULL);
  fprintf(stdout, "\n");
  // CHECK: pipeline: builtin.module(mirage-cost-report{chip=h200},mirage-import{{.*}},func.func(mirage-wrap-kernels{{.*}}))

  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op)))
    fail("pass pipeline");
  // CHECK: diagnostic: cost on h200: kernel 0 mk.matmul
  // CHECK: diagnostic: cost on h200: @matmul_exp:

  if (!mlirOperationVerify(op))
    fail("verify after the pipeline");
  mlirOperationPrint(op, printToStdout, NULL);
  fprintf(stdout, "\n");
  // CHECK-LABEL: func.func @matmul_exp
  // CHECK:         mk.graph_kernel
  // CHECK:           mb.matmul
  // CHECK:         mk.graph_kernel
  // CHECK:           mb.exp
  // CHECK-NOT:     mk.matmul
  // CHECK-LABEL: func.func @linalg_mm
  // CHECK:         mk.graph_kernel
  // CHECK:           mb.matmul
  // CHECK-NOT:     linalg.

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  fprintf(stdout, "done\n");
  // CHECK: done
  return 0;
}
