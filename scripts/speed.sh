#!/usr/bin/env bash
# Prints the README's speed tables: cagey's native and SAT backends side by
# side with the peers, measured in this one run (one thread, release build,
# medians of RUNS runs, default 5).
#
#   scripts/speed.sh [CORPORA] [ORACLE] [CPSAT]
#
# CORPORA: the public sets (default ../shared/corpora: sudoku/ and
# kenken/keen-levels/). ORACLE: the `sudoku` crate harness binary (default
# ../shared/peers/sudoku-crate/target/release/sudoku-oracle; build it with
# `cargo build --release` there). CPSAT: "PYTHON SCRIPT" to run OR-tools
# CP-SAT (default: /tmp/ortools/bin/python with ../shared/peers/cpsat_kenken.py,
# if that python exists; `python3 -m venv /tmp/ortools && /tmp/ortools/bin/pip
# install ortools`). A peer that is missing is left out of the table.
# KEEN=path: Keen's own solver timed by scripts/keen/keen_time.c (default
# target/keen/keen_time, which scripts/keen.sh builds); without it, the
# Keen column holds the corpus README's figures.
# CAGEY=path measures that binary instead of this tree's. BAND1=1 adds the band1 count (about two minutes a run; one run); LARGE=0
# leaves out the large random puzzles (up to 60 s each), SMALL=0 the 9×9
# Sudoku and Keen tables before them.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=${1:-../shared/corpora}
oracle=${2:-../shared/peers/sudoku-crate/target/release/sudoku-oracle}
cpsat=${3:-/tmp/ortools/bin/python ../shared/peers/cpsat_kenken.py}
runs=${RUNS:-5}
# CAGEY=path measures another build (an older one, to compare).
cagey=${CAGEY:-target/release/cagey}
[ -n "${CAGEY:-}" ] || cargo build --release --quiet
# Solving alone, the puzzles read first, as the sudoku crate's harness does.
throughput=${THROUGHPUT:-target/release/examples/throughput}
[ -n "${THROUGHPUT:-}" ] || cargo build --release --quiet --example throughput
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The median wall time, in seconds, of `runs` runs of the command.
median_time() {
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s%N)
        "$@" >/dev/null 2>&1 || true
        end=$(date +%s%N)
        echo $(((end - start) / 1000))
    done | sort -n | awk '{ t[NR] = $1 } END { printf "%.3f", t[int((NR + 1) / 2)] / 1e6 }'
}

# Per-puzzle solve times of cagey (its JSON `elapsed_ms`) over `runs` runs:
# the median over runs for each puzzle, then "MEDIAN MAX" over the puzzles.
per_puzzle() { # backend, file, count arguments...
    local backend=$1 file=$2
    shift 2
    for _ in $(seq "$runs"); do
        "$cagey" count --jobs 1 --format json --backend "$backend" "$@" "$file" |
            grep '"elapsed_ms"' | sed 's/.*"elapsed_ms":\([0-9.]*\).*/\1/' | awk '{ print NR, $1 }'
    done | sort -k1,1n -k2,2g | awk '
        { t[$1, ++k[$1]] = $2; if ($1 > n) n = $1 }
        END { for (i = 1; i <= n; i++) print t[i, int((k[i] + 1) / 2)] }' | median_max
}

# The median of numbers, one a line, printed with FORMAT (default whole).
median_of() {
    sort -g | awk -v f="${1:-%.0f}" '{ t[NR] = $1 } END { printf f, t[int((NR + 1) / 2)] }'
}

# "MEDIAN MAX" of numbers, one a line.
median_max() {
    sort -g | awk '{ t[NR] = $1 } END { printf "%.3f %.3f", t[int((NR + 1) / 2)], t[NR] }'
}

# The same from CP-SAT, one puzzle at a time (its `total=` time: model and
# search).
cpsat_per_puzzle() { # file, extra arguments...
    local file=$1
    shift
    rm -f "$tmp"/p.*
    awk -v dir="$tmp" '/^# [0-9]/ { n++ } { print > (dir "/p." n) }' "$file"
    for p in "$tmp"/p.*; do
        for _ in $(seq "$runs"); do
            $cpsat "$@" "$p" | sed -n 's/.*total=\([0-9.]*\)s.*/\1/p'
        done | sort -g | awk '{ t[NR] = $1 } END { print 1000 * t[int((NR + 1) / 2)] }'
    done | median_max
}

ms() { echo "$1" | awk '{ printf "%s ms (worst %s)", $1, $2 }'; }
have_cpsat() { [ -x "${cpsat%% *}" ]; }

if [ "${SMALL:-1}" != 0 ]; then
    echo "### Sudoku (9×9, whole corpus files, one thread)"
    echo
    echo "| work | puzzles | cagey native, command line | cagey native, solving only | sudoku crate, solving only | native / crate |"
    echo "|---|---|---|---|---|---|"
    sudoku=$corpora/sudoku
    sudoku_row() { # label, file, cagey count arguments, oracle mode, unit
        local label=$1 file=$2 args=$3 mode=$4 unit=$5
        [ -f "$file" ] || return 0
        local n t mine solving peer=- ratio=-
        n=$(grep -cv '^#' "$file")
        t=$(median_time "$cagey" count --jobs 1 --backend native $args "$file")
        if [ "$unit" = puzzles ]; then
            mine=$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.0f", n / t }')
        else
            local total
            total=$("$cagey" count --jobs 1 --backend native "$file" | awk '{ s += $1 } END { print s }')
            mine=$(awk -v t="$t" -v s="$total" 'BEGIN { printf "%.0f", s / t }')
        fi
        local limit=${args##* }
        # Solving only, native and the crate in turn, one run each a round,
        # each timed as the crate's harness times it (a pass to warm up, then
        # passes for at least a second): the machine's speed drifts, so the
        # ratio is the median of each round's, taken from runs side by side.
        for _ in $(seq "$runs"); do
            MIN_SECS=1 "$throughput" "$file" "${limit:-all}" 1 | tr ' ' '\n' | sed -n "s/^${unit}_per_sec=//p" | tr '\n' ' '
            if [ -x "$oracle" ]; then
                "$oracle" "$mode" 1 1 "$file" | awk -v unit="$unit" '{
                    for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
                    # The rate has one decimal: below 1,000 a second (band1),
                    # the time a puzzle is the finer figure.
                    r = f["median_puzzles_per_sec"]; if (r < 1000) r = 1e6 / f["usec_per_puzzle"]
                    if (unit != "puzzles") r = r * f["checksum"] / f["n"]
                    printf "%.0f", r }'
            fi
            echo
        done >"$tmp/rounds"
        solving=$(awk '{ print $1 }' "$tmp/rounds" | median_of)
        if [ -x "$oracle" ]; then
            peer=$(awk '{ print $2 }' "$tmp/rounds" | median_of)
            ratio=$(awk '{ print $1 / $2 }' "$tmp/rounds" | median_of "%.2f×")
        fi
        printf '| %s | %s | %s %s/s (%s s) | %s %s/s | %s %s/s | %s |\n' "$label" "$n" "$mine" "$unit" "$t" "$solving" "$unit" "$peer" "$unit" "$ratio"
    }
    sudoku_row "uniqueness (count --limit 2), 17-clue" "$sudoku/puzzles2_17_clue" "--limit 2" count2 puzzles
    sudoku_row "uniqueness, forum_hardest_1905_11+" "$sudoku/puzzles5_forum_hardest_1905_11+" "--limit 2" count2 puzzles
    sudoku_row "count every solution, serg set" "$sudoku/puzzles7_serg_benchmark" "" countall solutions
    if [ "${BAND1:-0}" = 1 ]; then
        runs=1 sudoku_row "count every solution, band1" "$sudoku/band1_completions_10.txt" "" countall solutions
        /usr/bin/time -f "band1 peak RSS: %M KB" "$cagey" count --jobs 1 --backend native "$sudoku/band1_completions_10.txt" >/dev/null
fi

echo
echo "### Keen's 9×9 puzzles by level (30 a level; per-puzzle solve time, median and worst)"
echo
keen=$corpora/kenken/keen-levels
keen_time=${KEEN:-target/keen/keen_time}
if [ -x "$keen_time" ] && [ -f "$keen/ids.tsv" ]; then
    echo "Keen's own solver is run in turn with native, a process each a round: $(cat "$(dirname "$keen_time")/version" 2>/dev/null || echo "$keen_time"), built by scripts/keen.sh. The ratio is the median of the rounds' ratios."
else
    keen_time=""
    echo "Keen's own solver is not run here (scripts/keen.sh builds it): its figures are the corpus README's, measured on this kind of machine."
fi
echo
echo "| level | standard, prove unique: native, command line | native, solving only | Keen | native vs Keen | no-op, count all: native | SAT | CP-SAT |"
echo "|---|---|---|---|---|---|---|---|"
keen_ms() { case $1 in e) echo 0.11 ;; n) echo 0.13 ;; h) echo 0.28 ;; x) echo 1.26 ;; u) echo 6.30 ;; esac; }
for level in e n h x u; do
    [ -f "$keen/9d$level.txt" ] || continue
    standard=$(per_puzzle native "$keen/9d$level.txt" --limit 2)
    # The corpus's method: each puzzle timed in a process that solves the
    # whole set RUNS times. A process runs at one of the machine's two
    # speeds (about 1.5 apart, whichever core it runs on), so RUNS of them
    # are run, each followed by one of Keen's if it is here, and the median
    # of their figures taken, as the Sudoku rows take the median of their
    # rounds. A round's line: native's median and worst, then Keen's.
    for _ in $(seq "$runs"); do
        "$throughput" "$keen/9d$level.txt" 2 "$runs" native per-puzzle |
            sed -n 's/.*per_puzzle_median_ms=\([0-9.]*\) per_puzzle_worst_ms=\([0-9.]*\).*/\1 \2/p' | tr '\n' ' '
        if [ -n "$keen_time" ]; then
            awk -v level="9d$level" '$1 == level' "$keen/ids.tsv" | "$keen_time" "$runs" | awk '{ print $3 }' | median_max
        fi
        echo
    done >"$tmp/keen"
    solving="$(awk '{ print $1 }' "$tmp/keen" | median_of %.4f) $(awk '{ print $2 }' "$tmp/keen" | median_of %.4f)"
    if [ -n "$keen_time" ]; then
        by_keen="$(awk '{ print $3 }' "$tmp/keen" | median_of %.3f) ms (worst $(awk '{ print $4 }' "$tmp/keen" | median_of %.2f))"
        faster=$(awk '{ print $3 / $1 }' "$tmp/keen" | median_of "%.1f× faster")
    else
        by_keen="$(keen_ms $level) ms"
        faster=$(awk -v a="${solving%% *}" -v b="$(keen_ms $level)" 'BEGIN { printf "%.1f× faster", b / a }')
    fi
    native=$(per_puzzle native "$keen/9d$level-noop.txt")
    sat=$(per_puzzle sat "$keen/9d$level-noop.txt")
    peer=-
    if have_cpsat; then peer=$(ms "$(cpsat_per_puzzle "$keen/9d$level-noop.txt")"); fi
    echo "| $level | $(ms "$standard") | $(ms "$solving") | $by_keen | $faster | $(ms "$native") | $(ms "$sat") | $peer |"
done
fi

[ "${LARGE:-1}" = 0 ] && exit 0
echo
echo "### Large random KenKen (\`cagey generate --size N [--noop] --seed S\`, seeds 1-5, 60 s timeout)"
echo
echo "| puzzles | question | native | SAT | CP-SAT |"
echo "|---|---|---|---|---|"
large_row() { # label, generate arguments, count arguments
    local label=$1 gen=$2 args=$3 native="" sat="" peer=""
    for seed in 1 2 3 4 5; do
        "$cagey" generate $gen --seed "$seed" >"$tmp/large.txt"
        for backend in native sat; do
            local start end t
            start=$(date +%s%N)
            if timeout 60 "$cagey" count --jobs 1 --backend "$backend" $args "$tmp/large.txt" >/dev/null 2>&1; then
                end=$(date +%s%N)
                t=$(awk -v d=$((end - start)) 'BEGIN { printf "%.2f", d / 1e9 }')
            else
                t=">60"
            fi
            if [ $backend = native ]; then native="$native $t"; else sat="$sat $t"; fi
        done
        if have_cpsat; then
            peer="$peer $($cpsat --limit "${args##* }" "$tmp/large.txt" | sed -n 's/.*total=\([0-9.]*\)s.*/\1/p')"
        fi
    done
    echo "| $label | count $args | ${native# } s | ${sat# } s | ${peer:- -} s |"
}
if [ "${LARGE:-1}" != 0 ]; then
    large_row "20×20" "--size 20" "--limit 10"
    large_row "20×20 no-op" "--size 20 --noop" "--limit 2"
    large_row "25×25" "--size 25" "--limit 2"
fi
