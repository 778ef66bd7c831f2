#!/usr/bin/env python3
"""Writes the cases of cases/interactive ("Sudoku with an oracle", src/interact/sudoku.rs).

Each case is a puzzle of cases/poj2676 with some givens taken away, so that it has several
solutions; the hidden one (expected.txt) is the original puzzle's. The query budget is the
count of solutions minus one: a solver that asks only where two remaining solutions differ
rules out one or more with each answer, so it fits; asking every blank does not.
Deterministic: rerunning writes the same files.
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def grid_of(path, skip_first):
    lines = open(path).read().split()
    if skip_first:
        lines = lines[1:]
    return [int(c) for c in "".join(lines[:9])]


def count(grid, cap):
    """Solutions of grid (0 blank), up to cap."""
    best = None
    for cell in range(81):
        if grid[cell]:
            continue
        r, c = divmod(cell, 9)
        used = {grid[r * 9 + k] for k in range(9)} | {grid[k * 9 + c] for k in range(9)}
        used |= {grid[(r // 3 * 3 + k // 3) * 9 + c // 3 * 3 + k % 3] for k in range(9)}
        free = [d for d in range(1, 10) if d not in used]
        if best is None or len(free) < len(best[1]):
            best = (cell, free)
    if best is None:
        return 1
    total = 0
    cell, free = best
    for d in free:
        grid[cell] = d
        total += count(grid, cap - total)
        grid[cell] = 0
        if total >= cap:
            break
    return total


def write(name, budget, puzzle, solution):
    folder = os.path.join(HERE, "interactive", name)
    os.makedirs(folder, exist_ok=True)
    rows = lambda g: "".join("".join(map(str, g[r * 9:r * 9 + 9])) + "\n" for r in range(9))
    with open(os.path.join(folder, "input.txt"), "w") as f:
        f.write(f"{budget}\n{rows(puzzle)}")
    with open(os.path.join(folder, "expected.txt"), "w") as f:
        f.write(rows(solution))


def main():
    # (name, source case, givens taken away, seed)
    plan = [("unique", "sample", 0, 0), ("three-solutions", "sample", 2, 3), ("eighteen-solutions", "sample", 3, 1),
            ("twenty-six-solutions", "sample", 5, 3)]
    for name, source, remove, seed in plan:
        base = os.path.join(HERE, "poj2676", source)
        puzzle = grid_of(os.path.join(base, "input.txt"), True)
        solution = grid_of(os.path.join(base, "expected.txt"), False)
        rng = random.Random(seed)
        givens = [i for i in range(81) if puzzle[i]]
        for i in rng.sample(givens, remove):
            puzzle[i] = 0
        solutions = count(list(puzzle), 1000)
        write(name, solutions - 1, puzzle, solution)
        print(f"{name}: {81 - puzzle.count(0)} givens, {solutions} solutions")


main()
