#!/usr/bin/env python3
"""Runs a test command with its output line-buffered and passed through, and ends it when it stalls.

`watch-tests.py SECONDS command...`: when the command prints nothing for SECONDS (the build prints as it goes, and
tests running beside a hung one print until they are done), it prints the tests that started and have not ended
(what a hang is waiting in), kills the command's process group and exits 1. Otherwise it exits with the command's
status. Without it, a hung test ran until CI's own limit and the last lines it had printed were
still in the test process's output buffer, so the log did not say which test hung.
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r"^◇ Test (?:case passing .* to )?(.+?) started\.$")
ENDED = re.compile(r"^[✔✘] Test (.+?)(?: with \d+ test cases?)? (?:passed|failed)")


def main() -> int:
    stall, command = float(sys.argv[1]), sys.argv[2:]
    running: dict[str, int] = {}
    last = [time.monotonic()]
    lock = threading.Lock()
    child = subprocess.Popen(["stdbuf", "-oL", "-eL"] + command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True)

    def watch() -> None:
        while child.poll() is None:
            time.sleep(5)
            with lock:
                quiet = time.monotonic() - last[0]
                if quiet < stall:
                    continue
                names = sorted(name for name, count in running.items() if count > 0)
            print(f"\nwatch-tests: nothing printed for {quiet:.0f} s; tests still running ({len(names)}):", flush=True)
            for name in names:
                print(f"  {name}", flush=True)
            os.killpg(child.pid, signal.SIGKILL)
            return

    threading.Thread(target=watch, daemon=True).start()
    for raw in child.stdout:
        line = raw.decode("utf-8", "replace")
        sys.stdout.write(line)
        sys.stdout.flush()
        text = line.strip()
        with lock:
            last[0] = time.monotonic()
            if match := STARTED.match(text):
                running[match.group(1)] = running.get(match.group(1), 0) + 1
            elif match := ENDED.match(text):
                name = match.group(1)
                running[name] = max(0, running.get(name, 0) - (1 if " with " not in text else running.get(name, 0)))
    status = child.wait()
    return 1 if status < 0 else status


if __name__ == "__main__":
    sys.exit(main())
