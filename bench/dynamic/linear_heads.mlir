// A query projection with a dynamic token count, split into heads as
// exports write it: Q = relu(X . W + b) viewed as [tokens, 32, 128]
// (the split is a layout op the search folds into the kernel's output
// view, docs/dynamic.md "Views"). Shapes (fp16): X [tokens, 4096],
// W [4096, 4096], b [1, 4096].
func.func @linear_heads(%X: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                        %W: tensor<4096x4096xf16>, %b: tensor<1x4096xf16>) -> tensor<?x32x128xf16> {
  %m = mk.matmul %X, %W : tensor<?x4096xf16>, tensor<4096x4096xf16> -> tensor<?x4096xf16>
  %a = mk.add %m, %b : tensor<?x4096xf16>, tensor<1x4096xf16> -> tensor<?x4096xf16>
  %r = mk.relu %a : tensor<?x4096xf16>
  %h = mk.reshape %r : tensor<?x4096xf16> -> tensor<?x32x128xf16>
  return %h : tensor<?x32x128xf16>
}
