#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times two builds of the hitscan tool on the same scene files, one thread, their order
# alternating each round, and prints every run and, per scene and mode, the median time of each
# and the median of the per-round ratios (old / new: above 1, new is faster).
# Usage: scripts/tool_ab.sh OLD_TOOL NEW_TOOL ROUNDS 'SCENES' 'MODES' [DIR]
#   SCENES: built-in scene names, e.g. 'sparse lasers'; MODES: e.g. 'closest any count all'
#   DIR (default /tmp/hitscan-scenes): where KIND_circles.npy / KIND_queries.npy are kept; a
#   scene missing there is written first by NEW_TOOL --scene KIND --write-scene (10^6 x 10^6).
# Each run is `TOOL --circles .. --queries .. --mode M --threads 1 --repeat 5`: the median of
# five calls through one workspace (query_ms in the tool's summary line).
set -euo pipefail
[ $# -ge 5 ] || { sed -n '3,10p' "$0" >&2; exit 2; }
old=$1 new=$2 rounds=$3 scenes=$4 modes=$5 dir=${6:-/tmp/hitscan-scenes}
mkdir -p "$dir"
for s in $scenes; do
    [ -f "$dir/${s}_circles.npy" ] || "$new" --scene "$s" --write-scene "$dir/$s"
done
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
for r in $(seq 1 "$rounds"); do
    for s in $scenes; do
        for m in $modes; do
            order="old new"
            [ $((r % 2)) = 0 ] && order="new old"
            for t in $order; do
                tool=$old
                [ "$t" = new ] && tool=$new
                ms=$("$tool" --circles "$dir/${s}_circles.npy" --queries "$dir/${s}_queries.npy" \
                    --mode "$m" --threads 1 --repeat 5 2>&1 >/dev/null |
                    sed -n 's/.*query_ms=\([0-9.]*\).*/\1/p')
                echo "$s $m $t $r $ms" | tee -a "$runs"
            done
        done
    done
done
awk '
function median(a, n,   i, j, x) {
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key } t[key, $3, $4] = $5; rounds[$4] = 1 }
END {
    print "scene mode old_ms new_ms ratio_median ratio_min ratio_max"
    for (k = 1; k <= nk; k++) {
        key = keys[k]; n = 0
        for (r in rounds) { n++; o[n] = t[key, "old", r]; w[n] = t[key, "new", r]; q[n] = o[n] / w[n] }
        lo = q[1]; hi = q[1]
        for (i = 2; i <= n; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
        printf "%s %.1f %.1f %.2f %.2f %.2f\n", key, median(o, n), median(w, n), median(q, n), lo, hi
    }
}' "$runs"
