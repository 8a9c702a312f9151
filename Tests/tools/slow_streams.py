#!/usr/bin/env python3
"""Event streams that never read, and a healthy viewer's event latency beside them, for the tests and the bench.

  slow_streams.py HOST PORT SLOW_TOKENS PER_TOKEN HEALTHY_TOKEN MOVER_TOKEN PROBES

Opens PER_TOKEN streams for each token of the file SLOW_TOKENS (one a line) with a tiny receive buffer, from 16
loopback addresses, and never reads them. Then the mover sends PROBES location updates, 150 ms apart (under the rate limit), each at a new
latitude, and the time from sending each update to its `move` reaching the healthy viewer's stream is measured. The
same probes sent first, before any slow stream opens, are the anchor: what the machine's load alone makes of them.
Afterwards, counts the slow streams the server has closed (those it dropped for reading too slowly). Loopback
only, bounded: every wait has a deadline. Prints one JSON line.
"""
import http.client
import json
import socket
import sys
import threading
import time

PROBE_INTERVAL = 0.15
PROBE_TIMEOUT = 3.0
# Slow streams come from this many loopback addresses (127.0.0.2, ...), within the server's per-client limit.
ADDRESSES = 16


def open_slow(host, port, token, index):
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    connection.bind(("127.0.0.%d" % (2 + index % ADDRESSES), 0))
    connection.settimeout(5)
    connection.connect((host, port))
    connection.sendall(("GET /v1/me/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n" % token).encode())
    return connection


class Healthy:
    """The healthy viewer's stream, read on a thread; `arrived[text]` is when a line holding text came."""

    def __init__(self, host, port, token):
        self.sock = socket.create_connection((host, port), timeout=30)
        self.sock.sendall(("GET /v1/me/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n" % token).encode())
        self.text = ""
        self.lock = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.text += chunk.decode("utf-8", "replace")
                self.lock.notify_all()

    def wait_for(self, needle, timeout):
        deadline = time.monotonic() + timeout
        with self.lock:
            while needle not in self.text:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.lock.wait(left)
        return time.monotonic()


def probe(client, healthy, mover_token, first, count):
    """Sends `count` moves after the `first`-th, 150 ms apart; the milliseconds each took to reach `healthy` (sorted),
    and how many never did."""
    latencies, missed = [], 0
    for index in range(first, first + count):
        lat = "%.6f" % (40.71 + 0.00001 * (index + 1))
        body = json.dumps({"lat": float(lat), "lon": -73.95, "accuracyMeters": 5})
        sent = time.monotonic()
        client.request("PUT", "/v1/me/location", body, {"Authorization": "Bearer " + mover_token, "Host": "127.0.0.1"})
        client.getresponse().read()
        arrived = healthy.wait_for('"lat":%s,"lon"' % lat.rstrip("0"), PROBE_TIMEOUT)
        if arrived is None:
            missed += 1
        else:
            latencies.append((arrived - sent) * 1000)
        time.sleep(max(0, PROBE_INTERVAL - (time.monotonic() - sent)))
    return sorted(latencies), missed


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    slow_tokens = [line.strip() for line in open(sys.argv[3]) if line.strip()]
    per_token, healthy_token, mover_token, probes = int(sys.argv[4]), sys.argv[5], sys.argv[6], int(sys.argv[7])
    client = http.client.HTTPConnection(host, port, timeout=5)
    alone = Healthy(host, port, healthy_token)
    anchor = probe(client, alone, mover_token, 0, probes)[0] if alone.wait_for("event: ready", 10) is not None else []
    alone.sock.close()
    slow = [open_slow(host, port, token, index) for index, token in enumerate(slow_tokens * per_token)]
    healthy = Healthy(host, port, healthy_token)
    ready = healthy.wait_for("event: ready", 10) is not None
    latencies, missed = probe(client, healthy, mover_token, probes, probes)
    closed = 0
    for connection in slow:
        try:
            connection.setblocking(False)
            while True:
                chunk = connection.recv(1 << 20)
                if not chunk:
                    closed += 1
                    break
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        connection.close()
    pick = lambda values, q: round(values[min(len(values) - 1, int(q * len(values)))], 2) if values else None
    print(json.dumps({"ready": ready, "slowStreams": len(slow), "slowClosedByServer": closed, "probes": probes, "missed": missed,
                      "p50Ms": pick(latencies, 0.5), "p99Ms": pick(latencies, 0.99), "maxMs": round(latencies[-1], 2) if latencies else None,
                      "anchorP50Ms": pick(anchor, 0.5), "anchorP99Ms": pick(anchor, 0.99)}))


main()
