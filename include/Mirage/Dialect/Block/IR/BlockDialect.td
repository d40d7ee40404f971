//===- BlockDialect.td - Mirage block-graph dialect --------*- tablegen -*-===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_TD
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_TD

include "mlir/IR/OpBase.td"

def MB_Dialect : Dialect {
  let name = "mb";
  let cppNamespace = "::mirage::mb";
  let summary = "Mirage block graph: tile programs run by every thread block";
  let description = [{
    The block level of a uGraph: the body of an `mk.graph_kernel`. Every
    thread block of the kernel's grid runs the block graph on tiles held in
    shared memory. The graph has an explicit structure:

    1. one `mb.for_loop` whose body runs F times (F = the kernel's `forloop`);
       it holds the input iterators (`mb.input_iter`), the loop-body ops on
       tiles, and the accumulators (`mb.accum_*`) whose results the body
       yields with `mb.yield`;
    2. post-loop ops on the loop's results;
    3. output savers (`mb.output_saver`) that write tiles to device tensors,
       returned with `mb.return`.

    So every path from a kernel input to a kernel output passes exactly one
    input iterator, one accumulator and one output saver by construction, and
    the verifiers check what the structure cannot express.
  }];
}

class MB_Op<string mnemonic, list<Trait> traits = []>
    : Op<MB_Dialect, mnemonic, traits>;

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_TD
