/*===- standalone-capi.c - A C program built on the Mirage package --------===*\
|*                                                                            *|
|* Links Mirage::MirageCAPI from the installed package: registers the Mirage  *|
|* dialects and passes, parses an mk program given on the command line (a     *|
|* file), runs `func.func(mirage-wrap-kernels)` and prints the result.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mirage-c/Dialects.h"
#include "mirage-c/Passes.h"

#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <file.mlir>\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  static char source[1 << 16];
  size_t length = fread(source, 1, sizeof(source) - 1, f);
  fclose(f);
  source[length] = '\0';

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mirageRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__func__(), registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mirageRegisterAllPasses();

  int status = 1;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(source, length));
  if (!mlirModuleIsNull(module)) {
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    if (mlirLogicalResultIsSuccess(mlirParsePassPipeline(
            mlirPassManagerGetAsOpPassManager(pm),
            mlirStringRefCreateFromCString(
                "builtin.module(func.func(mirage-wrap-kernels))"),
            print, stderr)) &&
        mlirLogicalResultIsSuccess(
            mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
      mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
      fprintf(stdout, "\n");
      status = 0;
    }
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  return status;
}
