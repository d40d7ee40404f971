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

    A tensor of the kernel level may have dynamic dims (`?`) where the ops'
    rules allow them (docs/dynamic.md): dims that are neither contracted nor
    reduced, such as a token count. The argument attribute `mk.sizes`, an
    array with one `#mk.size` per dynamic dim of the argument, names the dim
    and states what is known of it (bounds, a divisor).

    Constraints on the dialect attributes: [K11] `mk.smem_limit` is a
    positive integer (not a bool) that fits in 64 bits; [K12] `mk.reference`
    is a flat symbol reference; [K13] no other `mk.*` attribute exists;
    [K17] a `#mk.size` has `1 <= min <= max`, `divisor >= 1` and a name that
    is empty or an identifier; [K18] `mk.sizes` is on a function argument
    and holds one `#mk.size` per dynamic dim of its type.
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
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
    /// Name of the argument attribute with the facts of the argument's
    /// dynamic dims.
    static constexpr ::llvm::StringLiteral kSizesAttrName = "mk.sizes";
    /// Name of the function attribute that dispatches a function with a
    /// dynamic size to one program per size class ([K20]).
    static constexpr ::llvm::StringLiteral kSizeDispatchAttrName =
        "mk.size_dispatch";
  }];
}

def MK_SizeAttr : AttrDef<MK_Dialect, "Size"> {
  let mnemonic = "size";
  let summary = "what is known of a dynamic dim: a name, bounds, a divisor";
  let description = [{
    Facts about one dynamic dim of a function argument: the name the size is
    given by at run time (`mirage-run --sizes`, `--mirage-specialize-sizes`),
    its bounds `min <= size <= max` (`max` absent: unbounded) and a number
    the size is a multiple of. Every parameter may be left out: the name
    then defaults to `s<k>` by order of appearance, `min` to 1, `divisor`
    to 1. Dims that the ops make the same size share their facts
    (intersected bounds, the least common multiple of the divisors).
    [K17] `1 <= min <= max`, `divisor >= 1`, the name is empty or an
    identifier.

    ```mlir
    func.func @f(%x: tensor<?x4096xf16>
                     {mk.sizes = [#mk.size<name = "tokens", max = 4096>]})
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the size's name", "\"\"">:$name,
    DefaultValuedParameter<"int64_t", "1">:$min,
    OptionalParameter<"std::optional<int64_t>">:$max,
    DefaultValuedParameter<"int64_t", "1">:$divisor);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

class MK_Op<string mnemonic, list<Trait> traits = []>
    : Op<MK_Dialect, mnemonic, traits>;

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_TD
