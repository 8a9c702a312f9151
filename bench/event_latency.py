#!/usr/bin/env python3
"""How long a location update takes to reach the event streams of the mover's friends.

  event_latency.py BASE_URL TOKENS_FILE STREAMS UPDATES

Opens STREAMS Server-Sent Event streams (/v1/me/events), one per person, for the first STREAMS tokens in the
file; then, one at a time, moves UPDATES of those people (PUT /v1/me/location) and times, from the moment each
update is sent, the arrival of its `move` event on every open stream that receives one. Prints one JSON line:
streams, the seconds until all were ready, updates, deliveries, p50 and p99 in milliseconds.
"""
import asyncio
import json
import sys
import time
from urllib.parse import urlparse


async def open_stream(host, port, token, arrivals, ready):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(("GET /v1/me/events HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n\r\n" % (host, port, token)).encode())
    await writer.drain()
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    text = ""
    while True:
        size_line = await reader.readline()
        if not size_line:
            return
        size = int(size_line.strip() or b"0", 16)
        if size == 0:
            return
        chunk = await reader.readexactly(size + 2)
        text += chunk[:-2].decode()
        while "\n\n" in text:
            message, text = text.split("\n\n", 1)
            if message.startswith(": ") or "event: ready" in message:
                ready.set_result(True) if "event: ready" in message and not ready.done() else None
                continue
            if "event: move" in message:
                payload = json.loads(message.split("data: ", 1)[1])
                arrivals.append((payload["id"], payload["lat"], time.perf_counter()))


async def put(host, port, token, lat):
    reader, writer = await asyncio.open_connection(host, port)
    body = json.dumps({"lat": lat, "lon": -73.95, "accuracyMeters": 5})
    writer.write(("PUT /v1/me/location HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                  % (host, port, token, len(body), body)).encode())
    await writer.drain()
    status = (await reader.readline()).split()[1]
    writer.close()
    return int(status)


async def main():
    base, tokens_file, streams, updates = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    url = urlparse(base)
    tokens = [line.strip() for line in open(tokens_file) if line.strip()][:streams]
    arrivals = []
    readies = [asyncio.get_running_loop().create_future() for _ in tokens]
    opened = time.perf_counter()
    tasks = [asyncio.create_task(open_stream(url.hostname, url.port, token, arrivals, ready)) for token, ready in zip(tokens, readies)]
    try:
        await asyncio.wait_for(asyncio.gather(*readies), 60)
    except asyncio.TimeoutError:
        failed = [task.exception() for task in tasks if task.done() and not task.cancelled() and task.exception()]
        sys.exit("%d of %d streams ready after 60 s (%d connections failed%s)" % (sum(ready.done() and not ready.cancelled() for ready in readies), len(readies), len(failed),
                                                                                ": %r" % failed[0] if failed else ""))
    ready_seconds = time.perf_counter() - opened
    sent = {}
    for step in range(updates):
        mover = step % len(tokens)
        lat = round(40.70 + step / 100000, 6)
        started = time.perf_counter()
        if await put(url.hostname, url.port, tokens[mover], lat) == 204:
            sent[("p%d" % mover, lat)] = started
        await asyncio.sleep(0.02)
    await asyncio.sleep(1)
    latencies = [(at - sent[(person, round(seen_lat, 6))]) * 1000 for person, seen_lat, at in arrivals if (person, round(seen_lat, 6)) in sent]
    for task in tasks:
        task.cancel()
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
    print(json.dumps({"streams": len(tokens), "ready": ready_seconds, "updates": updates, "deliveries": len(latencies), "p50": pick(0.5), "p99": pick(0.99)}))


asyncio.run(main())
