#!/usr/bin/env python3
"""The real-exports benchmark (bench/real/run; columns in bench/README.md).

For each file: counts its compute ops, imports it (`mirage-opt
--mirage-import`), models the import's ops as their own kernels
(`--mirage-cost-report`), searches (`--mirage-superoptimize`, then
`--mirage-cost-report`), lowers it (`--mirage-import-to-ptx` with a dump
directory: the kernels are the manifest's launches) and runs the differential
check (`mirage-run --import-check`). Prints one Markdown table row per file,
then the totals.
"""

import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# --- Counting compute ops -------------------------------------------------
# A compute op is a linalg or tosa op that does arithmetic on tensor
# elements. Not counted: constants, fills, empties, copies and element-type
# casts (linalg.copy, tosa.cast, a generic whose body only yields, extends or
# truncates), layout ops (reshape, transpose, broadcast, slice, concat, tile,
# pad), and tensor.* ops.
LINALG_NOT_COMPUTE = {
    "fill", "copy", "transpose", "broadcast", "yield", "index", "pack",
    "unpack",
}
LINALG_MATMUL = re.compile(
    r"^(matmul|batch_matmul|batch_reduce_matmul|contract|matvec|vecmat|"
    r"batch_matvec|batch_vecmat|dot|mmt4d|batch_mmt4d|matmul_transpose_[ab]|"
    r"batch_matmul_transpose_[ab]|quantized_matmul|quantized_batch_matmul)$")
LINALG_REDUCE = {"reduce", "softmax"}
TOSA_NOT_COMPUTE = {
    "const", "const_shape", "reshape", "transpose", "tile", "concat", "slice",
    "pad", "identity", "cast", "yield", "variable", "variable_read",
    "variable_write",
}
TOSA_MATMUL = {"matmul", "fully_connected", "conv2d", "conv3d",
               "depthwise_conv2d", "transpose_conv2d"}
TOSA_REDUCE = {"reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
               "reduce_all", "reduce_any", "argmax"}
# Body ops that compute (anything else in a body: yield, index, constants,
# extf/truncf and other casts).
BODY_COMPUTE = re.compile(
    r"\b(arith\.(addf|subf|mulf|divf|remf|negf|maximumf|minimumf|maxnumf|"
    r"minnumf|maxf|minf|select|cmpf|addi|subi|muli|divsi|divui|maxsi|minsi|"
    r"andi|ori|xori)|math\.\w+)\b")
OP_AT_START = re.compile(
    r'^(\s*)(?:%[^=]*=\s*)?"?((?:linalg|tosa)\.[a-z_0-9]+)"?')


def classify_ops(text):
    """(kind, op name, first line) of every compute op of printed MLIR.

    kind: 'm' matmul/contraction, 'r' reduction (softmax included), 'e'
    elementwise."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = OP_AT_START.match(lines[i])
        if not m:
            i += 1
            continue
        indent, name = len(m.group(1)), m.group(2)
        dialect, op = name.split(".", 1)
        # The op's region: up to the closing '}' at the op's indentation
        # (the printer puts '^bb0' and '} -> ...' there), or, for an op whose
        # region starts on the next line (linalg.reduce), the lines indented
        # deeper.
        def indent_of(l):
            return len(l) - len(l.lstrip())
        j = i + 1
        if lines[i].rstrip().endswith("{"):
            while j < len(lines) and not (indent_of(lines[j]) == indent and
                                          lines[j].lstrip().startswith("}")):
                j += 1
            body = "\n".join(lines[i + 1:j])
            j += 1
        else:
            while j < len(lines) and (not lines[j].strip() or
                                      indent_of(lines[j]) > indent):
                j += 1
            body = "\n".join(lines[i + 1:j])
        head = lines[i]
        kind = None
        if dialect == "linalg":
            if op in LINALG_NOT_COMPUTE:
                kind = None
            elif op in ("generic", "map"):
                ops = BODY_COMPUTE.findall(body)
                names = {o[0] for o in ops}
                if not names:
                    kind = None
                elif '"reduction"' in head:
                    contraction = ("arith.mulf" in names and "arith.addf" in names
                                   and head.count("ins(") and
                                   re.search(r"ins\(%[^:]*,", head))
                    kind = "m" if contraction else "r"
                else:
                    kind = "e"
            elif LINALG_MATMUL.match(op):
                kind = "m"
            elif op in LINALG_REDUCE:
                kind = "r"
            else:
                kind = "e"
        else:
            if op in TOSA_NOT_COMPUTE:
                kind = None
            elif op in TOSA_MATMUL:
                kind = "m"
            elif op in TOSA_REDUCE:
                kind = "r"
            else:
                kind = "e"
        if kind:
            out.append((kind, name, i))
        i = i + 1 if dialect == "tosa" else j
    return out


def summarize(ops):
    c = collections.Counter(k for k, _, _ in ops)
    return len(ops), c


# --- Running the tools ----------------------------------------------------
def tool(build, name):
    path = os.path.join(build, "bin", name)
    for _ in range(30):  # the binaries may be relinked while we run
        if os.access(path, os.X_OK):
            return path
        time.sleep(2)
    sys.exit(f"bench/real/run: {path} is missing")


def run(cmd, timeout):
    """(exit code or 'timeout', stdout, stderr)."""
    for attempt in range(3):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired as e:
            return "timeout", e.stdout or "", e.stderr or ""
        except FileNotFoundError:
            time.sleep(2)
            continue
        if p.returncode in (126, 127) and attempt < 2:  # relinked meanwhile
            time.sleep(2)
            continue
        return p.returncode, p.stdout, p.stderr
    return 127, "", "binary missing"


REMARK = re.compile(r"^(.*?):(\d+):(\d+): remark: mirage-import: left outside: (.*)$")
SHORT = [
    (r"has no mk counterpart", lambda r: re.sub(r".*body op '([^']+)'.*", r"\1 in a body", r)),
    (r"^a fill whose users", lambda r: "fill (users outside)"),
    (r"neither the identity nor a size-1 broadcast", lambda r: "reduction/contraction maps"),
    (r"neither the identity, a size-1 broadcast, a permutation", lambda r: "input map"),
    (r"mixed element types", lambda r: "cast"),
    (r"operand type is not an f16/bf16/f32 tensor", lambda r: "type (not f16/bf16/f32 rank 1-4)"),
    (r"not imported yet", lambda r: "not imported yet"),
    (r"reduced dim is dropped", lambda r: "reduced dim dropped"),
    (r"reads the output", lambda r: "reads its output (accumulates)"),
]


def short_reason(reason):
    for pat, f in SHORT:
        if re.search(pat, reason):
            return f(reason)
    return reason[:60]


def left_outside(stderr, source_lines):
    """Counter of (op name, short reason) over the import's remarks."""
    c = collections.Counter()
    full = collections.Counter()
    for line in stderr.splitlines():
        m = REMARK.match(line)
        if not m:
            continue
        ln = int(m.group(2))
        src = source_lines[ln - 1] if 0 < ln <= len(source_lines) else ""
        om = re.search(r'"?((?:linalg|tosa|tensor|arith)\.[a-z_0-9]+)', src)
        op = om.group(1) if om else "?"
        c[(op, short_reason(m.group(4)))] += 1
        full[(op, m.group(4))] += 1
    return c, full


COST_FN = re.compile(r"remark: cost on [^:]+: @([\w.$-]+): (\d+) kernel\(s\), modelled ([0-9.]+) us")


def cost_report(stderr):
    """{function: (kernels, us)} of the functions the cost model reads."""
    return {m.group(1): (int(m.group(2)), float(m.group(3)))
            for m in COST_FN.finditer(stderr)}


def mk_functions(text):
    """Functions of the import that hold mk ops (outlined or whole)."""
    funcs = re.split(r"\n\s*func\.func ", text)
    return sum(1 for f in funcs[1:] if re.search(r"\bmk\.", f))


def load_expected():
    exp = {}
    path = os.path.join(HERE, "expected.tsv")
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                exp[parts[0]] = (parts[1], parts[2])
    return exp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--time-budget", type=float, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--check-timeout", type=int, default=300)
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--no-ptx", action="store_true")
    ap.add_argument("--details", action="store_true")
    ap.add_argument("--exports", default=os.environ.get(
        "MIRAGE_REAL_EXPORTS", os.path.join(HERE, "exports")))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(glob.glob(os.path.join(a.exports, "*.mlir")))
    if not files:
        sys.exit(f"error: no .mlir files in {a.exports}: the exports are other "
                 f"projects' files and are not in this repository; put the "
                 f"files listed in bench/real/sources.tsv there (or pass "
                 f"--exports=DIR or the files)")
    opt = tool(a.build, "mirage-opt")
    mrun = tool(a.build, "mirage-run")
    expected = load_expected()
    work = tempfile.mkdtemp(prefix="mirage-real-")
    search = (f"chip={a.chip} time-budget={a.time_budget} threads={a.threads} "
              f"cache-dir={work}/cache")

    print(f"| file | compute ops (m/e/r) | imported | left outside (ops by reason) "
          f"| mk funcs | kernels | modelled µs | unfused µs | import check "
          f"| hand-fused kernels (why) | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    tot = collections.Counter()
    reasons_all = collections.Counter()
    details = []
    for f in files:
        t0 = time.time()
        base = os.path.basename(f)
        src_lines = open(f).read().splitlines()
        rc, printed, err = run([opt, f], 120)
        if rc != 0:
            print(f"| {base} | does not parse: {err.strip().splitlines()[0] if err.strip() else rc} |")
            continue
        ops = classify_ops(printed)
        n, kinds = summarize(ops)

        rc, imported, ierr = run([opt, "--mirage-import", f], 300)
        left_ops = classify_ops(imported) if rc == 0 else ops
        nleft = len(left_ops)
        reasons, full = left_outside(ierr, src_lines)
        reasons_all.update(full)
        nmk = mk_functions(imported) if rc == 0 else 0

        # Unfused: every mk op of the import as its own kernel.
        rc_u, _, uerr = run([opt, "--mirage-import",
                             f"--mirage-cost-report=chip={a.chip}", f], 300)
        unfused = cost_report(uerr)
        unfused_us = sum(v[1] for v in unfused.values())
        unfused_k = sum(v[0] for v in unfused.values())

        # Searched: the same functions after --mirage-superoptimize.
        rc_s, _, serr = run([opt, "--mirage-import",
                             f"--mirage-superoptimize={search}",
                             f"--mirage-cost-report=chip={a.chip}", f], 560)
        searched = cost_report(serr)
        model_us = sum(v[1] for v in searched.values())
        model_k = sum(v[0] for v in searched.values())

        kernels = "-"
        if not a.no_ptx:
            dump = os.path.join(work, base + ".ptx.d")
            rc_p, _, perr = run([opt, f"--mirage-import-to-ptx={search} dump-dir={dump}",
                                 "-o", os.devnull, f], 560)
            if rc_p == 0:
                try:
                    man = json.load(open(os.path.join(dump, "manifest.json")))
                    # A kernel's unmasked variant (launched "when" the
                    # sizes are multiples of its tiles) is the same kernel.
                    nk = sum(1 for fn in man.get("functions", [])
                             for l in fn.get("launches", [])
                             if not any(w.get("holds")
                                        for w in l.get("when", [])))
                    kernels = str(nk)
                except (OSError, ValueError):
                    nk, kernels = None, "0 (no manifest)"
                # The PTX run searches again (the cache keeps what it can):
                # say so where its kernels differ from the modelled search's.
                if nk is not None and nk != model_k:
                    kernels += f" ({model_k} modelled)"
            else:
                first = next((l for l in perr.splitlines() if "error" in l), str(rc_p))
                kernels = f"exit {rc_p}: {first.split('error:')[-1].strip()[:80]}"
        else:
            kernels = f"{model_k} (modelled)"

        check = "-"
        m, rc_c, p, fl, nc = None, None, 0, 0, 0
        if not a.no_check:
            rc_c, cout, cerr = run([mrun, "--import-check", f], a.check_timeout)
            m = re.search(r"(\d+) passed, (\d+) failed, (\d+) not checked", cout + cerr)
            if rc_c == "timeout":
                check = "TIMEOUT"
                tot["check_timeout"] += 1
            elif m:
                p, fl, nc = map(int, m.groups())
                tot["pass"] += p
                tot["fail"] += fl
                tot["nc"] += nc
                check = " ".join(s for s in (f"PASS {p}" if p else "",
                                             f"FAIL {fl}" if fl else "",
                                             f"NOT CHECKED {nc}" if nc else "") if s)
                why = re.search(r"NOT CHECKED @\S+: (.*)", cout)
                if why:
                    details.append(f"{base}: not checked: {why.group(1)}")
                mis = re.search(r"MISMATCH.*", cout)
                if mis:
                    details.append(f"{base}: {mis.group(0)[:200]}")
            else:
                check = f"error ({(cerr or cout).strip().splitlines()[-1][:60] if (cerr or cout).strip() else rc_c})"

        exp = expected.get(base, ("?", ""))
        left_cell = "; ".join(f"{c} {op}: {r}" for (op, r), c in sorted(
            reasons.items(), key=lambda kv: -kv[1])) or "none"
        kind_cell = "/".join(str(kinds.get(k, 0)) for k in "mer")
        imported_n = n - nleft
        tot["compute"] += n
        tot["imported"] += imported_n
        tot["files"] += 1
        tot["mk"] += nmk
        if "dynamic" not in base:
            tot["s_files"] += 1
            tot["s_compute"] += n
            tot["s_imported"] += imported_n
            if check.startswith(("PASS", "FAIL", "NOT", "TIMEOUT", "error")):
                tot["s_pass"] += p if m and rc_c != "timeout" else 0
                tot["s_fail"] += fl if m and rc_c != "timeout" else 0
                tot["s_nc"] += nc if m and rc_c != "timeout" else 0
        print(f"| {base} | {n} ({kind_cell}) | {imported_n} | {left_cell} | {nmk} "
              f"| {kernels} | {model_us:.1f} | {unfused_us:.1f} | {check} "
              f"| {exp[0]} ({exp[1]}) | {time.time() - t0:.0f} |", flush=True)
        if a.details:
            for (op, r), c in full.items():
                details.append(f"{base}: {c} x {op}: {r}")
            for l in serr.splitlines():
                if "superoptimized" in l:
                    details.append(f"{base}: {l.split('remark: ')[-1][:300]}")

    pct = 100.0 * tot["imported"] / tot["compute"] if tot["compute"] else 0.0
    print()
    print(f"Totals: {tot['files']} files, {tot['compute']} compute ops, "
          f"{tot['imported']} imported ({pct:.0f} %), {tot['mk']} mk functions; "
          f"import check: {tot['pass']} passed, {tot['fail']} failed, "
          f"{tot['nc']} not checked" +
          (f", {tot['check_timeout']} timed out" if tot["check_timeout"] else ""))
    if tot["s_files"] != tot["files"]:
        spct = (100.0 * tot["s_imported"] / tot["s_compute"]
                if tot["s_compute"] else 0.0)
        print(f"Static files (no 'dynamic' in the name): {tot['s_files']} files, "
              f"{tot['s_compute']} compute ops, {tot['s_imported']} imported "
              f"({spct:.0f} %); import check: {tot['s_pass']} passed, "
              f"{tot['s_fail']} failed, {tot['s_nc']} not checked")
    print()
    print("Ops left outside, by reason (all files):")
    byreason = collections.Counter()
    for (op, r), c in reasons_all.items():
        byreason[r] += c
    for r, c in byreason.most_common():
        print(f"- {c} × {r}")
    if details:
        print()
        for d in details:
            print(f"- {d}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
