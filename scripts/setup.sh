#!/usr/bin/env bash
# Installs the Debian packages listed in the given files (default: scripts/debian-packages.txt) that are
# missing. Fast when everything is already there: one dpkg-query per package, no apt calls.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lists=("$@")
((${#lists[@]})) || lists=("$here/debian-packages.txt")
mapfile -t wanted < <(cat "${lists[@]}" | grep -v '^\s*#' | awk 'NF {print $1}')
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
log=$(mktemp)
if ! { "${sudo_cmd[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "setup: installing ${missing[*]} failed" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
echo "setup: installed ${#missing[@]} packages" >&2
