#!/usr/bin/env bash
# Installs plumb_dask (Integrations/dask) into the virtualenv /opt/plumb-dask-venv, made with
# Debian's Python, with pinned dask[distributed] and pyarrow from PyPI. The package is
# installed editable, so the venv runs this checkout's code.
# Idempotent: when the venv has these pins and points at this checkout it prints nothing.
set -euo pipefail

VENV=${PLUMB_DASK_VENV:-/opt/plumb-dask-venv}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The versions the tests and the benchmark ran with (Python 3.11, Debian 12).
REQUIREMENTS=("dask[distributed]==2026.11.0" "distributed==2026.11.0" "pyarrow==26.0.1")
# What the stamp file records: change a pin or move the checkout and the install runs again.
STAMP_TEXT="$HERE ${REQUIREMENTS[*]}"
STAMP="$VENV/.plumb-dask-installed"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

if [ -x "$VENV/bin/python" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$STAMP_TEXT" ] &&
  "$VENV/bin/python" -c "import importlib.util as u, sys
sys.exit(not all(u.find_spec(m) for m in ('plumb_dask', 'distributed', 'pyarrow')))" 2>/dev/null; then
  exit 0
fi

# Debian splits venv (and its ensurepip) out of python3: python3-venv.
if ! dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed"; then
  echo "setup-dask: installing python3-venv" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi

if [ ! -x "$VENV/bin/python" ]; then
  echo "setup-dask: creating $VENV" >&2
  $SUDO mkdir -p "$(dirname "$VENV")"
  $SUDO /usr/bin/python3 -m venv "$VENV"
fi

echo "setup-dask: installing plumb_dask and ${REQUIREMENTS[*]} into $VENV" >&2
$SUDO "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${REQUIREMENTS[@]}" >/dev/null
$SUDO "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps -e "$HERE" >/dev/null
echo "$STAMP_TEXT" | $SUDO tee "$STAMP" >/dev/null
