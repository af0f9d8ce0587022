#!/usr/bin/env bash
# Builds the peer of the Keen rows of scripts/speed.sh: Keen's own solver,
# from Simon Tatham's Portable Puzzle Collection (MIT licence), timed by
# scripts/keen/keen_time.c; prints the path of the program it built.
#
#   scripts/keen.sh
#
# The source is Debian's package of the collection, sgt-puzzles, in the
# version Debian's testing suite ships (SUITE=name for another; the one
# in stable, 20230410, crashes on Keen's unreasonable 9×9 puzzles),
# fetched from deb.debian.org and checked against the SHA-256 sum in
# Debian's index of sources. Everything goes to target/keen/; a second
# run rebuilds the program only. Needs curl, xz and a C compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${SUITE:-testing}
mirror=http://deb.debian.org/debian
dir=target/keen
mkdir -p "$dir"

if [ ! -f "$dir/version" ]; then
    # The package's entry in the suite's index of sources: its version and
    # the SHA-256 sum of its original tarball.
    curl -fsS "$mirror/dists/$suite/main/source/Sources.xz" | xz -d |
        awk '/^Package: / { mine = ($2 == "sgt-puzzles") }
             mine && /^Version: / { print "version", $2 }
             mine && /^Checksums-Sha256:/ { sums = 1; next }
             mine && sums && /^ / { if ($3 ~ /\.orig\.tar\./) print "tarball", $1, $3; next }
             { sums = 0 }' >"$dir/entry"
    read -r _ version < <(grep '^version' "$dir/entry")
    read -r _ sum tarball < <(grep '^tarball' "$dir/entry")
    [ -n "${tarball:-}" ] || { echo "scripts/keen.sh: no sgt-puzzles source in Debian $suite" >&2; exit 1; }
    curl -fsS -o "$dir/$tarball" "$mirror/pool/main/s/sgt-puzzles/$tarball"
    echo "$sum  $dir/$tarball" | sha256sum --check --quiet
    rm -rf "$dir/src"
    mkdir "$dir/src"
    tar -xf "$dir/$tarball" -C "$dir/src" --strip-components 1
    echo "sgt-puzzles $version (Debian $suite)" >"$dir/version"
fi

src=$dir/src
# Keen's solver and the parts of the collection's library it uses; the
# null front end stands in for the drawing code. -O3, as the collection's
# own release builds (CMake's): about 5% faster than Debian's -O2.
cc -O3 -DSTANDALONE_SOLVER -I"$src" -w -o "$dir/keen_time" scripts/keen/keen_time.c \
    "$src"/{latin,malloc,misc,random,tree234,matching,dsf,nullfe}.c -lm
echo "$dir/keen_time"
