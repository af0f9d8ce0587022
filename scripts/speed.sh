#!/usr/bin/env bash
# The one way to measure cagey's speed. Every figure the README shows comes
# from `scripts/speed.sh table`.
#
#   scripts/speed.sh table              the README's table (release build)
#   scripts/speed.sh compare A B [FILE…] two builds of the throughput example
#                                       in turns, median ratio of B to A
#   scripts/speed.sh instructions [LIMIT] FILE…
#                                       callgrind's instruction counts (needs
#                                       valgrind): repeatable on a busy machine
#   scripts/speed.sh flat               the time per solution of counts to
#                                       10³, 10⁴ and 10⁵ solutions, each
#                                       backend, on empty grids
#   scripts/speed.sh killers [FILE]     each Killer of FILE (default
#                                       benches/killer/forum-42.txt) told
#                                       unique or not by native, SAT and ISS,
#                                       in turns a puzzle; TIMEOUT seconds
#                                       each (default 600)
#
# `table` runs on what the repository ships (puzzles/, benches/ and puzzles
# that `cagey generate` makes), one thread, medians of RUNS runs (default
# 5). Peers join when they are there: the `sudoku` crate's harness
# (../shared/peers/sudoku-crate, built with `cargo build --release` there),
# CP-SAT (CPSAT="PYTHON SCRIPT", default /tmp/ortools/bin/python with
# ../shared/peers/cpsat_kenken.py) and ISS (../shared/peers/iss, run by
# node). A missing peer leaves a `-`.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
oracle=../shared/peers/sudoku-crate/target/release/sudoku-oracle
cpsat=${CPSAT:-/tmp/ortools/bin/python ../shared/peers/cpsat_kenken.py}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk -v f="${1:-%.0f}" '{ t[NR] = $1 } END { printf f, t[int((NR + 1) / 2)] }'; }
commas() { sed -E ':a; s/([0-9])([0-9]{3})($|[^0-9])/\1,\2\3/; ta'; } # 1234567 → 1,234,567
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; } # a key=value field of a line

build() {
    cargo build --release --quiet --example throughput
    cargo build --release --quiet
    throughput=target/release/examples/throughput
    cagey=target/release/cagey
}

# A Sudoku row: native's and SAT's rate solving only (the puzzles read
# first, as the crate's harness does), and the crate's, in turns a round.
sudoku_row() { # label, file, limit (2 or all), unit (puzzles or solutions), oracle mode
    local label=$1 file=$2 limit=$3 unit=$4 mode=$5 peer=-
    for _ in $(seq "$runs"); do
        for backend in native sat; do
            MIN_SECS=1 "$throughput" "$file" "$limit" 1 "$backend" | field "${unit}_per_sec" | tr '\n' ' '
        done
        if [ -x "$oracle" ]; then
            "$oracle" "$mode" 1 1 "$file" | awk -v unit="$unit" '{
                for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
                r = f["median_puzzles_per_sec"]; if (unit != "puzzles") r = r * f["checksum"] / f["n"]
                printf "%.0f", r }'
        fi
        echo
    done >"$tmp/rounds"
    [ -x "$oracle" ] && peer="sudoku crate $(awk '{ print $3 }' "$tmp/rounds" | median | commas)/s"
    printf '| %s | %s/s | %s/s | %s |\n' "$label" \
        "$(awk '{ print $1 }' "$tmp/rounds" | median | commas)" "$(awk '{ print $2 }' "$tmp/rounds" | median | commas)" "$peer"
}

# A KenKen row: the median and worst of each puzzle's median time.
kenken_row() { # label, file, limit
    local label=$1 file=$2 limit=$3 cells=() peer=-
    for backend in native sat; do
        cells+=("$("$throughput" "$file" "$limit" "$runs" "$backend" per-puzzle |
            sed -n 's/.*per_puzzle_median_ms=\([0-9.]*\) per_puzzle_worst_ms=\([0-9.]*\).*/\1 ms (worst \2)/p')")
    done
    if [ -x "${cpsat%% *}" ] && [ -f "${cpsat##* }" ] && [ "$limit" = all ]; then
        rm -f "$tmp"/p.*
        awk -v dir="$tmp" '/^# [0-9]/ { n++ } { print > (dir "/p." n) }' "$file"
        peer="CP-SAT $(for p in "$tmp"/p.*; do
            $cpsat "$p" | sed -n 's/.*total=\([0-9.]*\)s.*/\1/p' | awk '{ print 1000 * $1 }'
        done | median %.1f) ms"
    fi
    printf '| %s | %s | %s | %s |\n' "$label" "${cells[0]}" "${cells[1]}" "$peer"
}

# A row of generated puzzles: each seed's time through the command line,
# `count --limit LIMIT` on each backend, and CP-SAT's, each once and cut at
# 60 s.
generated_row() { # label, generate arguments, limit, seeds
    local label=$1 gen=$2 limit=$3 seeds=$4 cells=() peer=-
    for seed in $seeds; do
        # shellcheck disable=SC2086
        "$cagey" generate $gen --seed "$seed" >"$tmp/g.$seed.txt"
    done
    for backend in native sat; do
        cells+=("$(for seed in $seeds; do
            timed 60 "$cagey" count --jobs 1 --backend "$backend" --limit "$limit" "$tmp/g.$seed.txt"
        done | xargs) s")
    done
    if [ -x "${cpsat%% *}" ] && [ -f "${cpsat##* }" ]; then
        peer="CP-SAT $(for seed in $seeds; do
            timeout 60 $cpsat --limit "$limit" "$tmp/g.$seed.txt" | sed -n 's/.*total=\([0-9.]*\)s.*/\1/p' | grep . ||
                echo ">60"
        done | xargs) s"
    fi
    printf '| %s | %s | %s | %s |\n' "$label" "${cells[0]}" "${cells[1]}" "$peer"
}

# A row of `generate` runs: each seed's time to make the puzzle.
generate_row() { # label, generate arguments, seeds
    local label=$1 gen=$2 seeds=$3
    # shellcheck disable=SC2086
    printf '| %s | %s s | - | - |\n' "$label" "$(for seed in $seeds; do
        timed 120 "$cagey" generate $gen --seed "$seed"
    done | xargs)"
}

# The median seconds of `count --jobs JOBS` through the command line on
# each backend, and CP-SAT's on LATIN×LATIN Latin squares if given.
count_row() { # label, file, jobs, latin order or -
    local label=$1 file=$2 jobs=$3 latin=$4 cells=() peer=-
    for backend in native sat; do
        cells+=("$(for _ in $(seq "$runs"); do
            timed 600 "$cagey" count --jobs "$jobs" --backend "$backend" "$file"
        done | median %.2f) s")
    done
    if [ "$latin" != - ] && [ -x "${cpsat%% *}" ] && [ -f "${cpsat##* }" ]; then
        peer="CP-SAT $(for _ in $(seq "$runs"); do
            $cpsat --latin "$latin" | sed -n 's/.*total=\([0-9.]*\)s.*/\1/p'
        done | median %.2f) s"
    fi
    printf '| %s | %s | %s | %s |\n' "$label" "${cells[0]}" "${cells[1]}" "$peer"
}

# Per solution, in microseconds, of one-thread counts to 10³, 10⁴ and 10⁵
# solutions on empty grids: flat when no call grows with the solutions
# found before it.
flat() {
    build
    printf '# 9 boxes 3x3\n' >"$tmp/sudoku.txt"
    printf '# 7\n' >"$tmp/latin.txt"
    echo "| grid | backend | µs a solution, to 10³ | to 10⁴ | to 10⁵ |"
    echo "|---|---|---|---|---|"
    for grid in sudoku latin; do
        for backend in native sat; do
            printf '| empty %s | %s |' "$([ $grid = sudoku ] && echo '9×9 Sudoku' || echo '7×7 Latin square')" "$backend"
            for limit in 1000 10000 100000; do
                printf ' %s |' "$(for _ in $(seq "$runs"); do
                    "$cagey" count --jobs 1 --backend "$backend" --limit "$limit" --format json "$tmp/$grid.txt" |
                        sed -n 's/.*"elapsed_ms":\([0-9.]*\).*/\1/p' | awk -v n="$limit" '{ print 1000 * $1 / n }'
                done | median %.1f)"
            done
            echo
        done
    done
}

# The seconds a command takes, or `>LIMIT` when it is cut there.
timed() { # LIMIT COMMAND…
    local limit=$1 start end
    shift
    start=$(date +%s%N)
    if timeout "$limit" "$@" >/dev/null 2>&1; then
        end=$(date +%s%N)
        awk -v d=$((end - start)) 'BEGIN { printf "%.2f\n", d / 1e9 }'
    else
        echo ">$limit"
    fi
}

table() {
    build
    echo "| work | native | SAT | peer |"
    echo "|---|---|---|---|"
    sudoku_row "200 17-clue Sudoku, prove unique" puzzles/sudoku/seventeen-clue-200.txt 2 puzzles count2
    sudoku_row "200 forum_hardest Sudoku, prove unique" puzzles/sudoku/forum-hardest-200.txt 2 puzzles count2
    sudoku_row "a Sudoku with 1,555 solutions, count" puzzles/sudoku/serg-1555-solutions.txt all solutions countall
    count_row "all 161,280 5×5 Latin squares, count" puzzles/sudoku/empty-5x5.txt 1 5
    kenken_row "30 Keen 9×9 unreasonable, prove unique" puzzles/kenken/keen-9x9-u.txt 2
    kenken_row "the same, no-op, count every solution" puzzles/kenken/keen-9x9-u-noop.txt all
    killer_row "42 forum Killers (benches/), prove unique" benches/killer/forum-42.txt
    killer_row "5 harder forum Killers (benches/), unique or not" benches/killer/forum-hard-5.txt
    generated_row "\`generate --size 25\`, seeds 1–10, count to 2" "--size 25" 2 "$(seq 10 | xargs)"
    generated_row "\`generate --size 25 --noop\`, seeds 1–10, count to 2" "--size 25 --noop" 2 "$(seq 10 | xargs)"
    generated_row "\`generate --size 20 --noop\`, seeds 1–5, count to 2" "--size 20 --noop" 2 "1 2 3 4 5"
    generate_row "\`generate --size 25 --unique\`, seeds 1–5" "--size 25 --unique" "1 2 3 4 5"
    generate_row "\`generate --size 25 --noop --unique\`, seeds 1–5" "--size 25 --noop --unique" "1 2 3 4 5"
    echo
    echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); medians of $runs runs; one thread."
}

compare() { # A B FILE…: solving rate of B over A, a run of each a round
    local a=${1:?usage: scripts/speed.sh compare A B [FILE…]} b=${2:?usage: scripts/speed.sh compare A B [FILE…]}
    shift 2
    [ $# -gt 0 ] || set -- puzzles/sudoku/seventeen-clue-200.txt puzzles/sudoku/forum-hardest-200.txt \
        puzzles/kenken/keen-9x9-u.txt puzzles/kenken/keen-9x9-u-noop.txt
    echo "| file | A puzzles/s | B puzzles/s | B / A |"
    echo "|---|---|---|---|"
    for file in "$@"; do
        limit=2
        case $file in *noop* | *serg*) limit=all ;; esac
        for _ in $(seq "${RUNS:-9}"); do
            ra=$(MIN_SECS=1 "$a" "$file" "$limit" 1 | field puzzles_per_sec)
            rb=$(MIN_SECS=1 "$b" "$file" "$limit" 1 | field puzzles_per_sec)
            echo "$ra $rb"
        done >"$tmp/ab"
        printf '| %s | %s | %s | %s |\n' "$(basename "$file")" "$(awk '{ print $1 }' "$tmp/ab" | median)" \
            "$(awk '{ print $2 }' "$tmp/ab" | median)" "$(awk '{ print $2 / $1 }' "$tmp/ab" | median %.3f×)"
    done
}

instructions() { # [LIMIT] FILE…: the solving's instructions and mispredicted branches
    local limit=2
    case ${1:-} in 2 | all) limit=$1; shift ;; esac
    [ $# -gt 0 ] || { echo "usage: scripts/speed.sh instructions [2|all] FILE…" >&2; exit 2; }
    build
    echo "| file | instructions | mispredicted branches |"
    echo "|---|---|---|"
    for file in "$@"; do
        valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$tmp/cg" \
            --toggle-collect='cagey::solver::Solver::count' "$throughput" "$file" "$limit" 1 native >/dev/null
        # PROGRAM TOTALS: Ir, Bc, Bcm, Bi, Bim, each with its share; the
        # mispredicted branches are Bcm + Bim.
        callgrind_annotate "$tmp/cg" 2>/dev/null | awk -v f="$(basename "$file")" '/PROGRAM TOTALS/ {
            gsub(",", ""); printf "| %s | %.0f | %.0f |\n", f, $1, $5 + $9 }'
    done
}

# The puzzles of FILE, one file each, in DIR/p.1, DIR/p.2, …: a killer
# string is a puzzle, and so is each `# N` header with its lines.
split_puzzles() { # FILE DIR
    rm -f "$2"/p.*
    awk -v dir="$2" '
        /^[^#[:space:]][^[:space:]]*$/ && length($0) >= 81 { n++; print > (dir "/p." n); next }
        /^# [0-9]/ { n++ }
        n && !/^#/ { print > (dir "/p." n) }
        /^# [0-9]/ { print > (dir "/p." n) }' "$1"
}

# A puzzle file as ISS reads it: a killer string as it is, neknek `+` cages
# and `!` givens as its `.Cage~SUM~R1C1…` and `.~R1C1_V` constraints.
iss_input() { # FILE
    awk '/^[^#[:space:]][^[:space:]]*$/ { printf "%s", $0; next }
        /^[+!]/ {
            printf "%s", ($1 == "+" ? ".Cage~" $2 : ".")
            for (i = 3; i <= NF; i++) {
                r = index("ABCDEFGHIJKLMNOPQRSTUVWXY", substr($i, 1, 1))
                printf ($1 == "+" ? "~R%dC%s" : "~R%dC%s_" $2), r, substr($i, 2)
            }
        }' "$1"
}

# ISS's time to tell whether one puzzle file is unique (its own `ms`,
# without node's start-up), in seconds, or what it said if it could not
# tell; `-` without node or ISS.
iss_seconds() { # FILE
    local iss=../shared/peers/iss input
    input=$(iss_input "$1")
    if command -v node >/dev/null && [ -d "$iss" ]; then
        (cd "$iss" && node tools/perf/benchmark_puzzles.js --max-backtracks none --solutions 2 --input "$input") | awk '$1 == "input" { printf ($2 ~ /^(unique|multiple)$/ ? "%.3f" : $2), $7 / 1000 }'
    else
        echo -
    fi
}

# cagey's time to tell whether one puzzle file is unique, the whole
# command, or what it said (and the limit) if it could not tell in LIMIT
# seconds.
cagey_seconds() { # FILE BACKEND LIMIT
    local start end verdict
    start=$(date +%s%N)
    verdict=$("$cagey" unique --jobs 1 --backend "$2" --timeout "$3" "$1" 2>/dev/null | head -1) || true
    end=$(date +%s%N)
    if [ "$verdict" = unique ] || [ "$verdict" = multiple ]; then
        awk -v d=$((end - start)) 'BEGIN { printf "%.3f", d / 1e9 }'
    else
        echo "${verdict:-?} (>$3)"
    fi
}

# Each puzzle of FILE (default the forum Killers of benches/) told unique
# or not by native, SAT and ISS, in turns a puzzle; then, for each, how
# many it answered, and the median, worst and sum of their times. cagey's times are
# the whole command, ISS's its solve without node's start-up.
killers() { # [FILE]
    local file=${1:-benches/killer/forum-42.txt} limit=${TIMEOUT:-600}
    build
    split_puzzles "$file" "$tmp"
    echo "| # | native s | SAT s | ISS s |"
    echo "|---|---|---|---|"
    local k
    for k in $(seq "$(find "$tmp" -name 'p.*' | wc -l)"); do
        echo "| $k | $(cagey_seconds "$tmp/p.$k" native "$limit") | $(cagey_seconds "$tmp/p.$k" sat "$limit") | $(iss_seconds "$tmp/p.$k") |"
    done | tee "$tmp/killers"
    k=$(grep -c '^| [0-9]' "$tmp/killers")
    echo
    echo "| solver | answered | median s | worst s | sum s |"
    echo "|---|---|---|---|---|"
    for column in 3 4 5; do
        awk -F'|' -v c="$column" '$c ~ /^ [0-9.]+ $/ { print $c + 0 }' "$tmp/killers" >"$tmp/times"
        [ -s "$tmp/times" ] || echo - >"$tmp/times"
        printf '| %s | %s of %s | %s | %s | %s |\n' "$(echo "native SAT ISS" | cut -d' ' -f$((column - 2)))" \
            "$(grep -c '[0-9]' "$tmp/times")" "$k" "$(median %.3f <"$tmp/times")" "$(sort -g "$tmp/times" | tail -1)" \
            "$(awk '{ s += $1 } END { printf "%.2f", s }' "$tmp/times")"
    done
}

# A Killer row of the table: each puzzle's median time over RUNS runs,
# native and ISS in turns; then the sum of the medians and the worst.
# SAT proves each once, within 10 s.
killer_row() { # label, file
    local label=$1 file=$2 k n
    split_puzzles "$file" "$tmp"
    n=$(find "$tmp" -name 'p.*' | wc -l)
    for k in $(seq "$n"); do
        for _ in $(seq "$runs"); do
            echo "$(cagey_seconds "$tmp/p.$k" native 600) $(iss_seconds "$tmp/p.$k")"
        done >"$tmp/rounds"
        echo "$(awk '{ print $1 }' "$tmp/rounds" | median %.3f) $(awk '{ print $2 }' "$tmp/rounds" | median %.3f)" \
            "$(cagey_seconds "$tmp/p.$k" sat 10)"
    done >"$tmp/medians"
    local sat peer=-
    sat="$(awk '$3 ~ /^[0-9.]+$/' "$tmp/medians" | wc -l) of $n within 10 s"
    summary() { awk -v c="$1" '{ s += $c; if ($c > w) w = $c } END { printf "sum %.2f s, worst %.3f s", s, w }' "$tmp/medians"; }
    awk '$2 !~ /^[0-9.]+$/ { bad = 1 } END { exit bad }' "$tmp/medians" && peer="ISS $(summary 2)"
    printf '| %s | %s | %s | %s |\n' "$label" "$(summary 1)" "$sat" "$peer"
}

case ${1:-table} in
    table) table ;;
    killers) shift; killers "$@" ;;
    flat) flat ;;
    compare) shift; compare "$@" ;;
    instructions) shift; instructions "$@" ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
esac
