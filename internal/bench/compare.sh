#!/bin/bash
# compare.sh BEFORE AFTER BUNDLE...: checks that two okf binaries print the same bytes (and exit
# with the same code) for okf lint (json, text and sarif), okf trust -f json and okf attest list on each
# bundle. Used to show a performance change leaves every finding as it was:
#   internal/bench/compare.sh /tmp/okf-main /tmp/okf ../shared/corpus/* /tmp/bundles/*
before=$1; after=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for d in "$@"; do
  [ -d "$d" ] || continue
  for cmd in "lint --now 2026-07-01 -f json" "lint --now 2027-01-15T00:00:00Z -f text" "lint --now 2026-07-01 -f sarif" "trust --now 2026-07-01 -f json" "attest list"; do
    $before $cmd "$d" >"$tmp/1" 2>&1; r1=$?
    $after $cmd "$d" >"$tmp/2" 2>&1; r2=$?
    if [ $r1 != $r2 ] || ! cmp -s "$tmp/1" "$tmp/2"; then
      echo "DIFFERENT: okf $cmd $d (exit $r1 vs $r2)"; diff "$tmp/1" "$tmp/2" | head -5; fail=1
    fi
  done
done
[ $fail = 0 ] && echo "identical on every bundle"
exit $fail
