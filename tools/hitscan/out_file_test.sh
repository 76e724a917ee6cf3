#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest driver: outputs appear whole or not at all. Usage: out_file_test.sh TOOL DIR CASE
#   full_disk       a write past the file-size limit (ulimit -f) fails with exit status 1
#   signal_pause    SIGINT / SIGTERM / SIGHUP at the test pause before the rename
#   signal_writing  SIGINT while a large result is being written
# Each checks that the older file under the final name is unchanged and that no temporary
# file (.NAME.hitscan-XXXXXX) is left behind.
set -u
tool=$1
cd "$2" || exit 1
case_name=$3
ref=old_result_ref.csv # written by hitscan_fixtures

fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}
no_leftovers() { # no temporary file of output $1
  local left
  left=$(ls -A | grep -F ".$1.hitscan-")
  [ -z "$left" ] || fail "temporary file left behind: $left"
}
unchanged() { # $1 still holds the older result
  cmp -s "$1" "$ref" || fail "$1 is no longer the older file: $(head -c 200 "$1" | od -c | head -3)"
}

case $case_name in
full_disk)
  # the results need far more than 16 KiB; SIGXFSZ keeps its default action here, so only the
  # tool's own handling turns the limit into an error (EFBIG) instead of a kill mid-file
  for fmt in csv npy; do
    out=old_full.$fmt
    cp "$ref" "$out"
    (ulimit -f 16 && exec "$tool" --scene uniform --n 2000 --m 20000 --out "$out") 2>err_full.txt
    rc=$?
    [ $rc -eq 1 ] || fail "$out: exit status $rc, expected 1 ($(cat err_full.txt))"
    grep -q "^hitscan: error: $out: write failed: File too large\$" err_full.txt ||
      fail "$out: message: $(cat err_full.txt)"
    unchanged "$out"
    no_leftovers "$out"
  done
  cp "$ref" old_ws_circles.npy
  (ulimit -f 16 && exec "$tool" --scene mixed --n 20000 --m 10 --write-scene old_ws) 2>err_full.txt >/dev/null
  rc=$?
  [ $rc -eq 1 ] || fail "--write-scene: exit status $rc, expected 1"
  unchanged old_ws_circles.npy
  no_leftovers old_ws_circles.npy
  ;;
signal_pause)
  set -m # job control: a background job keeps SIGINT instead of ignoring it
  rm -f .old_sig_*.hitscan-* # a failed earlier run's, so it does not fail this one
  for sig in INT TERM HUP; do
    out=old_sig_$sig.csv
    cp "$ref" "$out"
    HITSCAN_TEST_PAUSE_BEFORE_RENAME=60 "$tool" --circles good_circles.csv \
      --queries good_queries.csv --mode count --out "$out" 2>err_$sig.txt &
    pid=$!
    for _ in $(seq 2000); do
      grep -q "test pause before rename" err_$sig.txt && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.01
    done
    tmp=$(sed -n 's/^hitscan: test pause before rename: //p' err_$sig.txt)
    if [ -z "$tmp" ]; then
      kill -KILL $pid 2>/dev/null
      wait $pid
      rc=$? # 128 + n: ended by signal n (137: the KILL above, so it was still running)
      fail "SIG$sig: the tool did not pause before its rename (exit status $rc): $(cat err_$sig.txt)"
    fi
    [ -s "$tmp" ] || fail "SIG$sig: no complete temporary file $tmp during the pause"
    unchanged "$out"
    kill -$sig $pid
    wait $pid
    rc=$?
    [ $rc -eq $((128 + $(kill -l $sig))) ] || fail "SIG$sig: exit status $rc"
    [ ! -e "$tmp" ] || fail "SIG$sig: $tmp is still there"
    unchanged "$out"
    no_leftovers "$out"
  done
  ;;
signal_writing)
  set -m
  out=old_big.csv
  # up to three tries, each larger, in case the run ends before the signal reaches it
  for m in 400000 1000000 2000000; do
    cp "$ref" "$out"
    "$tool" --scene uniform --n 1000 --m $m --out "$out" >/dev/null 2>err_big.txt &
    pid=$!
    for _ in $(seq 6000); do # until the output is being written
      tmp=$(ls -A | grep -F ".$out.hitscan-" | head -n 1)
      [ -n "$tmp" ] && [ -s "$tmp" ] && break
      cmp -s "$out" "$ref" || break # a tool that writes in place
      kill -0 $pid 2>/dev/null || break
      sleep 0.005
    done
    kill -INT $pid 2>/dev/null
    wait $pid
    rc=$?
    if [ $rc -eq 0 ]; then # finished first: the whole result must be in place
      [ "$(tail -n 1 "$out" | cut -d, -f1)" = $((m - 1)) ] || fail "m=$m: finished, but cut short"
      no_leftovers "$out"
      echo "m=$m: finished before the signal; trying a larger run"
      continue
    fi
    [ $rc -eq 130 ] || fail "exit status $rc: $(cat err_big.txt)"
    unchanged "$out"
    no_leftovers "$out"
    echo "m=$m: interrupted while writing; $out unchanged, no temporary file left"
    exit 0
  done
  fail "every run finished before the signal"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "$case_name: passed"
