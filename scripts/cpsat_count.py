#!/usr/bin/env python3
"""Count every solution of puzzles in cagey's KenKen text with OR-tools CP-SAT.

An outside oracle for the counts in puzzles/counts.tsv: it shares no code with
cagey. It reads the neknek format as cagey extends it (`# N boxes RxC killer`
headers, `distinct` group lines, `distinct` and `overlap` before a cage's op,
givens in caged cells), and SudoCue killer strings (one 9x9 Killer a line).
A sum cage is a linear constraint; any other cage is expanded into its allowed
tuples with Python's exact integers; a distinct cage is also all-different.

    python3 -m venv /tmp/ortools && /tmp/ortools/bin/pip install ortools
    /tmp/ortools/bin/python scripts/cpsat_count.py puzzles/kenken/killer-*.txt

Prints one line per puzzle: FILE INDEX COUNT.
"""
import itertools
import math
import sys

from ortools.sat.python import cp_model


def boxes(n, h, w):
    return [[(top + i, left + j) for i in range(h) for j in range(w)]
            for top in range(0, n, h) for left in range(0, n, w)]


ARROWS = {"<": (0, -1), ">": (0, 1), "^": (-1, 0), "v": (1, 0),
          "`": (-1, -1), "'": (-1, 1), ",": (1, -1), ".": (1, 1)}


def killer_string(text):
    """A SudoCue killer string as (n, groups, cages); a sum of 0 is a group."""
    def value(ch):
        if ch.isdigit():
            return int(ch)
        if "A" <= ch <= "Z":
            return ord(ch) - ord("A") + 10
        return ord(ch) - ord("a") + 36

    def root(i):
        for _ in range(82):
            if text[i] not in ARROWS:
                return i
            dr, dc = ARROWS[text[i]]
            i = (i // 9 + dr) * 9 + i % 9 + dc
        raise ValueError("arrows in a loop")

    groups, cages = boxes(9, 3, 3), []
    for r in range(81):
        if text[r] in ARROWS:
            continue
        cells = [(i // 9, i % 9) for i in range(81) if root(i) == r]
        if value(text[r]) == 0:
            groups.append(cells)
        else:
            cages.append(("+", value(text[r]), cells, True))
    return (9, groups, cages)


def parse(text):
    """Yields (n, groups, cages) for each puzzle; cells are (row, col), a
    cage is (op, target, cells, distinct)."""
    puzzle, killer = None, False
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if len(words[0]) == 81 and any(ch in ARROWS for ch in words[0] if ch != "."):
            yield killer_string(words[0])
            continue
        if words[0].startswith("#"):
            rest = ([words[0][1:]] if words[0] != "#" else []) + words[1:]
            if not rest or not rest[0].isdigit():
                continue
            if puzzle:
                yield puzzle
            n = int(rest[0])
            groups, killer = [], "killer" in rest
            if "boxes" in rest:
                h, w = map(int, rest[rest.index("boxes") + 1].lower().split("x"))
                groups = boxes(n, h, w)
            puzzle = (n, groups, [])
            continue
        cell = lambda t: (ord(t[0].upper()) - ord("A"), int(t[1:]) - 1)
        marks = set()
        while words[0] in ("distinct", "overlap"):
            marks.add(words.pop(0))
        if marks == {"distinct"} and words[0][0].isalpha() and words[0][1:].isdigit():
            puzzle[1].append([cell(t) for t in words])
            continue
        op = {"x": "*", "X": "*", "×": "*", "÷": "/", "−": "-", "=": "!"}.get(words[0], words[0])
        distinct = "distinct" in marks or (killer and "overlap" not in marks and op != "!")
        puzzle[2].append((op, int(words[1]), [cell(t) for t in words[2:]], distinct))
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
    for op, target, cells, distinct in cages:
        cell_vars = [x[r][c] for r, c in cells]
        if distinct:
            model.AddAllDifferent(cell_vars)
        if op == "+":
            model.Add(sum(cell_vars) == target)
            continue
        apart = lambda a, b: any(a in g and b in g for g in all_groups)
        tuples = [
            values
            for values in itertools.product(range(1, n + 1), repeat=len(cells))
            if holds(op, target, values)
            and all(values[i] != values[j] or not (distinct or apart(cells[i], cells[j]))
                    for i in range(len(cells)) for j in range(i + 1, len(cells)))
        ]
        model.AddAllowedAssignments(cell_vars, tuples)

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
