#!/usr/bin/env python3
"""A Dasher's fix to its customer's stream, timed from outside the server, for the delivery bench.

  order_latency.py HOST PORT CUSTOMER_TOKEN DASHER_TOKEN FIXES VIEWER_TOKEN MOVER_TOKEN ORDER

FIXES is a file of "lat lon at" lines (a simulated Dasher's drive, `at` ISO 8601). First the anchor: the mover (a
friend of the viewer) sends one location update per fix, and the time from sending each to its `move` reaching the
viewer's stream is measured (the live map's own path). Then the Dasher sends each fix, and the time from sending it
to the next `order` event (the matched position and the ETA) reaching the customer's stream is measured. Updates go
130 ms apart, under the rate limit; the customer's tracking layout of ORDER is read first, so the server has built
its street network (once, at the first request that needs it) before anything is timed. Loopback only; every wait has a deadline. Prints one JSON line.
"""
import http.client
import json
import socket
import sys
import threading
import time

PROBE_INTERVAL = 0.13
PROBE_TIMEOUT = 3.0


class Stream:
    """An event stream read on a thread; `count(text)` is how often text has arrived so far."""

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

    def wait_for(self, done, timeout):
        deadline = time.monotonic() + timeout
        with self.lock:
            while not done(self.text):
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.lock.wait(left)
        return time.monotonic()


def probe(client, stream, token, bodies, marker):
    latencies, missed = [], 0
    for body in bodies:
        seen = stream.text.count(marker)
        sent = time.monotonic()
        client.request("PUT", "/v1/me/location", body, {"Authorization": "Bearer " + token, "Host": "127.0.0.1"})
        client.getresponse().read()
        arrived = stream.wait_for(lambda text: text.count(marker) > seen, PROBE_TIMEOUT)
        if arrived is None:
            missed += 1
        else:
            latencies.append((arrived - sent) * 1000)
        time.sleep(max(0, PROBE_INTERVAL - (time.monotonic() - sent)))
    latencies.sort()
    pick = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2) if latencies else None
    return {"probes": len(bodies), "missed": missed, "p50Ms": pick(0.5), "p99Ms": pick(0.99),
            "maxMs": round(latencies[-1], 2) if latencies else None}


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    customer, dasher, fixes, viewer, mover, order_id = sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8]
    lines = [line.split() for line in open(fixes) if line.strip()]
    customer_stream, viewer_stream = Stream(host, port, customer), Stream(host, port, viewer)
    ready = all(s.wait_for(lambda text: "event: ready" in text, 10) is not None for s in (customer_stream, viewer_stream))
    client = http.client.HTTPConnection(host, port, timeout=60)
    client.request("GET", "/v1/me/orders/%s/layout.json" % order_id, headers={"Authorization": "Bearer " + customer, "Host": "127.0.0.1"})
    response = client.getresponse()
    response.read()
    warm = response.status
    moves = [json.dumps({"lat": 40.71 + 0.00001 * (i + 1), "lon": -73.95, "accuracyMeters": 5}) for i in range(len(lines))]
    anchor = probe(client, viewer_stream, mover, moves, "event: move")
    drive = [json.dumps({"lat": float(lat), "lon": float(lon), "accuracyMeters": 10, "at": at}) for lat, lon, at in lines]
    order = probe(client, customer_stream, dasher, drive, "event: order")
    print(json.dumps({"ready": ready, "warm": warm, "move": anchor, "order": order}))


main()
