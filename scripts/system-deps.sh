#!/usr/bin/env bash
# Checks the Debian packages Portolan needs and installs the missing ones where it can (apt-get, through
# sudo when not root), saying what it installs and why. Used by `npm start` (profile "app") and
# `npm test` (profile "test"); nothing to run by hand.
#
#   bash scripts/system-deps.sh app|test
#
# Exit status: 0 when everything of the profile is present afterwards, 1 when something is still
# missing (the message says what and how to install it). `npm start` goes on regardless: the app runs
# without a keychain; `npm test` stops, since its keychain and browser tests would prove nothing.
set -uo pipefail

profile="${1:-app}"

# package|why|how to tell it is there without dpkg (a command, pkg-config:<module>, python3-module:<name>,
# or font:<language>, which fc-list answers first)
app_needs=(
  "libsecret-1-dev|keytar (the keychain module) is built against libsecret|pkg-config:libsecret-1"
  "pkg-config|keytar's build finds libsecret with it|pkg-config"
  "gnome-keyring|a Secret Service to keep API keys in on machines without a desktop keyring|gnome-keyring-daemon"
  "dbus|a private D-Bus session for that keyring when no desktop session is running|dbus-run-session"
  "fonts-wqy-microhei|Chinese, Japanese and Korean names (firms, ports, goods) are drawn with it; without such a font they show as empty boxes|font:zh"
)
test_needs=(
  "dbus-x11|the keychain tests start a throwaway keyring under dbus-run-session|dbus-launch"
  "chromium|the end-to-end tests drive the app in Chromium|/usr/bin/chromium"
  "libreoffice-calc-nogui|export tests read the written spreadsheets back with LibreOffice|libreoffice"
  "python3-openpyxl|export tests read the written spreadsheets back with openpyxl|python3-module:openpyxl"
)

needs=("${app_needs[@]}")
[ "$profile" = "test" ] && needs+=("${test_needs[@]}")

present() {
  local pkg="$1" probe="$2"
  # A font is there when any installed font covers the language, whichever package brought it.
  if [[ "$probe" == font:* ]] && command -v fc-list >/dev/null 2>&1 &&
    [ -n "$(fc-list ":lang=${probe#font:}" family 2>/dev/null)" ]; then
    return 0
  fi
  if command -v dpkg-query >/dev/null 2>&1; then
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = "installed" ]
    return
  fi
  case "$probe" in
    pkg-config:*) pkg-config --exists "${probe#pkg-config:}" 2>/dev/null ;;
    python3-module:*) python3 -c "import ${probe#python3-module:}" 2>/dev/null ;;
    *) command -v "$probe" >/dev/null 2>&1 ;;
  esac
}

missing=()
declare -A why=()
for entry in "${needs[@]}"; do
  IFS='|' read -r pkg reason probe <<<"$entry"
  if ! present "$pkg" "$probe"; then
    missing+=("$pkg")
    why[$pkg]="$reason"
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Portolan needs these system packages, which are not installed:"
for pkg in "${missing[@]}"; do echo "  - $pkg: ${why[$pkg]}"; done

advise() {
  echo "Install them yourself with:  sudo apt-get install ${missing[*]}"
  echo "(on other systems: the same libraries from your package manager)."
}

if ! command -v apt-get >/dev/null 2>&1; then
  echo "This machine has no apt-get, so Portolan cannot install them itself."
  advise
  exit 1
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "Installing them needs root, and sudo is not available."
    advise
    exit 1
  fi
  if sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  elif [ -t 0 ]; then
    echo "Installing them with sudo (it may ask for your password)."
    sudo=(sudo)
  else
    echo "Installing them needs sudo, which would ask for a password, and there is no terminal to ask on."
    advise
    exit 1
  fi
fi

echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Another package run (unattended upgrades, a second Portolan command installing at the same time) may hold
# dpkg's lock for a while: wait for it instead of failing at once.
apt_wait=(-o DPkg::Lock::Timeout=600)
if ! "${sudo[@]}" apt-get "${apt_wait[@]}" update -qq; then
  echo "apt-get update failed."
  advise
  exit 1
fi
if ! "${sudo[@]}" apt-get "${apt_wait[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
  echo "apt-get install failed."
  advise
  exit 1
fi
echo "Installed: ${missing[*]}"
