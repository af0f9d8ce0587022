#!/usr/bin/env python3
"""Count every solution of puzzles in cagey's KenKen text with OR-tools CP-SAT.

An outside oracle for the counts in puzzles/counts.tsv: it shares no code with
cagey. It reads the neknek format as cagey extends it (`# N boxes RxC` headers,
`distinct` lines), expands each cage into its allowed tuples with Python's exact
integers, and enumerates all solutions.

    python3 -m venv /tmp/ortools && /tmp/ortools/bin/pip install ortools
    /tmp/ortools/bin/python scripts/cpsat_count.py puzzles/kenken/killer-*.txt

Prints one line per puzzle: FILE INDEX COUNT.
"""
import itertools
import math
import sys

from ortools.sat.python import cp_model


def parse(text):
    """Yields (n, groups, cages) for each puzzle; cells are (row, col)."""
    puzzle = None
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0].startswith("#"):
            if puzzle:
                yield puzzle
            rest = ([words[0][1:]] if words[0] != "#" else []) + words[1:]
            n = int(rest[0])
            groups = []
            if len(rest) == 3 and rest[1] == "boxes":
                h, w = map(int, rest[2].lower().split("x"))
                for top in range(0, n, h):
                    for left in range(0, n, w):
                        groups.append([(top + i, left + j) for i in range(h) for j in range(w)])
            puzzle = (n, groups, [])
            continue
        cell = lambda t: (ord(t[0].upper()) - ord("A"), int(t[1:]) - 1)
        if words[0] == "distinct":
            puzzle[1].append([cell(t) for t in words[1:]])
        else:
            op = {"x": "*", "X": "*", "×": "*", "÷": "/", "−": "-", "=": "!"}.get(words[0], words[0])
            puzzle[2].append((op, int(words[1]), [cell(t) for t in words[2:]]))
    if puzzle:
        yield puzzle


def holds(op, target, values):
    k = len(values)
    if op == "+":
        return sum(values) == target
    if op == "*":
        return math.prod(values) == target
    if op == "-":
        return abs(values[0] - values[1]) == target
    if op == "/":
        big, small = max(values), min(values)
        return big % small == 0 and big // small == target
    if op == "!":
        return values[0] == target
    if op == "?":
        ops = ["!"] if k == 1 else ["+", "-", "*", "/"] if k == 2 else ["+", "*"]
        return any(holds(o, target, values) for o in ops)
    raise ValueError(f"unknown op {op}")


def count(n, groups, cages):
    model = cp_model.CpModel()
    x = [[model.NewIntVar(1, n, f"x{r}{c}") for c in range(n)] for r in range(n)]
    lines = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    all_groups = lines + groups
    for group in all_groups:
        model.AddAllDifferent([x[r][c] for r, c in group])
    for op, target, cells in cages:
        apart = lambda a, b: any(a in g and b in g for g in all_groups)
        tuples = [
            values
            for values in itertools.product(range(1, n + 1), repeat=len(cells))
            if holds(op, target, values)
            and all(values[i] != values[j] or not apart(cells[i], cells[j])
                    for i in range(len(cells)) for j in range(i + 1, len(cells)))
        ]
        model.AddAllowedAssignments([x[r][c] for r, c in cells], tuples)

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.count = 0

        def on_solution_callback(self):
            self.count += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Counter()
    solver.Solve(model, counter)
    return counter.count


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            for index, puzzle in enumerate(parse(f.read())):
                print(path, index, count(*puzzle), flush=True)
