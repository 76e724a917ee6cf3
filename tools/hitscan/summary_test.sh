#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest driver: the summary's times, the progress line, the README against --help.
# Usage: summary_test.sh TOOL DIR CASE
#   times          read_ms, build_ms, query_ms and write_ms are there, reading and writing take
#                  time, and total_ms holds them all
#   progress_pipe  stderr a pipe: a run longer than the progress delay prints no progress
#   progress_tty   stderr a terminal (script(1)): the same run shows its step, then erases the
#                  line before the summary; exit status 77 (skipped) without a usable script(1)
#   readme         README.md names every option and every scene --help names
set -u
tool=$1
cd "$2" || exit 1
case_name=$3
here=$(cd "$(dirname "$0")" && pwd)

fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}
field() { # field NAME LINE: the value of NAME=... in the summary line
  sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"
}
# a run that waits 2 s at its rename (the test hook), well past the progress line's delay
slow=(--scene uniform --n 1000 --m 1000 --out prog_result.csv)
pause=HITSCAN_TEST_PAUSE_BEFORE_RENAME=2

case $case_name in
times)
  line=$("$tool" --scene uniform --n 20000 --m 20000 --mode all --out times_all.csv 2>&1 >/dev/null)
  [ $? -eq 0 ] || fail "exit status: $line"
  for k in read_ms build_ms query_ms write_ms total_ms; do
    [ -n "$(field $k "$line")" ] || fail "no $k in: $line"
  done
  awk -v r="$(field read_ms "$line")" -v b="$(field build_ms "$line")" \
    -v q="$(field query_ms "$line")" -v w="$(field write_ms "$line")" \
    -v t="$(field total_ms "$line")" \
    'BEGIN { exit !(r > 0 && w > 0 && t + 0.005 >= r + b + q + w) }' ||
    fail "read and write must take time and total_ms hold every step: $line"
  line=$("$tool" --circles good_circles.csv --queries good_queries.csv 2>&1 >/dev/null)
  [ "$(field write_ms "$line")" = 0.000 ] || fail "write_ms without --out: $line"
  ;;
progress_pipe)
  err=$(env $pause "$tool" "${slow[@]}" 2>&1 >/dev/null)
  [ $? -eq 0 ] || fail "exit status: $err"
  [[ $err != *$'\r'* && $err != *"s, writing"* ]] || fail "progress on a pipe: $(od -c <<<"$err" | head)"
  grep -qx 'hitscan: test pause before rename: .*' <<<"$err" || fail "unexpected stderr: $err"
  grep -qx 'hitscan: mode=closest .* total_ms=[0-9.]*' <<<"$err" || fail "no summary: $err"
  [ "$(wc -l <<<"$err")" -eq 2 ] || fail "stderr is not two lines: $err"
  ;;
progress_tty)
  command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1 || exit 77
  cmd=$(printf '%q ' env $pause "$tool" "${slow[@]}")
  tty=$(script -qec "$cmd >/dev/null" /dev/null)
  [ $? -eq 0 ] || fail "exit status: $tty"
  # the step, on a line of its own that later lines overwrite ...
  [[ $tty =~ $'\r'"hitscan: "[0-9]+" s, writing prog_result.csv ..."$'\r' ]] ||
    fail "no progress line: $(od -c <<<"$tty" | head -20)"
  # ... erased (blanks, back to the start) before the summary
  [[ $tty =~ $'\r'" "+$'\r'"hitscan: mode=closest " ]] ||
    fail "progress line not erased before the summary: $(od -c <<<"$tty" | tail -20)"
  ;;
readme)
  help=$("$tool" --help) || fail "--help failed"
  readme=$here/README.md
  for opt in $(grep -oE -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
    grep -qF -- "\`$opt" "$readme" || fail "README.md does not describe $opt"
  done
  # the usage line's list, which may go on over indented lines of names and bars
  scenes=$(sed -n '/--scene [a-z_]*|/{s/.*--scene //;:a;/|$/{N;s/\n *//;ba};s/ .*//;p;q}' <<<"$help" |
    tr '|' ' ')
  [ -n "$scenes" ] || fail "no scene list in --help"
  row=$(grep -F -- '| `--scene KIND`' "$readme")
  for s in $scenes; do
    [[ $row == *"\`$s\`"* ]] || fail "README.md's --scene row does not name $s"
  done
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok ($case_name)"
