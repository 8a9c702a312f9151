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
    """Reads one stream until it ends; `ready` is set at its `ready` event, or fails with why the stream ended first."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(("GET /v1/me/events HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n\r\n" % (host, port, token)).encode())
        await writer.drain()
        status = await reader.readline()
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        if b" 200 " not in status:
            raise ConnectionError("answered %r" % status.strip())
        parts = []
        while True:
            size_line = await reader.readline()
            size = int(size_line.strip() or b"0", 16) if size_line else 0
            if size == 0:
                raise ConnectionError("the stream ended")
            chunk = (await reader.readexactly(size + 2))[:-2]
            # A `ready` comes in many chunks: they are joined once its end arrives, not searched again at each one.
            if b"\n\n" not in (parts[-1][-1:] if parts else b"") + chunk:
                parts.append(chunk)
                continue
            *messages, rest = b"".join(parts + [chunk]).split(b"\n\n")
            parts = [rest] if rest else []
            for message in messages:
                if message.startswith(b"event: ready"):
                    ready.done() or ready.set_result(True)
                elif message.startswith(b"event: move"):
                    payload = json.loads(message.split(b"data: ", 1)[1])
                    arrivals.append((payload["id"], payload["lat"], time.perf_counter()))
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        ready.done() or ready.set_exception(error)


async def put(host, port, token, lat):
    """PUTs a location; its status, or None when the server did not answer within 10 s."""
    async def exchange():
        reader, writer = await asyncio.open_connection(host, port)
        body = json.dumps({"lat": lat, "lon": -73.95, "accuracyMeters": 5})
        writer.write(("PUT /v1/me/location HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                      % (host, port, token, len(body), body)).encode())
        await writer.drain()
        status = (await reader.readline()).split()[1]
        writer.close()
        return int(status)
    try:
        return await asyncio.wait_for(exchange(), 10)
    except (OSError, asyncio.TimeoutError, IndexError, ValueError):
        return None


async def main():
    base, tokens_file, streams, updates = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    url = urlparse(base)
    tokens = [line.strip() for line in open(tokens_file) if line.strip()][:streams]
    arrivals = []
    readies = [asyncio.get_running_loop().create_future() for _ in tokens]
    opened = time.perf_counter()
    tasks = [asyncio.create_task(open_stream(url.hostname, url.port, token, arrivals, ready)) for token, ready in zip(tokens, readies)]
    done, waiting = await asyncio.wait(readies, timeout=60)
    failed = [ready.exception() for ready in done if ready.exception()]
    if waiting or failed:
        sys.exit("%d of %d streams ready after %.0f s (%d ended or failed before it%s; %d still waiting)"
                 % (len(done) - len(failed), len(readies), time.perf_counter() - opened, len(failed), ": %r" % failed[0] if failed else "", len(waiting)))
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
