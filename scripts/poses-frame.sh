#!/bin/sh
# Writes Sam's frame with Actionmoji poses (and its layout) from Data/williamsburg/poses.json: a new store seeded from
# the fixture, the file's fixes and birthdays recorded through the command line as phones and people would, then the
# frame at the file's clock. Usage: scripts/poses-frame.sh SNAPMAP OUT_DIR
set -eu
bin=$1
out=$2
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
db="$store/poses.db"
"$bin" seed --db "$db" >/dev/null
python3 - "$bin" "$db" Data/williamsburg/poses.json <<'PY'
import json, subprocess, sys
bin, db, path = sys.argv[1:4]
poses = json.load(open(path))
for fix in poses["fixes"]:
    command = [bin, "locate", fix["id"], "--at", f'{fix["lat"]},{fix["lon"]}', "--taken", fix["at"], "--place", fix["place"],
               "--activity", fix["activity"], "--clock", poses["clock"], "--db", db]
    if "speed" in fix:
        command += ["--speed", str(fix["speed"])]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
for entry in poses["birthdays"]:
    subprocess.run([bin, "birthday", entry["id"], "--set", entry["birthday"], "--db", db], check=True, stdout=subprocess.DEVNULL)
PY
clock=$(python3 -c 'import json; print(json.load(open("Data/williamsburg/poses.json"))["clock"])')
"$bin" render --layers base,heat,pins --clock "$clock" --db "$db" --out "$out/williamsburg-poses.png" --layout-out "$out/williamsburg-poses-layout.json"
