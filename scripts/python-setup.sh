#!/usr/bin/env bash
# Installs the PyPI packages listed in the given files (default: scripts/python-packages.txt) into the virtual
# environment .build/python, made with Debian's python3. Fast when nothing changed: the lists are compared with
# what the last run installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv="$here/../.build/python"
lists=("$@")
((${#lists[@]})) || lists=("$here/python-packages.txt")
wanted=$(cat "${lists[@]}" | grep -v '^\s*#' | awk 'NF' | sort)
stamp="$venv/installed.txt"
if [[ -f "$stamp" ]] && [[ -z $(comm -13 "$stamp" <(echo "$wanted")) ]]; then
  exit 0
fi
[[ -x "$venv/bin/python" ]] || /usr/bin/python3 -m venv "$venv"
log=$(mktemp)
while read -r line; do
  # shellcheck disable=SC2086
  if ! "$venv/bin/pip" install -q --disable-pip-version-check $line >"$log" 2>&1; then
    cat "$log" >&2
    echo "python-setup: installing $line failed" >&2
    rm -f "$log"
    exit 1
  fi
done <<<"$wanted"
rm -f "$log"
sort -u <(cat "$stamp" 2>/dev/null || true) <(echo "$wanted") >"$stamp.new"
mv "$stamp.new" "$stamp"
echo "python-setup: installed $(echo "$wanted" | wc -l) PyPI packages into .build/python" >&2
