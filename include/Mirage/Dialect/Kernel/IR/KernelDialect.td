//===- KernelDialect.td - Mirage kernel-graph dialect ------*- tablegen -*-===//

#ifndef MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_TD
#define MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_TD

include "mlir/IR/OpBase.td"

def MK_Dialect : Dialect {
  let name = "mk";
  let cppNamespace = "::mirage::mk";
  let summary = "Mirage kernel graph: a DAG of kernels over device tensors";
  let description = [{
    The kernel level of a uGraph. A program is a `func.func` whose body is a
    DAG of `mk` ops on statically shaped device tensors (rank 1 to 4; f16,
    bf16 or f32). Each op has real-number semantics. `mk.graph_kernel` is a
    graph-defined kernel: its region holds a block graph (`mb` dialect).

    The dialect attribute `mk.smem_limit` (an integer, bytes) on any ancestor
    of a graph-defined kernel, typically the module, sets the shared-memory
    limit its block graph is verified against; the default is 98304 bytes
    (96 KiB), which fits every sm_80 and sm_90 device. The dialect attribute
    `mk.reference = @f` on a function names the reference program the
    function must be equivalent to (checked by `--mirage-check-equivalence`).

    Constraints on the dialect attributes: [K11] `mk.smem_limit` is a
    positive integer (not a bool) that fits in 64 bits; [K12] `mk.reference`
    is a flat symbol reference; [K13] no other `mk.*` attribute exists.
  }];
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mirage::mb::MBDialect", "::mirage::mt::MTDialect"];
  let extraClassDeclaration = [{
    /// Name of the dialect attribute that sets the shared-memory limit.
    static constexpr ::llvm::StringLiteral kSmemLimitAttrName = "mk.smem_limit";
    /// Shared-memory limit when no `mk.smem_limit` is set (bytes).
    static constexpr int64_t kDefaultSmemLimit = 98304;
    /// The shared-memory limit in force at `at`: the nearest `mk.smem_limit`
    /// on `at` or an op enclosing it, else kDefaultSmemLimit (null: the
    /// default).
    static int64_t getSharedMemoryLimit(::mlir::Operation *at);
    /// Name of the dialect attribute that names, on a function, the reference
    /// function it must be equivalent to.
    static constexpr ::llvm::StringLiteral kReferenceAttrName = "mk.reference";
  }];
}

class MK_Op<string mnemonic, list<Trait> traits = []>
    : Op<MK_Dialect, mnemonic, traits>;

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_TD
