#!/usr/bin/env bash
# Installs dependencies, builds, and starts Portolan on its embedded demo workspace.
# Where Electron's binary cannot be installed (as on CI machines), it says so and starts the browser
# host instead, which serves the same app to a local browser.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies…"
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund
fi

echo "Building…"
npx electron-vite build >/dev/null

electron_ready() {
  [ -f node_modules/electron/path.txt ] && [ -e "node_modules/electron/dist/$(cat node_modules/electron/path.txt)" ]
}
# Electron fetches its binary on first use; try once, quietly, and fall back if the network refuses.
if electron_ready || { timeout 300 node node_modules/electron/install.js >/dev/null 2>&1 && electron_ready; }; then
  exec npx electron . --demo
fi

cat <<'MSG'

Electron's binary is not installed on this machine (its download is blocked here), so the desktop
window cannot open. Starting the browser host instead: it serves the same app on 127.0.0.1 with the
demo workspace. Open the URL printed below in Chromium or any browser on this machine.

MSG
exec npx tsx scripts/web.ts --demo
