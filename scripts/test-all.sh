#!/usr/bin/env bash
# Runs every test suite (unit + integration, then end-to-end in Chromium) under a private D-Bus session
# with a real, freshly unlocked gnome-keyring, and ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

# The same set-up as npm start, plus what the tests need (a Secret Service, Chromium, LibreOffice).
if ! bash scripts/setup.sh test; then
  echo "The tests cannot run without the packages above."
  echo "0 passed, 1 failed"
  exit 1
fi

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

echo "== build (the end-to-end suite drives the built renderer)"
bash scripts/build.sh >"$results/build.log" 2>&1 || { cat "$results/build.log"; echo "0 passed, 1 failed"; exit 1; }

echo "== unit and integration tests"
bash scripts/with-keyring.sh npx vitest run --reporter=default --reporter=json --outputFile="$results/unit.json"
unit_rc=$?

echo "== end-to-end tests (Chromium through the browser test host)"
bash scripts/with-keyring.sh npx vitest run --config vitest.e2e.config.mts --reporter=default --reporter=json --outputFile="$results/e2e.json"
e2e_rc=$?

node scripts/sum-results.mjs "$results/unit.json" "$results/e2e.json"
sum_rc=$?
[ $unit_rc -eq 0 ] && [ $e2e_rc -eq 0 ] && [ $sum_rc -eq 0 ]
