#!/usr/bin/env bash
# Prints the README's `auto` table: per-puzzle times of the native, SAT and
# auto backends, one puzzle at a time (`--jobs 1`), and how often auto
# takes more than 1.3 times the faster of the other two (and more than
# 1 ms). Each miss is also named on standard error: file:puzzle (from 1).
#
#   scripts/auto.sh [CORPORA]
#
# CORPORA: the public sets (default ../shared/corpora: sudoku/ and
# kenken/keen-levels/). Each round runs the three backends back to back on
# each file (`cagey count --jobs 1 --format json --backend B [--limit 2]
# FILE`, its JSON `elapsed_ms`); a puzzle's time is its median over ROUNDS
# rounds (default 3). LARGE=0 leaves out the large random puzzles
# (`cagey generate`, sizes 12-25, TIMEOUT seconds each, default 40; a few
# minutes a round, mostly puzzles that one backend cannot answer), which
# are measured in the first LARGE_ROUNDS rounds only (default 1).
# CAGEY=path measures that binary instead of this tree's.
#
# Times on a shared machine move: run it on a quiet one, and read a miss
# of a few milliseconds with care (see the README).
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=${1:-../shared/corpora}
rounds=${ROUNDS:-3}
large_rounds=${LARGE_ROUNDS:-1}
timeout=${TIMEOUT:-40}
cagey=${CAGEY:-target/release/cagey}
[ -n "${CAGEY:-}" ] || cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Appends "SET FILE INDEX BACKEND MS" to $tmp/times for each puzzle of FILE
# and each backend; a backend past the timeout on a one-puzzle file counts
# as the timeout.
measure() { # set, file, count arguments...
    local set=$1 file=$2
    shift 2
    for backend in native sat auto; do
        timeout "$timeout" "$cagey" count --jobs 1 --format json --backend "$backend" "$@" "$file" 2>/dev/null |
            sed -n 's/.*"elapsed_ms":\([0-9.]*\).*/\1/p' >"$tmp/out" || true
        if [ ! -s "$tmp/out" ]; then echo $((timeout * 1000)) >"$tmp/out"; fi
        awk -v s="$set" -v f="$file" -v b="$backend" '{ print s, f, NR, b, $1 }' "$tmp/out" >>"$tmp/times"
    done
}

sudoku=$corpora/sudoku
keen=$corpora/kenken/keen-levels
first200() { awk '!/^#/ && ++n <= 200' "$1"; }
first200 "$sudoku/puzzles2_17_clue" >"$tmp/s17.txt"
first200 "$sudoku/puzzles5_forum_hardest_1905_11+" >"$tmp/sfh.txt"
sizes="12 14 16 20 25"
seeds() { case $1 in 12 | 14) echo 1 2 3 ;; *) echo 1 2 3 4 5 6 7 8 ;; esac; }
if [ "${LARGE:-1}" != 0 ]; then
    for size in $sizes; do
        for seed in $(seeds "$size"); do
            "$cagey" generate --size "$size" --seed "$seed" >"$tmp/k$size-$seed.txt"
            "$cagey" generate --size "$size" --noop --seed "$seed" >"$tmp/n$size-$seed.txt"
        done
    done
fi

for round in $(seq "$rounds"); do
    measure "Sudoku 17-clue (first 200), prove unique" "$tmp/s17.txt" --limit 2
    measure "Sudoku forum_hardest (first 200), prove unique" "$tmp/sfh.txt" --limit 2
    for f in "$keen"/[4-9]d?.txt; do measure "Keen standard 4×4–9×9, prove unique" "$f" --limit 2; done
    for f in "$keen"/[4-7]d?-noop.txt; do measure "Keen no-op 4×4–7×7, count all" "$f"; done
    for f in "$keen"/[89]d?-noop.txt; do measure "Keen no-op 8×8–9×9, count all" "$f"; done
    if [ "${LARGE:-1}" != 0 ] && [ "$round" -le "$large_rounds" ]; then
        for size in $sizes; do
            for seed in $(seeds "$size"); do
                measure "large 12–25, \`--limit 2\`" "$tmp/k$size-$seed.txt" --limit 2
                measure "large no-op 12–25, \`--limit 2\`" "$tmp/n$size-$seed.txt" --limit 2
            done
        done
    fi
done

echo "| set | puzzles | native | SAT | auto | auto > 1.3× the faster (> 1 ms) |"
echo "|---|---|---|---|---|---|"
# Lines are "SET… FILE INDEX BACKEND MS"; the set's label has spaces.
awk -v limit="$((timeout * 1000))" '
    function ms(t) { return t >= limit ? sprintf(">%d s", limit / 1000) : sprintf("%.2f ms", t) }
    function median(list,    n, v, i, j, x) {
        n = split(list, v, " ")
        for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
        return v[int((n + 1) / 2)]
    }
    {
        t = $NF; b = $(NF - 1); key = $(NF - 3) ":" $(NF - 2)
        set = $1; for (i = 2; i <= NF - 4; i++) set = set " " $i
        if (!(set in seen)) { seen[set] = 1; order[++sets] = set }
        if (!((set, key) in known)) { known[set, key] = 1; puzzles[set] = puzzles[set] SUBSEP key }
        times[set, key, b] = times[set, key, b] " " t
    }
    END {
        for (s = 1; s <= sets; s++) {
            set = order[s]; n = split(substr(puzzles[set], 2), keys, SUBSEP)
            misses = 0; worst = 0; out = ""
            for (k = 1; k <= n; k++) {
                for (b = 1; b <= 3; b++) {
                    backend = b == 1 ? "native" : b == 2 ? "sat" : "auto"
                    m[b, k] = median(times[set, keys[k], backend])
                }
                faster = m[1, k] < m[2, k] ? m[1, k] : m[2, k]
                if (m[3, k] > 1 && m[3, k] > 1.3 * faster) {
                    misses++
                    if (m[3, k] / faster > worst) worst = m[3, k] / faster
                    printf "miss: %s: native %.2f, SAT %.2f, auto %.2f ms\n", keys[k], m[1, k], m[2, k], m[3, k] > "/dev/stderr"
                }
            }
            for (b = 1; b <= 3; b++) {
                list = ""; top = 0
                for (k = 1; k <= n; k++) { list = list " " m[b, k]; if (m[b, k] > top) top = m[b, k] }
                out = out sprintf(" %s (worst %s) |", ms(median(list)), ms(top))
            }
            printf "| %s | %d |%s %d%s |\n", set, n, out, misses, misses ? sprintf(" (worst %.1f×)", worst) : ""
        }
    }' "$tmp/times"
