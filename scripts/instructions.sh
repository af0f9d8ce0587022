#!/usr/bin/env bash
# Prints the instructions and mispredicted branches that the native backend
# takes to solve each file, as counted by valgrind's callgrind with its
# branch simulator: the same on every run, where wall time on a shared
# machine moves by more than a change of a few percent (see the README).
#
#   scripts/instructions.sh [LIMIT] FILE...
#
# LIMIT: `2` (prove unique, the default) or `all` (count every solution).
# Only the solving is counted (`Solver::count` in `examples/throughput`,
# each puzzle once, read first), not reading the file. Needs valgrind.
# THROUGHPUT=path measures that build of the example instead of this
# tree's, to compare two builds.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=2
case ${1:-} in 2 | all) limit=$1 && shift ;; esac
[ $# -gt 0 ] || { echo "usage: scripts/instructions.sh [2|all] FILE..." >&2; exit 2; }
throughput=${THROUGHPUT:-target/release/examples/throughput}
[ -n "${THROUGHPUT:-}" ] || cargo build --release --quiet --example throughput
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "| file | instructions | mispredicted branches |"
echo "|---|---|---|"
for file in "$@"; do
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out" \
        --toggle-collect='cagey::solver::Solver::count' "$throughput" "$file" "$limit" 1 native >/dev/null 2>&1
    # PROGRAM TOTALS: Ir, Bc, Bcm, Bi, Bim, each followed by its share;
    # mispredicted branches are Bcm + Bim.
    callgrind_annotate "$out" 2>/dev/null | awk -v f="$file" '/PROGRAM TOTALS/ {
        gsub(",", ""); printf "| %s | %d | %d |\n", f, $1, $5 + $9 }'
done
