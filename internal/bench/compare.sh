#!/bin/bash
# compare.sh BEFORE AFTER BUNDLE...: checks that two okf binaries print the same bytes (and exit
# with the same code) for every report of okf lint, trust, attest list and check, budget, and the
# dry runs of index, migrate and lint --fix on each bundle; that the commands that write (okf index,
# index --rewrite, migrate, lint --fix, skill), run on two copies of each bundle, print the same and
# leave the same files; and that every command's help, the rule list, each rule's docs and the
# schemas are the same. Used to show a change leaves
# every finding and every write as it was:
#   internal/bench/compare.sh /tmp/okf-main /tmp/okf ../shared/corpus/* /tmp/bundles/*
before=$1; after=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for d in "$@"; do
  [ -d "$d" ] || continue
  for cmd in "lint --now 2026-07-01 -f json" "lint --now 2027-01-15T00:00:00Z -f text" "lint --now 2026-07-01 -f sarif" \
    "lint --now 2026-07-01 -f github" "lint --now 2026-07-01 -f pretty --min-severity info --no-group" \
    "trust --now 2026-07-01 -f json" "trust --now 2026-07-01 -f text" "trust --now 2026-07-01 -f markdown" "trust --now 2026-07-01 -f html" \
    "attest list" "attest list -f json" "attest check" "attest check -f json" \
    "index --check" "index --dry-run" "index --rewrite --dry-run" "migrate --dry-run --now 2026-07-01T00:00:00Z" "lint --fix --dry-run --now 2026-07-01" \
    "budget" "budget -f json" "budget -f markdown --max-concept 800"; do
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
    if [ $r1 != $r2 ] || ! cmp -s "$tmp/1" "$tmp/2" || ! diff -r --no-dereference "$tmp/a" "$tmp/b" >/dev/null; then
      echo "DIFFERENT: okf $cmd $d (exit $r1 vs $r2)"; diff "$tmp/1" "$tmp/2" | head -5; diff -r --no-dereference "$tmp/a" "$tmp/b" | head -5; fail=1
    fi
  done
done
for d in "$@"; do
  [ -d "$d" ] || continue
  rm -rf "$tmp/a" "$tmp/b"
  $before skill --out "$tmp/a" --now 2026-07-01 "$d" >"$tmp/1" 2>&1; r1=$?
  $after skill --out "$tmp/b" --now 2026-07-01 "$d" >"$tmp/2" 2>&1; r2=$?
  sed -i "s#$tmp/[ab]#OUT#g" "$tmp/1" "$tmp/2"
  if [ $r1 != $r2 ] || ! cmp -s "$tmp/1" "$tmp/2" || ! diff -r --no-dereference "$tmp/a" "$tmp/b" >/dev/null; then
    echo "DIFFERENT: okf skill $d (exit $r1 vs $r2)"; diff "$tmp/1" "$tmp/2" | head -5; diff -r --no-dereference "$tmp/a" "$tmp/b" | head -5; fail=1
  fi
done
# What does not depend on a bundle: every command's help, the rule list and each rule's docs, the
# schemas.
for cmd in "--help" "lint --help" "trust --help" "attest --help" "attest list --help" "attest check --help" \
  "attest verify --help" "attest run --help" "gen --help" "index --help" "migrate --help" "schema --help" \
  "serve --help" "lsp --help" "skill --help" "budget --help" "version --help" "lint --list-rules" \
  "lint --list-rules -f json" "schema" "schema concept" "schema computation" "schema lifecycle" \
  "schema provenance" "schema trust" "schema config"; do
  $before $cmd >"$tmp/1" 2>&1; r1=$?
  $after $cmd >"$tmp/2" 2>&1; r2=$?
  if [ $r1 != $r2 ] || ! cmp -s "$tmp/1" "$tmp/2"; then
    echo "DIFFERENT: okf $cmd (exit $r1 vs $r2)"; diff "$tmp/1" "$tmp/2" | head -5; fail=1
  fi
done
for code in $($before lint --list-rules -f json | grep -o '"code": *"[A-Z]*[0-9]*"' | grep -o '[A-Z]*[0-9][0-9]*'); do
  $before lint --explain "$code" >"$tmp/1" 2>&1; r1=$?
  $after lint --explain "$code" >"$tmp/2" 2>&1; r2=$?
  if [ $r1 != $r2 ] || ! cmp -s "$tmp/1" "$tmp/2"; then
    echo "DIFFERENT: okf lint --explain $code (exit $r1 vs $r2)"; diff "$tmp/1" "$tmp/2" | head -5; fail=1
  fi
done
[ $fail = 0 ] && echo "identical on every bundle"
exit $fail
