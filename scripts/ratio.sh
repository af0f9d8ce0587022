#!/usr/bin/env bash
# Compares the solving speed of two builds of `examples/throughput` in
# turns: one run of each a round, ROUNDS rounds (default 9), so that the machine's drift hits all
# alike. Prints, for each file, each side's median rate and the median of
# the rounds' ratios to the first build, the figure to quote for a change
# of a few percent (medians of separate runs moved by more than that).
#
#   scripts/ratio.sh A B [FILE...]
#
# A, B: throughput binaries (`cargo build --release --example throughput`,
# copied aside for each build). FILE: puzzle files (default the 17-clue,
# forum_hardest and serg sets of ../shared/corpora/sudoku). A file whose
# name says serg or band1 is counted in full and rated in solutions a
# second; any other is proved unique (`--limit 2`) and rated in puzzles a
# second. ROUNDS=n sets the rounds. Run it in both orders (A B, then B A)
# before believing a gain; `scripts/speed.sh` measures against the peers.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/ratio.sh A B [FILE...]" >&2; exit 2; }
a=$1 b=$2
shift 2
for bin in "$a" "$b"; do
    [ -x "$bin" ] || { echo "scripts/ratio.sh: $bin is not an executable" >&2; exit 2; }
done
corpora=$(dirname "$0")/../../shared/corpora/sudoku
if [ $# -eq 0 ]; then
    set -- "$corpora/puzzles2_17_clue" "$corpora/puzzles5_forum_hardest_1905_11+" "$corpora/puzzles7_serg_benchmark"
fi
rounds=${ROUNDS:-9}

# The rate a throughput binary prints for FILE, in UNIT a second.
rate() { # binary, file, limit, unit
    "$1" "$2" "$3" 1 | tr ' ' '\n' | sed -n "s/^$4_per_sec=//p"
}

for file in "$@"; do
    [ -f "$file" ] || { echo "scripts/ratio.sh: no file $file" >&2; exit 2; }
    limit=2 unit=puzzles
    case $(basename "$file") in *serg* | *band1*) limit=all unit=solutions ;; esac
    for _ in $(seq "$rounds"); do
        echo "$(rate "$a" "$file" $limit $unit) $(rate "$b" "$file" $limit $unit)"
    done | awk -v name="$(basename "$file")" -v unit="$unit" '
        function median(v, n,    i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        { n++; a[n] = $1; b[n] = $2; r[n] = $2 / $1 }
        END {
            printf "%s (%s/s): A %.0f, B %.0f; B/A %.3f\n", name, unit, median(a, n), median(b, n), median(r, n)
        }'
done
