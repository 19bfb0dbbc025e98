#!/usr/bin/env bash
# Builds validation/ns3/wmnsim_ns3.cc against the ns-3 3.44 of the `ns3` wheel (PyPI),
# installed in a venv (default /work/venv-ns3: python3 -m venv DIR && DIR/bin/pip install ns3==3.44.post0).
# Usage: build_ns3.sh [OUTPUT]  (default build/ns3/wmnsim_ns3)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${NS3_VENV:-/work/venv-ns3}"
ns3="$("$venv/bin/python" -c 'import os, importlib.util; print(os.path.dirname(importlib.util.find_spec("ns3").origin or importlib.util.find_spec("ns3").submodule_search_locations[0]))' 2>/dev/null || true)"
[ -d "$ns3/include/ns3" ] || ns3="$(ls -d "$venv"/lib/python3*/site-packages/ns3 | head -1)"
[ -d "$ns3/include/ns3" ] || { echo "build_ns3.sh: no ns-3 headers under $venv (pip install ns3==3.44.post0)" >&2; exit 2; }
out="${1:-$here/../../build/ns3/wmnsim_ns3}"
mkdir -p "$(dirname "$out")"
libs=()
for m in core network wifi internet mobility propagation spectrum antenna energy traffic-control bridge stats applications; do
  libs+=("-lns3.44-$m")
done
# --no-as-needed: ns-3 registers its types from the libraries' static constructors,
# so a library whose symbols the program does not name must still be loaded.
g++ -std=c++20 -O2 "$here/wmnsim_ns3.cc" -I"$ns3/include" -L"$ns3/lib64" -Wl,-rpath,"$ns3/lib64" \
    -Wl,--no-as-needed "${libs[@]}" -o "$out"
echo "$out"
