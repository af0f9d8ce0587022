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
limit=2
case ${1:-} in 2 | all) limit=$1 && shift ;; esac
[ $# -gt 0 ] || { echo "usage: scripts/instructions.sh [2|all] FILE..." >&2; exit 2; }
# The files as named from where the script was started, before moving to
# the repository.
names=("$@")
files=()
for file in "$@"; do
    [ -f "$file" ] || { echo "scripts/instructions.sh: no file $file" >&2; exit 2; }
    files+=("$(realpath "$file")")
done
if [ -n "${THROUGHPUT:-}" ]; then
    throughput=$(realpath "$THROUGHPUT")
    cd "$(dirname "$0")/.."
else
    cd "$(dirname "$0")/.."
    throughput=target/release/examples/throughput
    cargo build --release --quiet --example throughput
fi
out=$(mktemp)
log=$(mktemp)
trap 'rm -f "$out" "$log"' EXIT
echo "| file | instructions | mispredicted branches |"
echo "|---|---|---|"
for i in "${!files[@]}"; do
    if ! valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out" \
        --toggle-collect='cagey::solver::Solver::count' "$throughput" "${files[i]}" "$limit" 1 native >/dev/null 2>"$log"; then
        echo "scripts/instructions.sh: measuring ${names[i]} failed:" >&2
        cat "$log" >&2
        exit 1
    fi
    # PROGRAM TOTALS: Ir, Bc, Bcm, Bi, Bim, each followed by its share;
    # mispredicted branches are Bcm + Bim. Printed as floating point, since
    # counts pass the 32-bit integers of some awks.
    callgrind_annotate "$out" 2>/dev/null | awk -v f="${names[i]}" '/PROGRAM TOTALS/ {
        gsub(",", ""); printf "| %s | %.0f | %.0f |\n", f, $1, $5 + $9 }'
done
