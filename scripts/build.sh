#!/usr/bin/env bash
# Builds the app into out/ (electron-vite build), unless out/ already holds the build of these very
# sources. `npm start`, CI's build check and `npm test` each need a build; run one after the other on
# the same checkout, as CI does, the second and third were the first again (about a minute each on two
# cores). The build is a function of what is hashed below; anything else it reads comes from there.
#
#   bash scripts/build.sh [--force]
set -uo pipefail
cd "$(dirname "$0")/.."

stamp=out/.build-inputs
inputs_hash() {
  find src resources electron.vite.config.ts tsconfig.json tsconfig.web.json package.json package-lock.json \
    -type f -print0 | LC_ALL=C sort -z | xargs -0 sha1sum | sha1sum | cut -d' ' -f1
}

hash="$(inputs_hash)"
if [ "${1:-}" != "--force" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then
  echo "out/ already holds the build of these sources; not building again."
  exit 0
fi
rm -f "$stamp"
npx electron-vite build || exit 1
echo "$hash" >"$stamp"
