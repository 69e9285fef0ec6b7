#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The layering of SPEC §7, checked on the sources so that it cannot regress: every #include "…"
# of the C sources is resolved to a file, each file sits in a layer by its folder, and an include
# may only point at the same folder or a lower layer:
#   solver ← reference ← experiments; inside solver (solver/meson.build)
#   common ← qcp, model ← mbs, theta;  inside experiments
#   xp ← scenarios ← sim ← drivers, bench ← cli
# (folders of one rank side by side: neither includes the other)
# sim/sim_scenario.h is the scenarios' low header (what a scenario declares): it counts as the
# scenarios' layer, and a scenario includes neither sim/sim.h nor xp/xp.h (the simulate loop, the
# results files). The project's include graph has no cycle.
# With object libraries as further arguments (static archives), their call graph by file is
# checked for cycles too (nm: a file that calls into another that calls back).
# usage: check_layers.py SOURCE_ROOT [LIB.a …]
import os
import re
import subprocess
import sys

RANK = {"solver/common": 0, "solver/qcp": 1, "solver/model": 1, "solver/mbs": 2, "solver/theta": 2,
        "reference": 3, "xp": 4, "scenarios": 5, "sim": 6, "drivers": 7, "bench": 7, "cli": 8}
LOW_HEADER = "experiments/sim/include/sim/sim_scenario.h"
SCENARIO_FORBIDDEN = {"experiments/sim/include/sim/sim.h", "experiments/xp/include/xp/xp.h"}


def layer(path):
    if path == LOW_HEADER:
        return "scenarios"
    parts = path.split("/")
    if parts[0] == "reference":
        return "reference"
    if parts[0] == "solver" and len(parts) > 2 and "solver/" + parts[1] in RANK:
        return "solver/" + parts[1]
    if parts[0] == "experiments" and len(parts) > 2 and parts[1] in RANK:
        return parts[1]
    return None  # tests, generated headers: not layered


def sources(root):
    for top in ("solver", "reference", "experiments"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h", ".cpp", ".c.in", ".h.in")):
                    yield os.path.relpath(os.path.join(d, f), root)


def resolver(files):
    # "dir/name.h" as the include folders see it: the path below an include/ folder, and the
    # path below a library folder (experiments/scenarios/… is reached as "scenarios/…")
    keys = {}
    for f in files:
        if not f.endswith(".h"):
            continue
        parts = f.split("/")
        for i, p in enumerate(parts):
            if p == "include":
                keys.setdefault("/".join(parts[i + 1:]), []).append(f)
        keys.setdefault(parts[-1], []).append(f)
    return keys


def resolve(src, inc, keys, root):
    local = os.path.normpath(os.path.join(os.path.dirname(src), inc))
    if os.path.isfile(os.path.join(root, local)):
        return local
    found = keys.get(inc, [])
    if len(found) == 1:
        return found[0]
    # a bare name found in several folders: the one in the including file's library
    same = [f for f in found if f.split("/")[:2] == src.split("/")[:2]]
    return same[0] if len(same) == 1 else None


def include_graph(root):
    files = sorted(sources(root))
    keys = resolver(files)
    graph, unresolved = {}, []
    pattern = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for f in files:
        graph[f] = []
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for line in fh:
                m = pattern.match(line)
                if not m:
                    continue
                target = resolve(f, m.group(1), keys, root)
                if target:
                    graph[f].append(target)
                elif not m.group(1).startswith(("stabcon_", "sim_registry")):
                    unresolved.append((f, m.group(1)))
    return graph, unresolved


def cycles(graph):
    # the strongly connected components of more than one node (Tarjan), each a cycle's members
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_includes(root):
    graph, unresolved = include_graph(root)
    bad = []
    for f, targets in graph.items():
        lf = layer(f)
        for t in targets:
            lt = layer(t)
            if lf is None or lt is None or lf == lt:
                continue
            if RANK[lt] > RANK[lf] or (RANK[lt] == RANK[lf]):
                bad.append(f"{f} -> {t} ({lf} must not include {lt})")
            if lf == "scenarios" and t in SCENARIO_FORBIDDEN:
                bad.append(f"{f} -> {t} (a scenario includes the low headers only)")
    for f, inc in unresolved:
        bad.append(f'{f}: #include "{inc}" resolves to no single project file')
    for comp in cycles(graph):
        bad.append("include cycle among: " + ", ".join(comp))
    edges = sum(len(t) for t in graph.values())
    print(f"include arrows: {len(graph)} files, {edges} project includes checked")
    return bad


def check_calls(libs):
    # file-level call graph from each archive's members: defined and undefined global symbols
    defined, uses = {}, {}
    for lib in libs:
        out = subprocess.run(["nm", "-A", "-g", lib], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            m = re.match(r"^(.*?):(\S+?\.o):\s*(?:[0-9a-fA-F]+)?\s*([A-Za-z])\s+(\S+)$", line)
            if not m:
                continue
            member = os.path.basename(m.group(1)) + ":" + m.group(2)
            kind, sym = m.group(3), m.group(4)
            if kind == "U":
                uses.setdefault(member, set()).add(sym)
            elif kind == "T":  # functions: the call graph
                defined.setdefault(sym, member)
    graph = {}
    for member, syms in uses.items():
        graph[member] = sorted({defined[s] for s in syms if s in defined and defined[s] != member})
    print(f"call graph: {len(graph)} object files")
    return ["call cycle among: " + ", ".join(c) for c in cycles(graph)]


def main():
    if len(sys.argv) < 2:
        print(__doc__ or "usage: check_layers.py SOURCE_ROOT [LIB.a …]")
        return 2
    bad = check_includes(sys.argv[1]) + check_calls(sys.argv[2:])
    for b in bad:
        print("FAIL", b)
    print("layers: ok" if not bad else f"layers: {len(bad)} violation(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
