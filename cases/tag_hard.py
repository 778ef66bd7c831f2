#!/usr/bin/env python3
"""Tags the 9x9 suite cases `hard` by the weakest solutions judges accept.

The yardsticks are tests/fixtures/plain.rs (backtracking in reading order, digits 1 to 9, no
fewest-candidates choice: what most accepted POJ 2676 solutions are) and
tests/fixtures/typical.rs (depth-first search on the cell with the fewest candidates), each
compiled with `rustc -O`. A case is `hard` when either needs more than a third of the
strictest time limit among the problems the case belongs to (poj2676: 2000 ms; poj3074,
acwing166, luogu1784: 1000 ms), in CPU time on this machine (a judge's machine is slower), or
does not finish in 20 s. Every other case of those suites is left untagged. Run from the repository
root; it rewrites the `tags` line of each such case.toml.
"""
import os, re, resource, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMITS = {"poj2676": 2000, "poj3074": 1000, "acwing166": 1000, "luogu1784": 1000}
MODE = {"poj2676": "poj2676", "poj3074": "poj3074", "acwing166": "poj3074", "luogu1784": "luogu1784"}

def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def main():
    exes = []
    for name in ["plain", "typical"]:
        exe = os.path.join(tempfile.mkdtemp(), name)
        subprocess.run(["rustc", "--edition", "2021", "-O", "-o", exe, os.path.join(ROOT, f"tests/fixtures/{name}.rs")], check=True)
        exes.append(exe)
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "cases"))):
        if "case.toml" not in files or "input.txt" not in files:
            continue
        path = os.path.join(folder, "case.toml")
        text = open(path).read()
        found = re.search(r'^tags = \[(.*)\]$', text, re.M)
        if not found:
            continue
        tags = [t.strip().strip('"') for t in found.group(1).split(",") if t.strip()]
        problems = [t for t in tags if t in LIMITS]
        if not problems:
            continue
        limit = min(LIMITS[p] for p in problems)
        ms = 0.0
        for exe in exes:
            before = cpu_of_children()
            try:
                with open(os.path.join(folder, "input.txt"), "rb") as stdin:
                    subprocess.run([exe, MODE[problems[0]]], stdin=stdin, stdout=subprocess.DEVNULL, timeout=20)
                ms = max(ms, (cpu_of_children() - before) * 1000)
            except subprocess.TimeoutExpired:
                ms = float("inf")
        hard = ms > limit / 3
        tags = [t for t in tags if t != "hard"] + (["hard"] if hard else [])
        new = re.sub(r'^tags = \[.*\]$', "tags = [" + ", ".join(f'"{t}"' for t in tags) + "]", text, flags=re.M)
        if new != text:
            open(path, "w").write(new)
        print(f"{os.path.relpath(folder, ROOT)}: {ms:.0f} ms of {limit}: {'hard' if hard else '-'}")

main()
