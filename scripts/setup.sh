#!/usr/bin/env bash
# Installs what wmnsim needs to build and test, from Debian packages only.
# Idempotent: does nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libeigen3-dev libspdlog-dev nlohmann-json3-dev
  libgtest-dev pybind11-dev libcli11-dev python3-dev
  python3-pytest python3-jsonschema
  python3-numpy python3-pandas python3-matplotlib python3-pip python3-venv
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
