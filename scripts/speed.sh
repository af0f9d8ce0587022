#!/usr/bin/env bash
# Times cagey's native and SAT backends on the public corpora, side by side
# with the `sudoku` crate harness when it is built, and prints a Markdown
# table of medians (one thread, release build).
#
#   scripts/speed.sh [CORPORA] [SUDOKU_ORACLE]
#
# CORPORA defaults to ../shared/corpora (Sudoku sets in sudoku/, Keen's 9x9
# levels in kenken/keen-levels/); SUDOKU_ORACLE to the harness in
# ../shared/peers/sudoku-crate. RUNS (default 5) sets the runs per median.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=${1:-../shared/corpora}
oracle=${2:-../shared/peers/sudoku-crate/target/release/sudoku-oracle}
runs=${RUNS:-5}
cargo build --release --quiet
cagey=target/release/cagey

# The median wall time, in seconds, of `runs` runs of the command.
median() {
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s%N)
        "$@" >/dev/null 2>&1 || true
        end=$(date +%s%N)
        echo $(((end - start) / 1000))
    done | sort -n | awk '{ t[NR] = $1 } END { printf "%.3f", t[int((NR + 1) / 2)] / 1e6 }'
}

# Puzzles in a file: KenKen puzzles start with '#', Sudoku are one a line.
puzzles() {
    case $1 in
        *keen-levels*) grep -c '^#' "$1" ;;
        *) grep -cv '^#' "$1" ;;
    esac
}

row() { # label, file, cagey arguments...
    local label=$1 file=$2
    shift 2
    local n native sat
    n=$(puzzles "$file")
    native=$(median "$cagey" "$@" --jobs 1 --backend native "$file")
    sat=$(median "$cagey" "$@" --jobs 1 --backend sat "$file")
    printf '| %s | %s | %s s, %s ms each | %s s, %s ms each |' "$label" "$n" \
        "$native" "$(awk -v t="$native" -v n="$n" 'BEGIN { printf "%.2f", 1000 * t / n }')" \
        "$sat" "$(awk -v t="$sat" -v n="$n" 'BEGIN { printf "%.2f", 1000 * t / n }')"
}

echo "| work | puzzles | cagey native | cagey sat | peer |"
echo "|---|---|---|---|---|"
sudoku=$corpora/sudoku
for set in puzzles2_17_clue puzzles5_forum_hardest_1905_11+; do
    [ -f "$sudoku/$set" ] || continue
    peer=-
    if [ -x "$oracle" ]; then
        peer="sudoku crate $("$oracle" count2 3 1 "$sudoku/$set" | sed 's/.*median_puzzles_per_sec=\([0-9]*\).*/\1/')/s"
    fi
    n=$(puzzles "$sudoku/$set")
    t=$(median "$cagey" unique --jobs 1 "$sudoku/$set")
    printf '| uniqueness, %s | %s | %s s, %s/s | (not run: SAT on whole corpora is slow) | %s |\n' "$set" "$n" "$t" \
        "$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.0f", n / t }')" "$peer"
done
keen=$corpora/kenken/keen-levels
for level in e n h x u; do
    for variant in "" -noop; do
        file=$keen/9d$level$variant.txt
        [ -f "$file" ] || continue
        if [ -z "$variant" ]; then
            echo "$(row "9x9 Keen level $level, unique" "$file" unique) Keen: see corpora README |"
        else
            echo "$(row "9x9 Keen level $level no-op, count all" "$file" count) CP-SAT: see corpora README |"
        fi
    done
done
