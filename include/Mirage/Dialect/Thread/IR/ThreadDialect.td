//===- ThreadDialect.td - Mirage thread-graph dialect ------*- tablegen -*-===//

#ifndef MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_TD
#define MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_TD

include "mlir/IR/OpBase.td"

def MT_Dialect : Dialect {
  let name = "mt";
  let cppNamespace = "::mirage::mt";
  let summary = "Mirage thread graph: fused element-wise chains in registers";
  let description = [{
    The thread level of a uGraph. An `mt.thread_graph` op inside a block graph
    takes tiles, evaluates a DAG of scalar element-wise ops for every element
    of the (broadcast) result shape, in registers, and yields one scalar per
    result tile. Thread graphs change no semantics: they are formed by a
    rule-based pass to remove shared-memory round trips and barriers from the
    generated code.
  }];
}

class MT_Op<string mnemonic, list<Trait> traits = []>
    : Op<MT_Dialect, mnemonic, traits>;

#endif // MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_TD
