#!/usr/bin/env bash
# Runs every test suite (unit + integration, then end-to-end in Chromium) under a private D-Bus session
# with a real, freshly unlocked gnome-keyring, and ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
for bin in dbus-run-session gnome-keyring-daemon /usr/bin/chromium; do
  command -v "$bin" >/dev/null 2>&1 || missing+=("$bin")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Missing system packages for the tests (${missing[*]})."
  echo "Install them with: sudo bash scripts/install-system-deps.sh"
  exit 2
fi
[ -d node_modules ] || { echo "Dependencies are not installed: run 'ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci' first."; exit 2; }

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

echo "== build (the end-to-end suite drives the built renderer)"
npx electron-vite build >"$results/build.log" 2>&1 || { cat "$results/build.log"; echo "0 passed, 1 failed"; exit 1; }

echo "== unit and integration tests"
bash scripts/with-keyring.sh npx vitest run --reporter=default --reporter=json --outputFile="$results/unit.json"
unit_rc=$?

echo "== end-to-end tests (Chromium through the browser test host)"
bash scripts/with-keyring.sh npx vitest run --config vitest.e2e.config.mts --reporter=default --reporter=json --outputFile="$results/e2e.json"
e2e_rc=$?

node scripts/sum-results.mjs "$results/unit.json" "$results/e2e.json"
sum_rc=$?
[ $unit_rc -eq 0 ] && [ $e2e_rc -eq 0 ] && [ $sum_rc -eq 0 ]
