//===- Materialize.cpp - Search-IR programs as mk/mb text -------*- C++ -*-===//
//
// Prints the search IR in the mk and mb syntax (Materialize.h).
//
//===----------------------------------------------------------------------===//

#include "Materialize.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;

namespace mirage::search::detail {

static std::string formatDouble(double v) {
  // Always with a '.', as the MLIR float literal grammar needs.
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.17e", v);
  return s;
}

/// A float literal of an f64 attribute: infinities as their bits.
static std::string formatF64(double v) {
  if (std::isfinite(v))
    return formatDouble(v);
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("0x%016llX", bits);
  return s;
}

/// Prints one op in the shared mk/mb syntax; `coords` is the block level's
/// tile placement of a band mask (" imap = [...] fmap = F").
static void printOp(raw_ostream &os, StringRef dialect, Kind kind,
                    const Params &p, StringRef result,
                    ArrayRef<std::string> args, ArrayRef<std::string> argTypes,
                    StringRef resultType, StringRef coords) {
  os << "    " << result << " = " << dialect << "." << kindName(kind) << " "
     << args[0];
  switch (kind) {
  case Kind::BandMask:
    os << " dims = [";
    if (p.maskDims[0] >= 0)
      os << p.maskDims[0] << ", ";
    os << p.maskDims[1] << "]";
    if (p.lower)
      os << " lower = " << *p.lower;
    if (p.upper)
      os << " upper = " << *p.upper;
    os << " fill = " << formatF64(p.a) << (p.additive ? " additive" : "")
       << coords << " : " << resultType;
    break;
  case Kind::Where:
    os << ", " << args[1] << " fill = " << formatF64(p.a)
       << (p.b != 0 ? " inverted" : "") << " : " << argTypes[0] << ", "
       << argTypes[1] << " -> " << resultType;
    break;
  case Kind::MulScalar:
  case Kind::AddScalar:
    os << ", " << formatDouble(p.a) << " : " << resultType;
    break;
  case Kind::Clamp:
    os << " min = " << formatDouble(p.a) << " max = " << formatDouble(p.b)
       << " : " << resultType;
    break;
  case Kind::ReduceSum:
  case Kind::ReduceMax:
    os << " dim = " << p.dim << " : " << argTypes[0] << " -> " << resultType;
    break;
  case Kind::RmsNorm:
    os << " eps = " << formatDouble(p.a) << " : " << resultType;
    break;
  case Kind::AccRmsLast:
    os << " eps = " << formatDouble(p.a) << " : " << argTypes[0] << " -> "
       << resultType;
    break;
  case Kind::AccSum:
  case Kind::AccMax:
  case Kind::AccSumLast:
  case Kind::AccMeanLast:
    os << " : " << argTypes[0] << " -> " << resultType;
    break;
  default:
    if (takesTwoOperands(kind))
      os << ", " << args[1] << " : " << argTypes[0] << ", " << argTypes[1]
         << " -> " << resultType;
    else
      os << " : " << resultType;
    break;
  }
  os << "\n";
}

/// Prints `op` with the operand names and types `name` and `type` give.
static void printSOp(raw_ostream &os, StringRef dialect, const SOp &op,
                     StringRef result, function_ref<std::string(int)> name,
                     function_ref<std::string(int)> type,
                     StringRef coords = "") {
  SmallVector<std::string> args, types;
  for (int a : op.args) {
    args.push_back(name(a));
    types.push_back(type(a));
  }
  printOp(os, dialect, op.kind, op.params, result, args, types,
          type(op.result), coords);
}

static std::string tensorType(ArrayRef<int64_t> shape, StringRef elementType) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + elementType.str() + ">";
}

static int dimOf(const Labels &labels, uint32_t label) {
  for (auto [i, l] : llvm::enumerate(labels))
    if (l == label && label)
      return static_cast<int>(i);
  return -1;
}

std::string printPredefinedOp(const SProgram &prog, const SOp &op,
                              const Scale &scale, StringRef elementType,
                              StringRef name) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto type = [&](int v) {
    return tensorType(kernelShape(prog.vals[v], scale), elementType);
  };
  auto valueName = [](int v) { return "%v" + std::to_string(v); };
  os << "func.func @" << name << "(";
  SmallVector<int, 2> args;
  for (int a : op.args)
    if (!llvm::is_contained(args, a))
      args.push_back(a);
  for (auto [i, a] : llvm::enumerate(args))
    os << (i ? ", " : "") << valueName(a) << ": " << type(a);
  os << ") -> " << type(op.result) << " {\n";
  printSOp(os, "mk", op, valueName(op.result), valueName, type);
  os << "    return " << valueName(op.result) << " : " << type(op.result)
     << "\n}\n";
  return text;
}

std::string printProgram(const SProgram &prog, ArrayRef<int> outputs,
                         unsigned numInputs, const Scale &scale,
                         StringRef elementType, StringRef name) {
  std::string text;
  llvm::raw_string_ostream os(text);
  SmallVector<std::string> names(prog.vals.size());
  auto ktype = [&](int v) {
    return tensorType(kernelShape(prog.vals[v], scale), elementType);
  };
  os << "func.func @" << name << "(";
  for (unsigned i = 0; i < numInputs; ++i) {
    names[i] = "%v" + std::to_string(i);
    os << (i ? ", " : "") << names[i] << ": " << ktype(i);
  }
  os << ") -> (";
  for (auto [i, o] : llvm::enumerate(outputs))
    os << (i ? ", " : "") << ktype(o);
  os << ") {\n";
  for (const SKernelOp &kop : prog.ops) {
    if (!kop.isKernel) {
      const SOp &op = kop.op;
      names[op.result] = "%v" + std::to_string(op.result);
      printSOp(
          os, "mk", op, names[op.result], [&](int a) { return names[a]; },
          ktype);
      continue;
    }
    const SKernel &k = prog.kernels[kop.kernel];
    std::string kname = "%k" + std::to_string(kop.kernel);
    std::string prefix = "%g" + std::to_string(kop.kernel) + "_";
    os << "    " << kname;
    if (k.results.size() > 1)
      os << ":" << k.results.size();
    os << " = mk.graph_kernel (";
    for (auto [i, in] : llvm::enumerate(k.inputs))
      os << (i ? ", " : "") << names[in];
    int64_t grid[3] = {1, 1, 1};
    for (auto [i, g] : llvm::enumerate(k.grid))
      grid[i] = g.second;
    os << ") grid = [" << grid[0] << ", " << grid[1] << ", " << grid[2]
       << "] block = [" << k.threads << ", 1, 1] forloop = " << k.forloop
       << " {\n  ^bb0(";
    for (auto [i, in] : llvm::enumerate(k.inputs))
      os << (i ? ", " : "") << prefix << "in" << i << ": " << ktype(in);
    os << "):\n";
    auto btype = [&](int b) {
      return tensorType(blockShape(k, k.vals[b], scale), elementType);
    };
    SmallVector<std::string> inner(k.vals.size()), outer(k.vals.size());
    for (size_t b = 0; b < k.vals.size(); ++b)
      inner[b] = outer[b] = prefix + std::to_string(b);
    unsigned firstAcc = k.numBody, firstPost = k.numBody + k.numAcc;
    std::string loopName = prefix + "l";
    for (unsigned j = 0; j < k.numAcc; ++j) {
      int b = k.ops[firstAcc + j].result;
      outer[b] = k.numAcc == 1 ? loopName : loopName + "#" + std::to_string(j);
    }
    os << "    " << loopName;
    if (k.numAcc > 1)
      os << ":" << k.numAcc;
    os << " = mb.for_loop -> (";
    for (unsigned j = 0; j < k.numAcc; ++j)
      os << (j ? ", " : "") << btype(k.ops[firstAcc + j].result);
    os << ") {\n";
    // Input iterators in the loop body; epilogue inputs ([B21]) after the
    // loop, with fmap -1.
    auto printInputIter = [&](unsigned i) {
      int in = k.inputs[i];
      const Labels &labels = prog.vals[in].labels;
      bool epilogue = isEpilogueInput(k, static_cast<int>(i));
      os << "    " << inner[i] << " = mb.input_iter " << prefix << "in" << i
         << " imap = [";
      for (unsigned g = 0; g < 3; ++g)
        os << (g ? ", " : "")
           << (g < k.grid.size() ? dimOf(labels, k.grid[g].first) : -1);
      os << "] fmap = "
         << (k.forloop > 1 && !epilogue ? dimOf(labels, k.loopAxis) : -1)
         << " : " << ktype(in) << " -> " << btype(i) << "\n";
    };
    for (unsigned i = 0; i < k.inputs.size(); ++i)
      if (!isEpilogueInput(k, static_cast<int>(i)))
        printInputIter(i);
    auto printBlockOp = [&](const SOp &op, ArrayRef<std::string> nameOf,
                            bool inBody) {
      // A band mask's tile lies where the grid and (in the loop body) the
      // loop put its dims, as an input iterator's.
      std::string coords;
      if (op.kind == Kind::BandMask) {
        const Labels &labels = k.vals[op.result].labels;
        llvm::raw_string_ostream cs(coords);
        cs << " imap = [";
        for (unsigned g = 0; g < 3; ++g)
          cs << (g ? ", " : "")
             << (g < k.grid.size() ? dimOf(labels, k.grid[g].first) : -1);
        cs << "] fmap = "
           << (inBody && k.forloop > 1 ? dimOf(labels, k.loopAxis) : -1);
      }
      printSOp(
          os, "mb", op, inner[op.result], [&](int a) { return nameOf[a]; },
          btype, coords);
    };
    for (unsigned j = 0; j < firstPost; ++j)
      printBlockOp(k.ops[j], inner, j < k.numBody);
    os << "    mb.yield ";
    for (unsigned j = 0; j < k.numAcc; ++j)
      os << (j ? ", " : "") << inner[k.ops[firstAcc + j].result];
    os << " : ";
    for (unsigned j = 0; j < k.numAcc; ++j)
      os << (j ? ", " : "") << btype(k.ops[firstAcc + j].result);
    os << "\n    }\n";
    for (unsigned i = 0; i < k.inputs.size(); ++i)
      if (isEpilogueInput(k, static_cast<int>(i)))
        printInputIter(i);
    for (unsigned j = firstPost; j < k.ops.size(); ++j)
      printBlockOp(k.ops[j], outer, false);
    SmallVector<std::string> saved;
    for (auto [i, b] : llvm::enumerate(k.outputs)) {
      saved.push_back(prefix + "o" + std::to_string(i));
      os << "    " << saved.back() << " = mb.output_saver " << outer[b]
         << " omap = [";
      for (unsigned g = 0; g < 3; ++g)
        os << (g ? ", " : "")
           << (g < k.grid.size() ? dimOf(k.vals[b].labels, k.grid[g].first)
                                 : -1);
      os << "] : " << btype(b) << " -> " << ktype(k.results[i]) << "\n";
    }
    os << "    mb.return " << llvm::join(saved, ", ") << " : ";
    for (auto [i, r] : llvm::enumerate(k.results))
      os << (i ? ", " : "") << ktype(r);
    os << "\n  } : (";
    for (auto [i, in] : llvm::enumerate(k.inputs))
      os << (i ? ", " : "") << ktype(in);
    os << ") -> (";
    for (auto [i, r] : llvm::enumerate(k.results)) {
      os << (i ? ", " : "") << ktype(r);
      names[r] =
          k.results.size() == 1 ? kname : kname + "#" + std::to_string(i);
    }
    os << ")\n";
  }
  os << "    return ";
  for (auto [i, o] : llvm::enumerate(outputs))
    os << (i ? ", " : "") << names[o];
  os << " : ";
  for (auto [i, o] : llvm::enumerate(outputs))
    os << (i ? ", " : "") << ktype(o);
  os << "\n}\n";
  return text;
}

std::string summarize(const SProgram &prog) {
  std::string s;
  llvm::raw_string_ostream os(s);
  bool first = true;
  for (const SKernelOp &kop : prog.ops) {
    os << (first ? "" : "; ");
    first = false;
    if (!kop.isKernel) {
      os << "mk." << kindName(kop.op.kind);
      continue;
    }
    const SKernel &k = prog.kernels[kop.kernel];
    int64_t grid[3] = {1, 1, 1};
    for (auto [i, g] : llvm::enumerate(k.grid))
      grid[i] = g.second;
    os << "graph_kernel grid [" << grid[0] << "," << grid[1] << "," << grid[2]
       << "] forloop " << k.forloop << " {";
    for (auto [i, op] : llvm::enumerate(k.ops)) {
      if (i == k.numBody + k.numAcc)
        os << " |";
      os << (i ? " " : "") << kindName(op.kind);
    }
    os << "}";
  }
  return s;
}

std::string inModule(StringRef program, int64_t smemLimit) {
  return "module attributes {mk.smem_limit = " + std::to_string(smemLimit) +
         " : i64} {\n" + program.str() + "}\n";
}

} // namespace mirage::search::detail
