#!/usr/bin/env bash
# The set-up `npm start` and `npm test` share: system packages for the profile (app or test), then npm
# dependencies when they are missing or older than the lockfile. Electron's binary is never downloaded
# here (machines without internet cannot); start.sh tries it once, separately.
#
#   bash scripts/setup.sh app|test
set -uo pipefail
cd "$(dirname "$0")/.."
profile="${1:-app}"

bash scripts/system-deps.sh "$profile"
system_rc=$?

lock_version() { node -p "require('./package-lock.json').packages['node_modules/$1']?.version ?? ''"; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies…"
  # keytar is optional: where its native build fails (no libsecret headers) npm goes on without it.
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error || exit 1
fi

# keytar skipped by an earlier install whose libsecret headers have arrived since: build it now.
if [ ! -f node_modules/keytar/build/Release/keytar.node ] && pkg-config --exists libsecret-1 2>/dev/null; then
  echo "Building the keychain module (keytar) now that libsecret is installed…"
  npm install --no-save --no-audit --no-fund --loglevel=error "keytar@$(lock_version keytar)" ||
    echo "keytar did not build; Portolan starts without the keychain."
fi
if [ ! -f node_modules/keytar/build/Release/keytar.node ]; then
  echo "Note: the keychain module (keytar) is not built on this machine, so API keys cannot be saved;"
  echo "the demo workspace and the offline library work. Install libsecret-1-dev and run this again."
fi
exit "$system_rc"
