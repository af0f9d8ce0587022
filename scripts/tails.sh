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
    { "$cagey" count --jobs 1 --limit 2 --timeout "$timeout" --format json --backend "$1" "$2" 2>/dev/null || true; } |
        awk -v t="$timeout" '/"timed_out":true/ { print t * 1000; found = 1; next }
            /"elapsed_ms":/ { sub(/.*"elapsed_ms":/, ""); sub(/[,}].*/, ""); print; found = 1 }
            END { if (!found) { print "no answer from " b " on " f > "/dev/stderr"; exit 1 } }' b="$1" f="$2"
}

echo "| puzzles | seeds | native past ${timeout} s | native > 3× SAT | auto > 3× SAT | geometric mean, ms: native / SAT / auto |"
echo "|---|---|---|---|---|---|"
for kind in "${kinds[@]}"; do
    read -r size rest <<<"$kind"
    label="${size}×${size}${rest:+ no-op}"
    for seed in $(seq "$first" "$last"); do
        # shellcheck disable=SC2086 # $rest holds generate's extra flags
        "$cagey" generate --size "$size" $rest --seed "$seed" >"$tmp/puzzle.txt"
        native=$(ms native "$tmp/puzzle.txt")
        sat=$(ms sat "$tmp/puzzle.txt")
        auto=$(ms auto "$tmp/puzzle.txt")
        echo "$seed $native $sat $auto"
    done >"$tmp/times"
    awk -v label="$label" -v first="$first" -v last="$last" -v t="$timeout" '
        { n++; past += ($2 >= t * 1000); slow += ($2 > 3 * $3); auto += ($4 > 3 * $3)
          ln += log($2 + 0.01); ls += log($3 + 0.01); la += log($4 + 0.01) }
        END { printf "| %s | %d–%d | %d | %d | %d | %.1f / %.1f / %.1f |\n", label, first, last, past, slow, auto,
              exp(ln / n), exp(ls / n), exp(la / n) }' "$tmp/times"
    awk -v label="$label" -v t="$timeout" '$2 > 3 * $3 || $2 >= t * 1000 {
        s = ($2 >= t * 1000) ? "> " t " s" : sprintf("%.2f s", $2 / 1000)
        printf "%s seed %d: native %s, SAT %.2f s, auto %.2f s\n", label, $1, s, $3 / 1000, $4 / 1000 }' \
        "$tmp/times" >>"$tmp/tails"
done
if [ -s "$tmp/tails" ]; then
    echo
    cat "$tmp/tails"
fi
