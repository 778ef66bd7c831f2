#!/usr/bin/env python3
"""Adds generated puzzles to the POJ 3074 / AcWing 166 suite: files of unique puzzles
(`judge gen --format lines-end --blank .`) of the kind a judge's ordinary tests hold, so that
the suite keeps plenty of cases that every accepted solution passes once the `hard` ones are
left out (see tag_hard.py). Run from the repository root after `cargo build --release`, then
tag_hard.py. Expected outputs come from the bundled solver and are verified by the `sudoku`
checker in `cargo test`, never trusted as they are."""
import os, subprocess
from case_files import write_case

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JUDGE = os.path.join(ROOT, "target", "release", "judge")

for seed in range(1, 13):
    count = 1 if seed % 3 == 0 else 5
    text = subprocess.run(
        [JUDGE, "gen", "--format", "lines-end", "--blank", ".", "-n", str(count), "--seed", str(100 + seed)],
        capture_output=True, check=True,
    ).stdout.decode()
    write_case(f"poj3074/gen-{seed:02}", text, 'checker = "sudoku"\ntags = ["poj3074", "acwing166"]\n')
