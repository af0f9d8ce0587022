#!/usr/bin/env bash
# Prints how heavy the native backend's tail is on large random KenKen,
# beside the SAT and auto backends: for each kind of puzzle, how many of
# the seeds native cannot answer within the timeout, on how many it takes
# more than three times as long as SAT, and the same for auto; then each
# such puzzle by name.
#
#   scripts/tails.sh [FIRST LAST]
#
# Seeds FIRST to LAST (default 6 to 35) of each kind in KINDS (default
# "25;20 --noop": `cagey generate --size 25` and `--size 20 --noop`), each
# answered with `cagey count --jobs 1 --limit 2 --timeout TIMEOUT` (default
# 10 s) by each backend, one after the other, its JSON `elapsed_ms`. A run
# past the timeout counts as the timeout. About twenty minutes with the
# defaults, most of it in the puzzles that native cannot answer.
# PUZZLES=DIR times the puzzle files DIR/*.txt instead, one puzzle each:
# for instance the slow cases that `cagey fuzz --timeout 2 --out DIR`
# writes, the rare perturbed no-op puzzles with no solution where the
# search's tail is heaviest (`cagey fuzz --noop --size 12..16 --timeout 2
# --cases 12000 --seed 5050` writes 11).
# CAGEY=path measures that binary instead of this tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
first=${1:-6}
last=${2:-35}
timeout=${TIMEOUT:-10}
IFS=';' read -r -a kinds <<<"${KINDS:-25;20 --noop}"
cagey=${CAGEY:-target/release/cagey}
[ -n "${CAGEY:-}" ] || cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Milliseconds of one backend on a one-puzzle file, the timeout if it ran out.
ms() { # backend, file
    # Exit status 3 (timed out) or 1 (no solution) is an answer here.
    { "$cagey" count --jobs 1 --limit 2 --timeout "$timeout" --format json --backend "$1" "$2" 2>/dev/null </dev/null || true; } |
        awk -v t="$timeout" '/"timed_out":true/ { print t * 1000; found = 1; next }
            /"elapsed_ms":/ { sub(/.*"elapsed_ms":/, ""); sub(/[,}].*/, ""); print; found = 1 }
            END { if (!found) { print "no answer from " b " on " f > "/dev/stderr"; exit 1 } }' b="$1" f="$2"
}

# Times the three backends on each "NAME FILE" line read and prints the
# row of LABEL (SEEDS in its second column); the puzzles in the tail go to
# $tmp/tails, named with PREFIX and NAME.
row() { # label, seeds, prefix
    while read -r name file; do
        echo "$name $(ms native "$file") $(ms sat "$file") $(ms auto "$file")"
    done >"$tmp/times"
    awk -v label="$1" -v seeds="$2" -v t="$timeout" '
        { n++; past += ($2 >= t * 1000); slow += ($2 > 3 * $3); auto += ($4 > 3 * $3)
          ln += log($2 + 0.01); ls += log($3 + 0.01); la += log($4 + 0.01) }
        END { printf "| %s | %s | %d | %d | %d | %.1f / %.1f / %.1f |\n", label, seeds, past, slow, auto,
              exp(ln / n), exp(ls / n), exp(la / n) }' "$tmp/times"
    awk -v label="$1" -v prefix="$3" -v t="$timeout" '$2 > 3 * $3 || $2 >= t * 1000 {
        s = ($2 >= t * 1000) ? "> " t " s" : sprintf("%.2f s", $2 / 1000)
        printf "%s %s%s: native %s, SAT %.2f s, auto %.2f s\n", label, prefix, $1, s, $3 / 1000, $4 / 1000 }' \
        "$tmp/times" >>"$tmp/tails"
}

echo "| puzzles | seeds | native past ${timeout} s | native > 3× SAT | auto > 3× SAT | geometric mean, ms: native / SAT / auto |"
echo "|---|---|---|---|---|---|"
if [ -n "${PUZZLES:-}" ]; then
    files=("$PUZZLES"/*.txt)
    [ -f "${files[0]}" ] || { echo "scripts/tails.sh: no .txt files in $PUZZLES" >&2; exit 2; }
    for file in "${files[@]}"; do echo "$(basename "$file" .txt) $file"; done |
        row "$PUZZLES" "${#files[@]} files" ""
else
    for kind in "${kinds[@]}"; do
        read -r size rest <<<"$kind"
        for seed in $(seq "$first" "$last"); do
            # shellcheck disable=SC2086 # $rest holds generate's extra flags
            "$cagey" generate --size "$size" $rest --seed "$seed" >"$tmp/puzzle-$seed.txt"
            echo "$seed $tmp/puzzle-$seed.txt"
        done | row "${size}×${size}${rest:+ no-op}" "$first–$last" "seed "
    done
fi
if [ -s "$tmp/tails" ]; then
    echo
    cat "$tmp/tails"
fi
