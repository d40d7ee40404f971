/*===- Dialects.h - C API of the Mirage dialects ------------------*- C -*-===*\
|*                                                                            *|
|* Registration of the mk, mb and mt dialects from C, in the style of the     *|
|* upstream headers mlir-c/Dialect/<Name>.h. Implemented in lib/CAPI.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MIRAGE_C_DIALECTS_H
#define MIRAGE_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__mk__(): the kernel-graph dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MirageKernel, mk);
/// mlirGetDialectHandle__mb__(): the block-graph dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MirageBlock, mb);
/// mlirGetDialectHandle__mt__(): the thread-graph dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MirageThread, mt);

/// Adds the mk, mb and mt dialects to `registry`
/// (mirage::registerAllMirageDialects).
MLIR_CAPI_EXPORTED void mirageRegisterAllDialects(MlirDialectRegistry registry);

/// Appends the Mirage dialects to the registry of `context` and loads them.
MLIR_CAPI_EXPORTED void mirageLoadAllDialects(MlirContext context);

#ifdef __cplusplus
}
#endif

#endif /* MIRAGE_C_DIALECTS_H */
