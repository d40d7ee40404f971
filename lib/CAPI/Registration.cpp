//===- Registration.cpp - C API of the Mirage dialects and passes ---------===//
//
// Implements include/mirage-c/: dialect handles in the upstream style
// (mlir/CAPI/Registration.h) and registration of every Mirage pass.
//
//===----------------------------------------------------------------------===//

#include "mirage-c/Dialects.h"
#include "mirage-c/Passes.h"

#include "Mirage/InitMirage.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MirageKernel, mk, mirage::mk::MKDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MirageBlock, mb, mirage::mb::MBDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MirageThread, mt, mirage::mt::MTDialect)

void mirageRegisterAllDialects(MlirDialectRegistry registry) {
  mirage::registerAllMirageDialects(*unwrap(registry));
}

void mirageLoadAllDialects(MlirContext context) {
  mlir::MLIRContext *ctx = unwrap(context);
  mlir::DialectRegistry registry;
  mirage::registerAllMirageDialects(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadAllAvailableDialects();
}

void mirageRegisterAllPasses(void) { mirage::registerAllMiragePasses(); }

MlirPass mirageCreateImportPass(void) {
  return wrap(mirage::createMirageImportPass().release());
}

MlirPass mirageCreateWrapKernelsPass(void) {
  return wrap(mirage::createWrapKernels().release());
}
