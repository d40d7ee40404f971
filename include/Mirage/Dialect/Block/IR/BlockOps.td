//===- BlockOps.td - Mirage block-graph ops ----------------*- tablegen -*-===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_TD
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_TD

include "Mirage/Dialect/Block/IR/BlockDialect.td"
include "Mirage/Interfaces/MirageOpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Tile ops: the same operators as the kernel level, on shared-memory tiles.
// They appear in the loop body or after the loop.
//===----------------------------------------------------------------------===//

defm MB_ : Mirage_UnaryOps<MB_Dialect, Mirage_Tensor, [Mirage_InBlockGraph]>;
defm MB_ : Mirage_TensorBinaryOps<MB_Dialect, [Mirage_InBlockGraph]>;
defm MB_ : Mirage_TensorOps<MB_Dialect, [Mirage_InBlockGraph]>;
def MB_TransposeOp : Mirage_TransposeOp<MB_Dialect, [Mirage_InBlockGraph]>;
def MB_ConvertOp : Mirage_ConvertOp<MB_Dialect, Mirage_Tensor,
                                    [Mirage_InBlockGraph]>;
def MB_BandMaskOp : Mirage_BandMaskOp<MB_Dialect, [Mirage_InBlockGraph],
    (ins DenseI64ArrayAttr:$imap, I64Attr:$fmap),
    "`imap` `=` $imap `fmap` `=` $fmap", [{

    At the block level the mask needs the tile's place in the index space of
    the kernel-level tensor it masks: `imap` and `fmap` say it as for an
    `mb.input_iter` (its origin: `off[imap[g]] = b_g`, then `off[fmap] =
    off[fmap] * forloop + i`, each dim times the tile size), and the indices
    above are the origin plus the element's index in the tile.
    [B20] `imap` has 3 entries, each -1 or a dim of the operand, no dim
    twice; `fmap` is -1 or a dim of the operand, and -1 outside the
    for-loop's body.

    ```mlir
    %m = mb.band_mask %s dims = [0, 1] upper = 0 fill = 0xFFF0000000000000
        imap = [0, -1, -1] fmap = 1 : tensor<64x64xf16>
    ```
  }]> {
  let verifyCoordinates = [{
      if (::mlir::failed(::mirage::mb::verifyTileCoordinates(
              getOperation(), getImap(), getFmap())))
        return ::mlir::failure();
  }];
}

def MB_TailMaskOp : MB_Op<"tail_mask", [Pure, Mirage_InBlockGraph,
    SameOperandsAndResultType]> {
  let summary = "fills the elements of a tile past the end of the walked dim";
  let description = [{
    In a loop whose last trip overhangs the dim it walks (a `?` loop,
    [K21], or a static walked tail, [B26]), the elements of that trip past
    the end must not count in a reduction across the walked dim. Dim `dim`
    of the operand runs along the walked dim: at iteration `i`, element `x`
    with index `j` along `dim` is kept when `i * size(dim) + j < W` and is
    `fill` otherwise, where `W` is the extent of the dim the kernel's
    walking input iterators walk. `fill` is the identity of the reduction
    the mask feeds: 0 for sums and contractions, -inf for maxima (docs/
    dynamic.md). In a loop without a tail it keeps every element.

    Constraints:
    - [B27] directly in the body of an `mb.for_loop` whose input iterators
      walk the loop; `dim` is a dim of the operand whose size is the walking
      tiles' extent along the walked dim; `fill` is not NaN.

    ```mlir
    %p = mb.tail_mask %e dim = 1 fill = 0.0 : tensor<1x64xf32>
    ```
  }];
  let arguments = (ins Mirage_Tensor:$input, I64Attr:$dim, F64Attr:$fill);
  let results = (outs Mirage_Tensor:$result);
  let assemblyFormat =
      "$input `dim` `=` $dim `fill` `=` $fill attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Loop structure
//===----------------------------------------------------------------------===//

// [B19] Accumulators and mb.yield are directly in the body of an mb.for_loop
// (and, by [C0.2], inside a graph-defined kernel). A native trait rather than
// HasParent so that the diagnostic carries the tag. Input iterators may also
// be epilogue inputs ([B21]) and check their place in their own verifier.
def MB_InForLoop : NativeOpTrait<"InForLoop"> {
  let cppNamespace = "::mirage::mb";
}

def MB_ForLoopOp : MB_Op<"for_loop", [Mirage_InBlockGraph, SingleBlock,
    RecursiveMemoryEffects]> {
  let summary = "the for-loop of a graph-defined kernel";
  let description = [{
    Runs its body F times, where F is the `forloop` attribute of the enclosing
    graph-defined kernel. The body holds the input iterators, the loop-body
    tile ops and the accumulators; it ends in `mb.yield`, whose operands are
    accumulator results. The loop's results are the accumulated values after
    the last iteration.

    Constraints:
    - [B1] exactly one `mb.for_loop` per graph-defined kernel, directly in its
      body;
    - [B2] the body ends in `mb.yield` with one accumulator result per loop
      result, of the same type;
    - [B3] every `mb.yield` operand is the result of an accumulator of this
      loop, and accumulator results are used only by `mb.yield`;
    - [B19] the accumulators and `mb.yield` appear directly in the body of
      an `mb.for_loop` and nowhere else; `mb.input_iter` appears there or,
      as an epilogue input ([B21]), directly in the kernel body after the
      loop.
  }];
  let results = (outs Variadic<Mirage_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "(`->` `(` type($results)^ `)`)? attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def MB_YieldOp : MB_Op<"yield", [Pure, Terminator, ReturnLike, MB_InForLoop]> {
  let summary = "yields the accumulators of a for-loop";
  let arguments = (ins Variadic<Mirage_Tensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def MB_InputIterOp : MB_Op<"input_iter", [Pure]> {
  let summary = "loads the tile of a device tensor for this block and iteration";
  let description = [{
    Reads, at every iteration `i` of the loop, the tile of a kernel input that
    belongs to thread block `(bx, by, bz)`. `imap[g]` names the tensor dim that
    grid dim `g` partitions (-1: replicated); `fmap` names the dim the loop
    walks (-1: the whole dim every iteration). Tile shape: dim `imap[g]` is
    divided by grid dim `g`, then dim `fmap` by F. Tile origin: start with
    `off[imap[g]] = b_g`; then `off[fmap] = off[fmap] * F + i`; finally
    `off[k] *= tile[k]`.

    An **epilogue input** is an input iterator directly in the kernel body,
    after the `mb.for_loop`: it reads the block's tile once, after the loop
    (a bias, a residual, a per-column scale), for the post-loop ops and the
    output savers; it does not walk the loop (`fmap = -1`, origin
    `off[imap[g]] = b_g` times the tile).

    Constraints:
    - [B4] the operand is an argument of the enclosing graph-defined kernel;
    - [B5] `imap` has 3 entries, each -1 or a dim of the operand, no dim twice;
    - [B6] `fmap` is -1 or a dim of the operand;
    - [B7] every division is exact;
    - [B8] the result type is the tile type;
    - [B19] directly in the body of an `mb.for_loop`, or an epilogue input;
    - [B21] an epilogue input comes after the kernel's `mb.for_loop` and has
      `fmap = -1` (so only post-loop ops and output savers read it);
    - [B22] a `view` maps the dims of the logical tensor (the tile scaled by
      the grid along `imap` and by F along `fmap`) to those of the operand,
      without symbols;
    - [B23] every result of the view is a sum of index digits (`d`,
      `d floordiv c`, `d mod c`, `(d floordiv c) mod c`) times positive
      constants plus a non-negative constant;
    - [B24] the view stays inside the operand for every logical index.

    With a `view` (an affine map, docs/constraints/mb.md), the iterator reads
    the tiles of a logical tensor whose element `i` is the operand's element
    `view(i)`: a permutation, split or merge of dims, a broadcast, a static
    slice, or a composition of them, so no kernel copies the tensor into that
    layout first. Without one the logical tensor is the operand.

    ```mlir
    %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0
        : tensor<4096x6144xf16> -> tensor<128x24xf16>
    // Head h of Q[tokens, heads * 16] as [heads, tokens, 16], one per block:
    %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1
        view = affine_map<(h, t, d) -> (t, h * 16 + d)>
        : tensor<8x64xf32> -> tensor<1x8x16xf32>
    ```
  }];
  let arguments = (ins Mirage_DynamicTensor:$input, DenseI64ArrayAttr:$imap,
                       I64Attr:$fmap, OptionalAttr<AffineMapAttr>:$view);
  let results = (outs Mirage_Tensor:$tile);
  let assemblyFormat = [{
    $input `imap` `=` $imap `fmap` `=` $fmap (`view` `=` $view^)? attr-dict
    `:` type($input) `->` type($tile)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether this is an epilogue input ([B21]): directly in the kernel
    /// body, read once after the loop.
    bool isEpilogue();
    /// The shape of the tensor the tiles are cut from: the operand's, or the
    /// view's logical shape.
    llvm::SmallVector<int64_t> getLogicalShape();
    /// [B22]-[B24] the view (if any) over a static `logical` shape and the
    /// `device` shape (a dynamic dim takes its logical dim's extent).
    mlir::LogicalResult verifyView(llvm::ArrayRef<int64_t> logical,
                                   llvm::ArrayRef<int64_t> device);
  }];
}

//===----------------------------------------------------------------------===//
// Accumulators
//===----------------------------------------------------------------------===//

class MB_AccumOp<string mnemonic, string kind, string semantics,
                 list<Trait> traits = []>
    : MB_Op<"accum_" # mnemonic, traits # [Pure, MB_InForLoop,
                                           Mirage_AccumulatorOpInterface]> {
  let summary = "for-loop accumulator: " # semantics;
  let description = [{
    Accumulates a loop-body value over the F iterations of the loop:
    }] # semantics # [{. The result may only be yielded by `mb.yield`.
  }];
  let arguments = (ins Mirage_Tensor:$input);
  let results = (outs Mirage_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static constexpr ::mirage::AccumulatorKind kAccumulatorKind =
        ::mirage::AccumulatorKind::}] # kind # [{;
  }];
}

def MB_AccumSumOp : MB_AccumOp<"sum", "Sum",
    "sum over the iterations; [B9] the result has the input's type">;
def MB_AccumSumLastOp : MB_AccumOp<"sum_last", "SumLast",
    "sum over the iterations and over the last dim; [B10] the result is the "
    "input with its last dim set to 1">;
def MB_AccumMeanLastOp : MB_AccumOp<"mean_last", "MeanLast",
    "mean over the iterations and over the last dim, sum / (F * n); [B10] "
    "the result is the input with its last dim set to 1">;
def MB_AccumRmsLastOp : MB_AccumOp<"rms_last", "RmsLast",
    "root mean square over the iterations and the last dim, "
    "sqrt(sum(x^2) / (F * n) + eps); [B10] the result is the input with its "
    "last dim set to 1; [B11] eps >= 0"> {
  let arguments = (ins Mirage_Tensor:$input, F64Attr:$eps);
  let assemblyFormat = [{
    $input `eps` `=` $eps attr-dict `:` type($input) `->` type($result)
  }];
}
def MB_AccumSumToOp : MB_AccumOp<"sum_to", "SumTo",
    "partial sums: over the iterations, and the last dim n is folded to "
    "`dimx` entries, entry j summing elements j*n/dimx .. (j+1)*n/dimx-1; "
    "[B12] dimx >= 1 divides n and the result is the input with its last dim "
    "set to dimx"> {
  let arguments = (ins Mirage_Tensor:$input, I64Attr:$dimx);
  let assemblyFormat = [{
    $input `dimx` `=` $dimx attr-dict `:` type($input) `->` type($result)
  }];
}
def MB_AccumMaxOp : MB_AccumOp<"max", "Max",
    "element-wise running maximum over the iterations; [B9] the result has "
    "the input's type">;
def MB_AccumRescaledSumOp : MB_AccumOp<"rescaled_sum", "RescaledSum",
    "online-softmax sum: with the running maximum M of `max` (M' = max(M, m)), "
    "acc' = acc * exp(M - M') + x * exp(m - M'), so the result is "
    "sum_i x_i * exp(m_i - M_final); [B9] the result has the type of x; "
    "[B13] m has the element type and rank of x and broadcasts to it"> {
  let arguments = (ins Mirage_Tensor:$input, Mirage_Tensor:$max);
  let assemblyFormat = [{
    $input `,` $max attr-dict `:` type($input) `,` type($max) `->`
    type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

def MB_OutputSaverOp : MB_Op<"output_saver", [Pure, Mirage_InBlockGraph]> {
  let summary = "writes a block's tile into a device tensor";
  let description = [{
    Writes the tile computed by thread block `(bx, by, bz)` after the loop to
    the kernel output at `off[omap[g]] = b_g`, times the tile shape. The
    result is the whole device tensor, whose dim `omap[g]` is grid dim `g`
    times the tile dim.

    Constraints:
    - [B14] directly in the body of the graph-defined kernel, after the loop,
      and its result is used only by `mb.return`;
    - [B15] `omap` has 3 entries, each -1 or a dim of the tile, no dim twice;
    - [B16] every grid dim > 1 maps to a tile dim (blocks write disjoint tiles);
    - [B17] the result type is the tile scaled by the grid along `omap`
      (without a view);
    - [B25] a `view` maps the logical output (the tile scaled by the grid
      along `omap`) to the result, as an input iterator's ([B22]-[B24]), and
      reaches every element of the result exactly once (a permutation, split
      or merge of dims: no broadcast, repeat, slice or overlap).

    With a view the saver writes logical element `i` to `view(i)` of the
    result, e.g. attention's [heads, tokens, 16] output into the merged
    [tokens, heads * 16] layout:

    ```mlir
    %o = mb.output_saver %t omap = [0, -1, -1]
        view = affine_map<(h, t, d) -> (t, h * 16 + d)>
        : tensor<1x8x16xf32> -> tensor<8x64xf32>
    ```
  }];
  let arguments = (ins Mirage_Tensor:$input, DenseI64ArrayAttr:$omap,
                       OptionalAttr<AffineMapAttr>:$view);
  let results = (outs Mirage_DynamicTensor:$output);
  let assemblyFormat = [{
    $input `omap` `=` $omap (`view` `=` $view^)? attr-dict `:` type($input)
    `->` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of the logical output: the result's, or the view's domain.
    llvm::SmallVector<int64_t> getLogicalShape();
    /// [B25] the view (if any) over a static `logical` shape and the
    /// `device` shape (a dynamic dim takes its logical dim's extent).
    mlir::LogicalResult verifyView(llvm::ArrayRef<int64_t> logical,
                                   llvm::ArrayRef<int64_t> device);
  }];
}

def MB_ReturnOp : MB_Op<"return", [Pure, Terminator, ReturnLike,
                                   Mirage_InBlockGraph]> {
  let summary = "returns the saved outputs of a graph-defined kernel";
  let description = [{
    Terminates the block graph. [B18] Its operands are `mb.output_saver`
    results; [K6] of the kernel checks that there is one per kernel result,
    of the kernel's result types.
  }];
  let arguments = (ins Variadic<Mirage_DynamicTensor>:$outputs);
  let assemblyFormat = "attr-dict ($outputs^ `:` type($outputs))?";
}

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_TD
