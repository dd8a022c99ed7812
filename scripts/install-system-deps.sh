#!/usr/bin/env bash
# Debian packages the tests and the app need: keytar's build (libsecret), a real Secret Service for the
# keychain tests (gnome-keyring under dbus-run-session), Chromium for end-to-end tests, LibreOffice to
# read exported spreadsheets back. Run as root (or with sudo).
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq \
  libsecret-1-dev libsecret-1-0 gnome-keyring dbus dbus-x11 \
  chromium libreoffice-calc-nogui >/dev/null
echo "system packages installed"
