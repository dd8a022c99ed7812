#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked GNOME Keyring (a real Secret Service),
# so keychain tests hit the real thing headless. A fresh keyring each run: a reused one can hang on a
# password prompt.  Usage: scripts/with-keyring.sh npx vitest run test/secrets
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install dbus gnome-keyring)" >&2; exit 2; }
done
XDG_DATA_HOME="$(mktemp -d)"
export XDG_DATA_HOME
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
# The unlock password is throwaway: the keyring lives in the temp dir above and is deleted afterwards.
exec_cmd=$(printf '%q ' "$@")
dbus-run-session -- sh -c "echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null && export PORTOLAN_TEST_KEYRING=1 && $exec_cmd"
