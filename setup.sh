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
  # DejaVu Math TeX Gyre: a family of one face, which Pango draws with synthetic bold and oblique.
  fonts-dejavu-extra
  # Application fonts (issue 28): WOFF2 decoding (libwoff2dec) and WOFF's zlib, and the
  # WOFF2 encoder the tests make a WOFF2 with.
  libwoff-dev
  zlib1g-dev
  woff2
  # The persistent result cache (issue 29, item 1): SQLite, and its shell for inspecting a file.
  libsqlite3-dev
  sqlite3
  # Hyphenation (issue 27, item 3): libhyphen and its pattern dictionaries.
  libhyphen-dev
  hyphen-en-us
  hyphen-en-gb
  hyphen-de
  hyphen-ru
  hyphen-fr
  hyphen-es
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

# A variable font the tests register as an application font (Inter, Debian's
# fonts-inter-variable), unpacked outside fontconfig's folders: installing it would add it to
# every fallback list (it has glyphs in the Private Use Area) and change answers.
TEST_FONTS=/opt/plumb-test-fonts
if [ ! -f "$TEST_FONTS/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf" ]; then
  echo "setup: unpacking fonts-inter-variable into $TEST_FONTS" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  work=$(mktemp -d)
  (cd "$work" && apt-get download fonts-inter-variable >/dev/null 2>&1) || {
    $SUDO apt-get update -qq
    (cd "$work" && apt-get download fonts-inter-variable >/dev/null)
  }
  $SUDO mkdir -p "$TEST_FONTS"
  $SUDO dpkg-deb -x "$work"/fonts-inter-variable_*.deb "$TEST_FONTS"
  rm -rf "$work"
fi

# The Dask integration (issue 29, item 2): its virtualenv, with pinned packages from PyPI.
"$(dirname "$0")/Integrations/dask/setup-dask.sh"

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift toolchain (6.x) must be on PATH" >&2
  exit 1
fi
