#!/usr/bin/env python3
"""How long a move made through one replica takes to show in layouts on another.

  freshness.py WRITER_BASE_URL READER_BASE_URL PAIRS_FILE PROBES

PAIRS_FILE holds lines "VIEWER_TOKEN MOVER_TOKEN" of people where the viewer sees the mover. PROBES times, one at a
time and round robin over the pairs: the viewer's layout is read on the reader for its ETag, the mover's location
is PUT on the writer (alternating between two places far apart in the map), and from the moment it is sent the
viewer's layout is asked on the reader with If-None-Match until it answers 200 with another ETag. Prints one JSON
line: probes, those that showed within 2 s, p50, p99 and the largest delay in milliseconds, and the polls made.
"""
import http.client
import json
import sys
import time
from urllib.parse import urlparse

PLACES = ((40.7150, -73.9600), (40.7185, -73.9545))


def connect(base):
    url = urlparse(base)
    return http.client.HTTPConnection(url.hostname, url.port, timeout=5)


def request(connection, method, path, token, body=None, etag=None):
    headers = {"Authorization": "Bearer " + token}
    if etag:
        headers["If-None-Match"] = etag
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    return response.status, response.getheader("ETag")


def main():
    writer_base, reader_base, pairs_file, probes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    pairs = [line.split() for line in open(pairs_file) if line.strip()]
    writer, reader = connect(writer_base), connect(reader_base)
    delays, polls, missed = [], 0, 0
    for probe in range(probes):
        viewer, mover = pairs[probe % len(pairs)]
        status, before = request(reader, "GET", "/v1/me/layout.json", viewer)
        if status != 200:
            raise SystemExit("the reader answered %d to a layout" % status)
        lat, lon = PLACES[(probe // len(pairs)) % 2]
        sent = time.monotonic()
        status, _ = request(writer, "PUT", "/v1/me/location", mover, json.dumps({"lat": lat, "lon": lon, "accuracyMeters": 5}))
        if status != 204:
            raise SystemExit("the writer answered %d to a move" % status)
        while True:
            status, etag = request(reader, "GET", "/v1/me/layout.json", viewer, etag=before)
            polls += 1
            waited = time.monotonic() - sent
            if status == 200 and etag != before:
                delays.append(waited * 1000)
                break
            if waited > 2:
                missed += 1
                break
    delays.sort()
    pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))] if delays else float("nan")
    print(json.dumps({"probes": probes, "shown": len(delays), "missed": missed, "p50": pick(0.5), "p99": pick(0.99),
                      "max": delays[-1] if delays else float("nan"), "polls": polls}))


if __name__ == "__main__":
    main()
