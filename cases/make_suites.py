#!/usr/bin/env python3
"""Adds the problem-suite cases: POJ 3074 / AcWing 166 lines, Luogu P1784 spaced grids and
generated Samurai canvases (`judge gen --shape samurai --seed N`).

Run from the repository root after `cargo build --release`. Expected outputs are written by the
bundled solver and verified by the `sudoku` checker in `cargo test` (tests/cases.rs), never
trusted as they are; the suite tags are then checked against the inputs by the same test.
"""
import os, subprocess, sys
from case_files import write_case
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data")
SOLVER = os.path.join(ROOT, "target", "release", "sudoku")
JUDGE = os.path.join(ROOT, "target", "release", "judge")

def puzzles(name):
    with open(os.path.join(DATA, name)) as f:
        return [l.strip() for l in f if len(l.strip()) == 81 and not l.startswith("#")]

def pick(ps, n, offset):
    step = max(1, len(ps) // n)
    return [ps[(offset + i * step) % len(ps)] for i in range(n)]

def dotted(p):
    return p.replace("0", ".")

sets = {
    "17clue": puzzles("puzzles2_17_clue"),
    "top1465": puzzles("puzzles3_magictour_top1465"),
    "forum11": puzzles("puzzles5_forum_hardest_1905_11+"),
    "forum1106": puzzles("puzzles6_forum_hardest_1106"),
    "top95": puzzles("extra_norvig_top95"),
    "hardest11": puzzles("extra_norvig_hardest11"),
    "euler": puzzles("extra_euler96_easy50"),
}
lines_cases = [
    ("top95-first10", sets["top95"][:10]),
    ("euler-10", sets["euler"][10:20]),
    ("euler-50", sets["euler"]),
    ("euler-one", sets["euler"][7:8]),
    ("top95", sets["top95"]),
    ("hardest11", sets["hardest11"]),
    ("top1465-one", pick(sets["top1465"], 1, 3)),
    ("top1465-100a", pick(sets["top1465"], 100, 0)),
    ("top1465-100b", pick(sets["top1465"], 100, 5)),
    ("forum11-one", pick(sets["forum11"], 1, 11)),
    ("forum11-50a", pick(sets["forum11"], 50, 1)),
    ("forum11-50b", pick(sets["forum11"], 50, 2)),
    ("forum1106-one", pick(sets["forum1106"], 1, 17)),
    ("forum1106-50", pick(sets["forum1106"], 50, 3)),
    ("17clue-one", pick(sets["17clue"], 1, 29)),
    ("17clue-20a", pick(sets["17clue"], 20, 1)),
    ("17clue-20b", pick(sets["17clue"], 20, 2)),
    ("mixed-40", pick(sets["euler"], 10, 4) + pick(sets["top95"], 10, 4) + pick(sets["forum11"], 10, 4) + pick(sets["17clue"], 10, 4)),
    ("17clue-500", pick(sets["17clue"], 500, 6)),
    ("forum11-1000", pick(sets["forum11"], 1000, 7)),
]
for name, ps in lines_cases:
    write_case(f"poj3074/{name}", "".join(dotted(p) + "\n" for p in ps) + "end\n", 'checker = "sudoku"\n')

def spaced(p):
    return "".join(" ".join(p[r * 9 + c].replace(".", "0") for c in range(9)) + "\n" for r in range(9))
grid_cases = [(f"euler-{i}", sets["euler"][i]) for i in (1, 12, 23, 34)] + \
    [(f"top95-{i}", sets["top95"][i]) for i in (5, 40, 80)] + \
    [(f"hardest11-{i}", sets["hardest11"][i]) for i in (0, 4, 9)]
for name, p in grid_cases:
    write_case(f"luogu1784/{name}", spaced(p), 'checker = "sudoku"\n')

for seed in range(21, 34):
    text = subprocess.run([JUDGE, "gen", "--shape", "samurai", "--seed", str(seed)], capture_output=True, check=True).stdout.decode()
    write_case(f"samurai/gen-{seed}", text, 'checker = "sudoku"\n')
