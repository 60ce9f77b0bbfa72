#!/bin/sh
# Renders a `hisha match --report` page (or any HTML file) to a PNG with headless Chromium, to look
# at it as a user's browser shows it:
#
#   examples/report_png.sh report.html report.png [WIDTHxHEIGHT]
#
# Needs Debian's `chromium` (apt-get install chromium). The default window is 1200x2400 pixels;
# the page is drawn at its top-left, and what does not fit is cut off.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 PAGE.html OUT.png [WIDTHxHEIGHT]" >&2
    exit 2
fi
page=$1
png=$2
size=${3:-1200x2400}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "$0: chromium is not installed (apt-get install chromium)" >&2
    exit 1
fi
if [ ! -f "$page" ]; then
    echo "$0: $page: no such file" >&2
    exit 1
fi
case $page in
    /*) url=file://$page ;;
    *) url=file://$(pwd)/$page ;;
esac
# A throwaway profile, so that no earlier Chromium state is used or changed.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
    --window-size="$(echo "$size" | tr x ,)" --screenshot="$png" "$url" 2>/dev/null
[ -s "$png" ] || { echo "$0: chromium wrote no picture" >&2; exit 1; }
echo "$png"
