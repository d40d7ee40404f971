//===- Thread.h - Mirage thread-graph dialect -------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_THREAD_IR_THREAD_H
#define MIRAGE_DIALECT_THREAD_IR_THREAD_H

#include "Mirage/Interfaces/MirageInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Mirage/Dialect/Thread/IR/ThreadOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "Mirage/Dialect/Thread/IR/ThreadOps.h.inc"

#endif // MIRAGE_DIALECT_THREAD_IR_THREAD_H
