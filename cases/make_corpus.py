#!/usr/bin/env python3
"""Builds cases/ from ../shared (reference cases and puzzle sets) and generated gattai puzzles.

Run from the repository root after `cargo build --release --examples`:
    python3 cases/make_corpus.py GATTAI_DIR
where GATTAI_DIR holds `make_gattai` outputs named LAYOUT-SEED.txt. Expected outputs of new
cases are written by the bundled solver and then *verified* by the `sudoku` checker in
`cargo test` (tests/cases.rs), never trusted as they are. The shared reference cases keep the
expected outputs that came with them (checked by an independent SAT encoding).
Picks are deterministic: every Nth puzzle of each set.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared")
CASES = os.path.join(ROOT, "cases")
SOLVER = os.path.join(ROOT, "target", "release", "sudoku")

# Canvases once misread (issue 27): a block of lines without a blank line is one canvas. A
# vertical twodoku, 15 lines of 9 cells: every 9x9 window of it is a grid (rows 0, 3 and 6),
# as in a horizontal one. A Samurai with a sixth grid below, at row 18, column 6. Both were
# made unique by adding givens from a solution that a plain backtracking search in Python
# found, then minimal by taking away givens while `sudoku --count` still found one; that
# solution is the expected output (the checker in tests/cases.rs validates it).
VERTICAL_TWODOKU = """\
000264000
060090000
040000000
600047000
000106000
004000009
000000023
000005700
000000600
300008500
000000000
079000000
004000105
000000009
002030000
"""
VERTICAL_TWODOKU_ANSWER = """\
379264518
865791342
241358976
618947235
592136487
734582169
156479823
483625791
927813654
361798542
245361978
879254316
734982165
618547239
592136487
"""
SAMURAI_SIXTH_GRID = """\
003000060   007000803
090100030   500000060
104000000   098000000
000007003   000003040
500409000   400006200
020300006   309007001
200000000000000082009
006900000060700100005
900001000004000000000
      007008002
      006000000
      480050000
001008000000200000000
040000002000009000001
000104000000000000640
035801000   360049000
000000000   004800010
800035000   080000005
002000000000000450020
010900000500000700000
000050004600000030000
      001050078
      086004005
      900006000
      000010000
      000002000
      070000040
"""
SAMURAI_SIXTH_GRID_ANSWER = """\
753892461   247651893
892146537   531928764
164573289   698734152
681257943   872513946
537469812   415896237
429318756   369247581
215734698327154382679
376985124965783169425
948621375184926475318
      957638412
      236741895
      481259367
361528749516238614579
948367512873649527831
257194863492571398642
435871926   365149287
176249385   924875316
829635471   187263495
792413658421793456128
514986237598416782953
683752194673852931764
      341259678
      786134925
      925786134
      462317589
      519842367
      873965241
"""
# Unsolvable sparse 9x9 grids with a hidden pigeonhole (issue 27), see `main`.
PIGEONHOLES = [
    "000000000000026000000000000000000000010690000906001000001000090040010067000000010",
    "000900406000046090000000000000000900000300000000000000040000500790000030060000001",
    "000000000000090150000105009000000800000000010200000006100080000500000000900000640",
    "000203070000070203000000000602000900003620000007000000000000000000010090000000000",
    "009040000016000900005000000000000000002906500000050069000000000000001000000000005",
    "040800000000005000002000000370090000000000000009703000000000070000000095006000030",
]
# Random sparse canvases (non-clashing givens) found by the fuzzing of the canvas search.
SPARSE_SAMURAI = """\
002000000   000000000
000000004   000090000
000000290   000000006
000000705   000004008
000400000   000000000
000000000   071000000
000000000000000030000
000000100052000000700
000000000000030052000
      000000000
      000000000
      700000000
000000000000002000080
000460000000000000000
000000500000000008000
000000000   000000000
004000100   008000000
050000000   000900000
010000000   000000500
000600000   000000040
000020000   000040067
"""
# The slowest of 2,000 random sparse canvases per shape in benches/worst_case.rs for the
# depth-first canvas search (53.9 s, 4.8 s and 0.21 s); all have solutions (picosat agrees).
SLOW_SAMURAI = """\
000000000   050000000
000370000   000000500
000600002   800960000
000000000   200000000
092000004   000000000
000003000   000000000
007800090700000000000
000000060000005000000
000100000000060000200
      900000000
      000000000
      000000430
000000000000000000000
000000000050000000000
000000000000000000000
000008076   200905400
000400000   900000000
050000000   000000000
500000000   000000000
000004000   007000000
000200090   010000007
"""
SLOW_BUTTERFLY = """\
000070000000
000000400000
000020000800
000000000290
000000000004
000000000000
000008000000
000000000000
000000000300
000000000000
000000000040
007000200000
"""
SLOW_FLOWER = """\
   000000040
   000000000
   000000200
000000000000000
000000000000000
000000000001073
100000000000000
000000000000000
000000000000009
000000000000000
000000000040000
000000000000000
   000000000
   000000000
   000000001
"""
SPARSE_BUTTERFLY = """\
000400000007
000000000500
000500000000
000700000000
000000000000
400000000000
604000000000
000900000100
000000210000
000007000840
920030000000
000000000000
"""

SETS = {
    "17clue": "puzzles2_17_clue",
    "top1465": "puzzles3_magictour_top1465",
    "forum11": "puzzles5_forum_hardest_1905_11+",
    "forum1106": "puzzles6_forum_hardest_1106",
    "serg": "puzzles7_serg_benchmark",
}


def puzzles(key):
    with open(os.path.join(SHARED, "data", SETS[key])) as f:
        return [l.strip() for l in f if len(l.strip()) == 81 and not l.startswith("#")]


def pick(key, count, offset=0):
    all_ = puzzles(key)
    step = len(all_) // count
    return [all_[offset + i * step] for i in range(count)]


def rows(p, blank="0", sep=""):
    p = p.replace(".", blank).replace("0", blank)
    return "".join(sep.join(p[r * 9:(r + 1) * 9]) + "\n" for r in range(9))


def case(path, input_text, toml="checker = \"sudoku\"\n", expected=None, solve=True, mode="wb"):
    d = os.path.join(CASES, path)
    os.makedirs(d, exist_ok=True)
    data = input_text if isinstance(input_text, bytes) else input_text.encode()
    with open(os.path.join(d, "input.txt"), "wb") as f:
        f.write(data)
    if toml:
        with open(os.path.join(d, "case.toml"), "w") as f:
            f.write(toml)
    if expected is not None:
        with open(os.path.join(d, "expected.txt"), "wb") as f:
            f.write(expected if isinstance(expected, bytes) else expected.encode())
    elif solve:
        out = subprocess.run([SOLVER], input=data, capture_output=True, check=True).stdout
        with open(os.path.join(d, "expected.txt"), "wb") as f:
            f.write(out)


def copy_shared(name, path, toml="checker = \"sudoku\"\n"):
    src = os.path.join(SHARED, "cases", name)
    d = os.path.join(CASES, path)
    os.makedirs(d, exist_ok=True)
    for f in ("input.txt", "expected.txt"):
        if os.path.exists(os.path.join(src, f)):
            shutil.copy(os.path.join(src, f), os.path.join(d, f))
    with open(os.path.join(d, "case.toml"), "w") as f:
        f.write(toml)


def main():
    gattai_dir = sys.argv[1]
    for sub in ("poj2676", "lines", "grid", "samurai", "gattai", "bad-input", "harness"):
        shutil.rmtree(os.path.join(CASES, sub), ignore_errors=True)

    # The shared reference cases.
    copy_shared("poj2676-sample", "poj2676/sample")
    copy_shared("poj2676-hard", "poj2676/hard")
    copy_shared("multi-solution", "poj2676/multi-solution")
    copy_shared("no-solution", "poj2676/no-solution")
    copy_shared("poj3074-lines", "lines/poj3074", "checker = \"lines\"\n")
    copy_shared("samurai-seed", "samurai/seed")
    with open(os.path.join(CASES, "poj2676/no-solution/expected.txt"), "w") as f:
        f.write("no solution\n")
    with open(os.path.join(CASES, "poj2676/multi-solution/expected.txt"), "wb") as f:
        data = open(os.path.join(CASES, "poj2676/multi-solution/input.txt"), "rb").read()
        f.write(subprocess.run([SOLVER], input=data, capture_output=True, check=True).stdout)

    # POJ 2676 style: single puzzles from every set, and multi-case files.
    for key, n in (("17clue", 8), ("top1465", 6), ("forum11", 6), ("forum1106", 4), ("serg", 4)):
        for i, p in enumerate(pick(key, n), 1):
            case(f"poj2676/{key}-{i}", "1\n" + rows(p))
    for key, n in (("top1465", 10), ("forum11", 25), ("serg", 40)):
        ps = pick(key, n, offset=1)
        case(f"poj2676/{key}-t{n}", f"{n}\n" + "".join(rows(p) for p in ps))
    mixed = pick("17clue", 2, 3) + pick("forum1106", 2, 3)
    case("poj2676/mixed-sets-t4", "4\n\n" + "\n".join(rows(p) for p in mixed))
    case("poj2676/crlf-t2", ("2\n" + rows(mixed[0]) + rows(mixed[2])).replace("\n", "\r\n"))
    case("poj2676/dots-and-bom", b"\xef\xbb\xbf1\n" + rows(mixed[1], ".").encode())
    big = pick("17clue", 10000, 2)
    case("poj2676/big-10000", f"10000\n" + "".join(rows(p) for p in big),
         "checker = \"sudoku\"\ntags = [\"large\"]\n")
    case("poj2676/zero-cases", "0\n", expected="")
    samurai_then_grid = open(os.path.join(SHARED, "cases/samurai-seed/input.txt")).read()
    case("poj2676/samurai-and-grid-t2", "2\n" + samurai_then_grid + rows(mixed[0]))

    # Line format (POJ 3074 / AcWing 166): '.' blanks, comments, 'end'.
    for key, n in (("17clue", 4), ("top1465", 3), ("forum11", 3), ("forum1106", 2)):
        ps = pick(key, n * 3, offset=5)
        for i in range(n):
            chunk = ps[i * 3:(i + 1) * 3]
            case(f"lines/{key}-{i + 1}", f"# three puzzles from {SETS[key]}\n" + "\n".join(chunk) + "\nend\n",
                 "checker = \"lines\"\n")
    case("lines/serg-multi-solution", "\n".join(pick("serg", 5, 7)) + "\n")
    case("lines/no-end-zeros", "\n".join(p.replace(".", "0") for p in pick("top1465", 3, 9)) + "\n",
         "checker = \"lines\"\n")

    # One grid without T: digit rows, and Luogu P1784's spaced rows.
    sources = [("17clue", 3), ("top1465", 3), ("forum11", 3), ("forum1106", 2), ("serg", 2)]
    for key, n in sources:
        for i, p in enumerate(pick(key, n, offset=11), 1):
            case(f"grid/{key}-rows-{i}", rows(p))
        for i, p in enumerate(pick(key, n, offset=13), 1):
            case(f"grid/{key}-spaced-{i}", rows(p, "0", " "))
    case("grid/two-grids-blank-line", rows(pick("top1465", 1, 17)[0]) + "\n" + rows(pick("forum11", 1, 17)[0]))

    # Sparse puzzles that once stalled the solver for seconds to minutes. Their answers
    # ('no solution' for two of them) were confirmed by a SAT encoding, and tests/cases.rs
    # proves every 'no solution' again by an exhaustive count.
    sparse = "000000009000000003000000000217000900000700000009000210600000000000000040000000060"
    case("poj2676/sparse-no-solution-t5", "5\n" + rows(sparse) * 5, expected="no solution\n" * 5)
    # Issue 27: sparse grids (15-17 givens, no clash) where three digits have only two cells of
    # a box left, which no rule of the depth-first search sees: each took it 50,000 guesses
    # (16-20 ms whole process) before the SAT engine; now a pigeonhole check refutes them
    # when the search hands over. The six slowest of 2,000 made as `pigeonhole` in
    # benches/worst_case.rs makes them (by a Python version of it, seed 1).
    case("poj2676/pigeonhole-no-solution-t6", "6\n" + "".join(rows(p) for p in PIGEONHOLES),
         expected="no solution\n" * 6)
    case("samurai/sparse-no-solution", SPARSE_SAMURAI, expected="no solution\n")
    case("gattai/butterfly-sparse", SPARSE_BUTTERFLY)
    case("samurai/sparse-slow", SLOW_SAMURAI)
    case("gattai/butterfly-sparse-slow", SLOW_BUTTERFLY)
    case("gattai/flower-sparse-slow", SLOW_FLOWER)
    unique = "checker = \"sudoku\"\ntags = [\"unique\"]\n"
    case("gattai/vertical-twodoku", VERTICAL_TWODOKU, unique, expected=VERTICAL_TWODOKU_ANSWER)
    case("gattai/samurai-sixth-grid", SAMURAI_SIXTH_GRID, unique, expected=SAMURAI_SIXTH_GRID_ANSWER)

    # Samurai and other gattai, generated and proven unique with `sudoku --count`.
    for name in sorted(os.listdir(gattai_dir)):
        if not name.endswith(".txt"):
            continue
        layout, seed = name[:-4].rsplit("-", 1)
        text = open(os.path.join(gattai_dir, name)).read()
        folder = "samurai" if layout == "samurai" else "gattai"
        case(f"{folder}/{layout}-{seed}", text, "checker = \"sudoku\"\ntags = [\"unique\"]\n")

    # Bad input: the shared ones, then more. Each must fail cleanly (RE) or be a valid edge.
    bad = os.path.join(SHARED, "cases", "bad-input")
    valid = {"crlf-valid": None, "zero-cases-valid": "", "duplicate-given-in-row": "no solution\n"}
    for f in sorted(os.listdir(bad)):
        if not f.endswith(".txt"):
            continue
        stem = f[:-4]
        data = open(os.path.join(bad, f), "rb").read()
        if stem in valid:
            case(f"bad-input/{stem}", data, expected=valid[stem])
        else:
            case(f"bad-input/{stem}", data, "expect = \"RE\"\n", solve=False)
    one = rows(pick("17clue", 1)[0])
    re_case = "expect = \"RE\"\n"
    case("bad-input/nul-bytes", "1\n" + one[:30] + "\0" + one[31:], re_case, solve=False)
    case("bad-input/binary-garbage", bytes((i * 131 + 7) % 256 for i in range(4096)), re_case, solve=False)
    case("bad-input/huge-line", b"1\n" + b"0" * (10 * 1024 * 1024) + b"\n", re_case, solve=False)
    case("bad-input/t-billion", "1000000000\n" + one, re_case, solve=False)
    case("bad-input/negative-t", "-1\n" + one, re_case, solve=False)
    case("bad-input/t-overflow", "99999999999999999999999\n" + one, re_case, solve=False)
    case("bad-input/line-80-cells", pick("top1465", 1)[0][:80] + "\n", re_case, solve=False)
    case("bad-input/spaced-double-space", rows(pick("top1465", 1)[0], "0", " ").replace("0 0", "0  0", 1),
         re_case, solve=False)
    seed = open(os.path.join(SHARED, "cases/samurai-seed/input.txt")).read().split("\n")
    void = list(seed)
    void[10] = "0" + void[10][1:]  # a cell in the left void of the middle band
    case("bad-input/samurai-zero-in-void", "\n".join(void), re_case, solve=False)
    clash = list(seed)
    # Row 7, column 7 lies in the box the top-left grid shares with the centre grid; a 5 there
    # repeats the given 5 at row 7, column 6 of the top-left grid.
    clash[6] = clash[6][:6] + "5" + clash[6][7:]
    case("bad-input/samurai-overlap-clash", "\n".join(clash), expected="no solution\n")
    case("bad-input/only-blank-lines", "\n\n  \n\n", re_case, solve=False)
    case("bad-input/truncated-canvas", "\n".join(seed[:15]) + "\n", re_case, solve=False)
    # Inputs once read silently as something else: each must now be an error with a column,
    # after every good case before it has been answered.
    case("bad-input/first-line-ten-zeros", "0000000000\n" + one, re_case, solve=False)
    case("bad-input/first-line-eight-zeros", "00000000\n" + one, re_case, solve=False)
    digits80 = pick("17clue", 1)[0].replace(".", "0")[:80]
    case("bad-input/line-80-digits", digits80 + "\n", re_case, solve=False)
    case("bad-input/text-after-last-case", "1\n" + one + "GARBAGE\n", re_case, solve=False)

    # Harness cases: the fixture misbehaves on demand; each expects its verdict.
    fx = "solver = \"@fixture\"\n"
    harness = {
        "tle-cpu": ("spin 5000\n", "TLE", "time_limit = \"300ms\"\n"),
        "tle-sleep": ("sleep 10000\n", "TLE", "time_limit = \"200ms\"\n"),
        "mle": ("alloc 96\n", "MLE", "memory_limit = \"64MiB\"\n"),
        "ole": ("flood 8\n", "OLE", "output_limit = \"1MiB\"\n"),
        "re-exit": ("print 1\nexit 3\n", "RE", ""),
        "re-abort": ("abort\n", "RE", ""),
        "re-segv": ("segv\n", "RE", ""),
        "wa": ("print 41\n", "WA", ""),
        "pe": ("print 4 2\n", "PE", ""),
        "garbage-output": ("garbage 64\n", "WA", ""),
        "ac": ("print 42\n", "AC", ""),
        "ok-no-expected": ("print anything\n", "OK", ""),
    }
    for name, (script, verdict, extra) in harness.items():
        expected = None if verdict == "OK" else ("42\n" if verdict != "PE" else "4\n2\n")
        case(f"harness/{name}", script, fx + f"expect = \"{verdict}\"\n" + extra, expected=expected, solve=False)
    # The float checker: within 1e-6 (absolute or relative) passes, beyond it is WA.
    case("harness/float-within-error", "print 0.3333334 2000000.5\n", fx + "checker = \"float\"\n",
         expected="0.333333 2000000\n", solve=False)
    case("harness/float-beyond-error", "print 0.334\n", fx + "checker = \"float\"\nexpect = \"WA\"\n",
         expected="0.333\n", solve=False)
    d = os.path.join(CASES, "harness/ie-no-input")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "expected.txt"), "w").write("42\n")
    open(os.path.join(d, "case.toml"), "w").write(fx + "expect = \"IE\"\n")


if __name__ == "__main__":
    main()
