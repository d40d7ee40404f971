//===- KernelOps.td - Mirage kernel-graph ops --------------*- tablegen -*-===//

#ifndef MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_TD
#define MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_TD

include "Mirage/Dialect/Kernel/IR/KernelDialect.td"
include "Mirage/Interfaces/MirageOpBase.td"

// Kernel-level tensors may have dynamic dims ([C0.1], [C0.19]-[C0.21], [K16]).
defm MK_ : Mirage_UnaryOps<MK_Dialect, Mirage_DynamicTensor, []>;
defm MK_ : Mirage_TensorBinaryOps<MK_Dialect, [], Mirage_DynamicTensor>;
defm MK_ : Mirage_TensorOps<MK_Dialect, [], Mirage_DynamicTensor>;
def MK_ConvertOp : Mirage_ConvertOp<MK_Dialect, Mirage_DynamicTensor, []>;
def MK_BandMaskOp : Mirage_BandMaskOp<MK_Dialect, [], (ins), "", [{

    ```mlir
    // Causal attention scores [batch, heads, queries, keys].
    %m = mk.band_mask %s dims = [2, 3] upper = 0 fill = 0xFFF0000000000000
        : tensor<1x8x128x128xf16>
    ```
  }], Mirage_DynamicTensor>;

def MK_TransposeOp : Mirage_TransposeOp<MK_Dialect, [], Mirage_DynamicTensor> {
  let hasFolder = 1;
}

def MK_ReshapeOp : MK_Op<"reshape", [Pure]> {
  let summary = "a row-major view of a tensor with another static shape";
  let description = [{
    The elements of `input` in row-major order, read as a tensor of the
    result shape: `result` flattened equals `input` flattened. Kernel level
    only (a view of a device tensor, no block-level counterpart); the search
    does not use it, and the lowering reinterprets the buffer without a copy.
    Constraints: [K14] the result has the input's number of elements;
    [K15] the result has the input's element type; [K16] with dynamic dims,
    the input and the result have one dynamic dim each (the same size at run
    time) and equal products of their static dims, as a head split or merge
    of a dynamic token count is.

    ```mlir
    %y = mk.reshape %x : tensor<2x8x64xf16> -> tensor<16x64xf16>
    %h = mk.reshape %t : tensor<?x4096xf16> -> tensor<?x32x128xf16>
    ```
  }];
  let arguments = (ins Mirage_DynamicTensor:$input);
  let results = (outs Mirage_DynamicTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      auto in = ::llvm::cast<::mlir::RankedTensorType>(getInput().getType());
      auto out = ::llvm::cast<::mlir::RankedTensorType>(getType());
      if (!in.hasStaticShape() || !out.hasStaticShape()) {
        auto staticProduct = [](::mlir::RankedTensorType t) {
          int64_t p = 1;
          for (int64_t d : t.getShape())
            if (!::mlir::ShapedType::isDynamic(d))
              p *= d;
          return p;
        };
        if (in.getNumDynamicDims() != 1 || out.getNumDynamicDims() != 1 ||
            staticProduct(in) != staticProduct(out))
          return emitOpError("[K16] a dynamic reshape needs one dynamic dim "
                             "on each side and equal static products, got ")
                 << in << " -> " << out;
      } else if (in.getNumElements() != out.getNumElements())
        return emitOpError("[K14] result has ") << out.getNumElements()
               << " elements, the input " << in.getNumElements();
      if (in.getElementType() != out.getElementType())
        return emitOpError("[K15] result element type ")
               << out.getElementType() << " differs from the input's "
               << in.getElementType();
      return ::mlir::success();
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      // A reshape to the input's own type is the identity; a reshape of a
      // reshape reads the original input.
      if (getInput().getType() == getType())
        return getInput();
      if (auto inner = getInput().getDefiningOp<$cppClass>()) {
        getInputMutable().assign(inner.getInput());
        return getResult();
      }
      return {};
    }
  }];
}

def MK_GraphKernelOp : MK_Op<"graph_kernel", [Pure, IsolatedFromAbove,
    SingleBlock, DeclareOpInterfaceMethods<Mirage_GraphKernelOpInterface>]> {
  let summary = "a graph-defined kernel: a block graph run by a grid of blocks";
  let description = [{
    A kernel whose code is the block graph in its region. Every thread block
    `b = (bx, by, bz)` of `grid` runs the block graph with `block` threads. The
    region's arguments are the device tensors the kernel reads (the operands);
    the block graph has one `mb.for_loop` of `forloop` iterations and returns
    the device tensors it writes with `mb.return`.

    Constraints on the kernel itself:
    - [K3] `grid` has 3 entries >= 1; gx <= 2^31-1 and gy, gz <= 65535;
    - [K4] `block` has 3 entries >= 1 whose product is at most 1024;
    - [K5] `forloop` >= 1, or `?`: a loop that walks a dynamic dim ([K21]);
    - [K6] the region has one argument per operand, of the operand's type,
      the kernel has at least one result, and `mb.return` returns the
      kernel's result types;
    - [K7] the block graph's shared-memory footprint (the bytes of every tile
      it defines, thread-graph internals excluded) is at most the target
      limit, `mk.smem_limit` on an ancestor or 96 KiB;
    - [K8] the body holds only block-graph ops: the for-loop, post-loop tile
      ops, output savers and `mb.return`;
    - [K9] kernel arguments are device tensors: only `mb.input_iter` reads
      them;
    - [K10] every tile value is used: loop-body values reach an accumulator,
      loop results and post-loop values reach an output saver, and every
      output saver's result is returned;
    - [K19] a grid dim is `?` (dynamic) exactly where it partitions dynamic
      dims of the operands and results (docs/dynamic.md): every dynamic dim
      is partitioned by a `?` grid dim or walked by a `?` loop ([K21]),
      never both; a `?` grid dim partitions no static dim, and every output
      saver's `omap` holds it. Through a view the dims are the logical
      tensor's, and the view passes the one dynamic device dim through
      from one logical dim, with device dims of extent 1 before it and not
      as its last dim (strides that do not depend on the size). At run time
      the dim has ceil(size / tile) blocks, the last tile a tail ([B26]);
    - [K21] a `?` forloop walks a dynamic dim (the key/sequence length of
      attention): every input iterator that walks the loop (`fmap` != -1)
      walks a dynamic dim (through a view, one it passes through), not
      partitioned by the grid, and at least one does. At run time the loop makes
      ceil(size / tile) trips; the last tile is a walked tail ([B26]):
      its reads past the end are zeros, and the reductions across the
      walked dim read it through `mb.tail_mask` ([B27], [B28]).

    ```mlir
    %y = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1]
        forloop = 32 {
    ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
      %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
        %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1
            : tensor<2x4096xf16> -> tensor<2x128xf16>
        %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0
            : tensor<4096x6144xf16> -> tensor<128x24xf16>
        %m = mb.matmul %xt, %wt : tensor<2x128xf16>, tensor<128x24xf16>
            -> tensor<2x24xf16>
        %r = mb.accum_rms_last %xt eps = 1.0e-06
            : tensor<2x128xf16> -> tensor<2x1xf16>
        %s = mb.accum_sum %m : tensor<2x24xf16> -> tensor<2x24xf16>
        mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
      }
      %q = mb.div %acc#1, %acc#0 : tensor<2x24xf16>, tensor<2x1xf16>
          -> tensor<2x24xf16>
      %o = mb.output_saver %q omap = [1, -1, -1]
          : tensor<2x24xf16> -> tensor<2x6144xf16>
      mb.return %o : tensor<2x6144xf16>
    } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
    ```
  }];
  let arguments = (ins Variadic<Mirage_DynamicTensor>:$inputs,
                       DenseI64ArrayAttr:$grid, DenseI64ArrayAttr:$block,
                       I64Attr:$forloop);
  let results = (outs Variadic<Mirage_DynamicTensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `grid` `=` custom<GridDims>($grid) `block` `=` $block
    `forloop` `=` custom<LoopRange>($forloop)
    attr-dict-with-keyword $body `:` functional-type($inputs, $outputs)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The block graph's for-loop, or null if the body has none.
    ::mirage::mb::ForLoopOp getForLoop();
    /// Bytes of shared memory the block graph's tiles take ([K7]).
    int64_t computeSharedMemoryBytes();
    /// The shared-memory limit in force for this kernel.
    int64_t getSharedMemoryLimit();
    /// [K19] the `?` grid dims partition exactly the dynamic dims.
    ::llvm::LogicalResult verifyDynamicGrid();
    /// [K21] a `?` loop walks dynamic dims only.
    ::llvm::LogicalResult verifyDynamicLoop();
  }];
}

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_TD
