//===- Kernel.h - Mirage kernel-graph dialect -------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_KERNEL_IR_KERNEL_H
#define MIRAGE_DIALECT_KERNEL_IR_KERNEL_H

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "Mirage/Interfaces/MirageInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Mirage/Dialect/Kernel/IR/KernelOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Mirage/Dialect/Kernel/IR/KernelAttrs.h.inc"

#define GET_OP_CLASSES
#include "Mirage/Dialect/Kernel/IR/KernelOps.h.inc"

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNEL_H
