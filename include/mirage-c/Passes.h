/*===- Passes.h - C API of the Mirage passes ----------------------*- C -*-===*\
|*                                                                            *|
|* Registration of the Mirage passes and pass pipelines with the global pass  *|
|* registry, so that mlirParsePassPipeline and mlirOpPassManagerAddPipeline   *|
|* accept them by name. Implemented in lib/CAPI (MirageCAPI).                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MIRAGE_C_PASSES_H
#define MIRAGE_C_PASSES_H

#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every Mirage pass and pipeline (mirage::registerAllMiragePasses):
/// mirage-import, mirage-superoptimize, mirage-wrap-kernels, the lowerings
/// and the named pipelines. Safe to call more than once.
MLIR_CAPI_EXPORTED void mirageRegisterAllPasses(void);

/// Creates the `--mirage-import` pass (linalg/tosa to mk).
MLIR_CAPI_EXPORTED MlirPass mirageCreateImportPass(void);

/// Creates the `--mirage-wrap-kernels` pass with its default options.
MLIR_CAPI_EXPORTED MlirPass mirageCreateWrapKernelsPass(void);

#ifdef __cplusplus
}
#endif

#endif /* MIRAGE_C_PASSES_H */
