#!/bin/bash
# compare.sh BEFORE AFTER BUNDLE...: checks that two okf binaries print the same bytes (and exit
# with the same code) for okf lint (json, text and sarif), okf trust -f json and okf attest list on each
# bundle, and that the commands that write (okf index, index --rewrite, migrate, lint --fix), run on
# two copies of each bundle, print the same and leave the same files. Used to show a change leaves
# every finding and every write as it was:
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
for d in "$@"; do
  [ -d "$d" ] || continue
  for cmd in "index" "index --rewrite" "migrate --now 2026-07-01T00:00:00Z" "lint --fix --now 2026-07-01"; do
    rm -rf "$tmp/a" "$tmp/b"; cp -r "$d" "$tmp/a"; cp -r "$d" "$tmp/b"
    (cd "$tmp/a" && $before $cmd . >"$tmp/1" 2>&1); r1=$?
    (cd "$tmp/b" && $after $cmd . >"$tmp/2" 2>&1); r2=$?
    if [ $r1 != $r2 ] || ! cmp -s "$tmp/1" "$tmp/2" || ! diff -r "$tmp/a" "$tmp/b" >/dev/null; then
      echo "DIFFERENT: okf $cmd $d (exit $r1 vs $r2)"; diff "$tmp/1" "$tmp/2" | head -5; diff -r "$tmp/a" "$tmp/b" | head -5; fail=1
    fi
  done
done
[ $fail = 0 ] && echo "identical on every bundle"
exit $fail
