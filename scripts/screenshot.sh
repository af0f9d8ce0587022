#!/bin/sh
# Looks at a rendered puzzle as a person would: headless Chromium (Debian's
# `chromium` package) opens the SVG in a page and takes a screenshot, so the
# picture can be compared with resvg's PNG by eye.
#
#   scripts/screenshot.sh puzzle.svg screenshot.png
#   cagey render puzzles/kenken/seed-5x5-three-solutions.txt -o seed.svg && scripts/screenshot.sh seed.svg seed-chromium.png
set -eu
svg=${1:?usage: scripts/screenshot.sh FILE.svg OUT.png}
out=${2:?usage: scripts/screenshot.sh FILE.svg OUT.png}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "screenshot.sh: no Chromium found: apt install chromium" >&2
    exit 2
fi
# The picture's own size, from its width and height attributes.
width=$(sed -n 's/.*<svg[^>]* width="\([0-9.]*\)".*/\1/p' "$svg" | head -1 | cut -d. -f1)
height=$(sed -n 's/.*<svg[^>]* height="\([0-9.]*\)".*/\1/p' "$svg" | head -1 | cut -d. -f1)
page=$(mktemp --suffix=.html)
trap 'rm -f "$page"' EXIT
{
    printf '<!doctype html><html><body style="margin:0;background:white">'
    cat "$svg"
    printf '</body></html>\n'
} > "$page"
"$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars \
    --window-size="${width:-600},${height:-600}" --screenshot="$out" "file://$page"
echo "$out"
