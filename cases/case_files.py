"""Writes one case folder for the case-building scripts (make_suites.py, make_sixteen.py):
input.txt, expected.txt from the bundled solver (verified later by the `sudoku` checker in
`cargo test`, never trusted as it is), and case.toml."""
import os, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLVER = os.path.join(ROOT, "target", "release", "sudoku")


def write_case(folder, text, toml, expected=True):
    d = os.path.join(ROOT, "cases", folder)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "input.txt"), "w") as f:
        f.write(text)
    if expected:
        out = subprocess.run([SOLVER], input=text.encode(), capture_output=True, check=True).stdout
        with open(os.path.join(d, "expected.txt"), "wb") as f:
            f.write(out)
    with open(os.path.join(d, "case.toml"), "w") as f:
        f.write(toml)
