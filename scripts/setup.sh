#!/usr/bin/env bash
# Installs what wmnsim needs to build and test: Debian packages, and pyarrow from PyPI
# (Debian 12 does not package it).
# Idempotent: does nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  libboost-graph-dev libeigen3-dev libspdlog-dev nlohmann-json3-dev
  libgtest-dev pybind11-dev libcli11-dev python3-dev
  python3-pytest python3-jsonschema
  python3-numpy python3-pandas python3-matplotlib python3-pip python3-venv
  python3-scipy python3-dask python3-distributed libboost-math-dev
  python3-tqdm python3-tabulate
  tshark
  chromium-headless-shell nodejs
)
# tshark reads the pcap traces back (tests/trace/test_pcap_tshark.py); the headless
# Chromium opens wmnsim.plot.animate's page and node.js runs its script
# (tests/python/test_trace.py, docs/traces.md "The animation").
# Not packaged by Debian 12: pyarrow (Parquet for sweeps), from PyPI. Pinned below
# 19: later wheels need NumPy 2, Debian 12 has 1.24.
pip_packages=("pyarrow>=14,<19")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
pip_missing=()
/usr/bin/python3 -c "import pyarrow" 2>/dev/null || pip_missing+=("${pip_packages[@]}")
if [ ${#missing[@]} -eq 0 ] && [ ${#pip_missing[@]} -eq 0 ]; then
  exit 0
fi

[ ${#missing[@]} -gt 0 ] && echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
  # tshark asks whether non-root users may capture; the noninteractive answer (no) is right here.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ${#pip_missing[@]} -gt 0 ]; then
  echo "setup: installing ${pip_missing[*]} from PyPI" >&2
  $sudo /usr/bin/python3 -m pip install -q --break-system-packages --root-user-action=ignore "${pip_missing[@]}"
fi
