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

namespace mirage::mt {
/// Verifies that `op` is directly in the body of an mt.thread_graph ([T5]),
/// itself inside a graph-defined kernel ([C0.2]).
mlir::LogicalResult verifyInThreadGraph(mlir::Operation *op);

/// Marks the ops that only exist in a thread-graph body: the scalar
/// element-wise ops and mt.yield.
template <typename ConcreteType>
class InThreadGraph
    : public mlir::OpTrait::TraitBase<ConcreteType, InThreadGraph> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInThreadGraph(op);
  }
};
} // namespace mirage::mt

#define GET_OP_CLASSES
#include "Mirage/Dialect/Thread/IR/ThreadOps.h.inc"

#endif // MIRAGE_DIALECT_THREAD_IR_THREAD_H
