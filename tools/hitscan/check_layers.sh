#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tool's files depend on each other without a cycle (io -> csv, npy -> io_common ->
# escape; main on top): every edge "A B" says that A.c or A.h includes B.h or calls an hsio_*
# function defined in B.c; tsort fails on a loop. Usage: check_layers.sh [DIR] (default: here).
set -euo pipefail
cd "${1:-$(dirname "$0")}"
edges=$(
    for f in *.c *.h; do
        m=${f%.*}
        grep -oE '#include "[a-z_0-9]+\.h"' "$f" | sed -E 's/.*"(.*)\.h"/\1/' | while read -r h; do
            if [ -f "$h.h" ] && [ "$h" != "$m" ]; then echo "$m $h"; fi
        done
        grep -oE '\bhsio_[a-z_0-9]+\(' "$f" | tr -d '(' | sort -u | while read -r fn; do
            d=$(grep -lE "^[a-z].*[ *]$fn\(" -- *.c | head -n 1 || true)
            d=${d%.c}
            if [ -n "$d" ] && [ "$d" != "$m" ]; then echo "$m $d"; fi
        done
    done | sort -u
)
[ -n "$edges" ] || { echo "check_layers: no dependencies found" >&2; exit 1; }
if ! tsort <<<"$edges" >/dev/null; then
    echo "check_layers: the files above depend on each other in a cycle; edges:" >&2
    echo "$edges" >&2
    exit 1
fi
echo "check_layers: $(wc -l <<<"$edges") dependencies, no cycle"
