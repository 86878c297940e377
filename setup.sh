#!/usr/bin/env bash
# Installs every system package Plumb's build, tests and README need on Debian 12.
# Idempotent: when everything is present it prints nothing and does not touch apt.
set -euo pipefail

PACKAGES=(
  pkg-config
  libxxhash-dev
  libharfbuzz-dev
  libicu-dev
  libfontconfig-dev
  fonts-noto-core
  fonts-noto-cjk
  fonts-noto-color-emoji
  fonts-dejavu-core
  # Application fonts (issue 28): WOFF2 decoding (libwoff2dec) and WOFF's zlib, the WOFF2
  # encoder the tests make a WOFF2 with, and a variable font to register (Inter).
  libwoff-dev
  zlib1g-dev
  woff2
  fonts-inter-variable
  # The conformance reference (Pango through GObject introspection) and its Python.
  python3
  python3-gi
  python3-gi-cairo
  gir1.2-pango-1.0
  # Pango's C headers: the benchmark times Pango next to Plumb (Benchmarks/CPango).
  libpango1.0-dev
  # The renderer's browser test: headless Chromium screenshots checked with Pillow.
  chromium
  python3-pil
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fc-cache -f >/dev/null 2>&1 || true
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift toolchain (6.x) must be on PATH" >&2
  exit 1
fi
