#!/usr/bin/env bash
# `npm start`: sets up what is missing (system packages, npm dependencies), builds, and starts Portolan on
# its embedded demo workspace. Where Electron's binary cannot be installed (as on machines without
# internet) or there is no display, it says so and starts the browser host instead, which serves the same
# app to a local browser and prints the address to open.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh app ||
  echo "Some system packages are missing (see above); starting anyway: everything but the keychain works."
[ -d node_modules ] || { echo "npm dependencies could not be installed (see above)."; exit 1; }

echo "Building…"
bash scripts/build.sh >/dev/null || { echo "The build failed."; exit 1; }

electron_ready() {
  [ -f node_modules/electron/path.txt ] && [ -e "node_modules/electron/dist/$(cat node_modules/electron/path.txt)" ]
}
has_display() {
  [ "$(uname -s)" != "Linux" ] || [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]
}
# Electron fetches its binary on first use; try once, quietly, and fall back if the network refuses.
if has_display; then
  if electron_ready || { timeout 300 node node_modules/electron/install.js >/dev/null 2>&1 && electron_ready; }; then
    exec npx electron . --demo
  fi
  why="Electron's binary is not installed on this machine (its download is blocked here)"
else
  why="There is no display to open a window on"
fi

cat <<MSG

$why, so the desktop window cannot open.
Starting the browser host instead: it serves the same app on 127.0.0.1 with the demo workspace.
Open the address printed below in Chromium or any browser on this machine.

MSG

# Without a desktop session there is no Secret Service to keep API keys in: run the host in a private
# D-Bus session with a keyring of its own, which lasts as long as the host does.
if [ "$(uname -s)" = "Linux" ] && [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] &&
  command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  echo "No desktop keyring session is running: API keys you save now are kept in a temporary keyring and"
  echo "forgotten when Portolan stops (the demo workspace needs none)."
  echo
  exec bash scripts/with-keyring.sh npx tsx scripts/web.ts --demo
fi
exec npx tsx scripts/web.ts --demo
