#!/usr/bin/env python3
"""Slow clients against a snapmap server, for the tests.

  slow_clients.py HOST PORT COUNT ADDRESSES [--trickle] [--body]

Opens COUNT connections spread over ADDRESSES client addresses (127.0.0.2, 127.0.0.3, ...), each sending the
start of a request and then nothing, as a slowloris attack does (with --body: whole headers of a POST that
announces a 1,000-byte body, then nothing). Counts those the server closes at once (beyond
its per-client limit) and asks GET /healthz from 127.0.0.1 while the rest hang. With --trickle the open ones
then keep sending a byte every half second (which keeps an idle timeout from firing) until the server has
closed them all, or a minute has passed. Prints one JSON line.
"""
import json
import resource
import selectors
import socket
import sys
import time

TRICKLE_INTERVAL = 0.5
REFUSAL_WAIT = 0.5
GIVE_UP_AFTER = 60


HEADERS_ONLY = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
BODY_PENDING = b"POST /v1/me/snaps HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"


def open_slow(host, port, count, addresses, start):
    slow = []
    for index in range(count):
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        connection.bind(("127.0.0.%d" % (2 + index % addresses), 0))
        connection.settimeout(5)
        try:
            connection.connect((host, port))
            connection.sendall(start)
            connection.setblocking(False)
            slow.append(connection)
        except OSError:
            connection.close()
    return slow


def closed_by_server(selector, timeout):
    """The connections the server closed (or answered) within `timeout` seconds."""
    closed = 0
    deadline = time.monotonic() + timeout
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(deadline - time.monotonic()):
            try:
                key.fileobj.recv(1)
            except BlockingIOError:
                continue
            except OSError:
                pass
            selector.unregister(key.fileobj)
            key.fileobj.close()
            closed += 1
    return closed


def probe_health(host, port):
    started = time.perf_counter()
    probe = socket.create_connection((host, port), timeout=10)
    probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    answer = probe.recv(64)
    elapsed = (time.perf_counter() - started) * 1000
    probe.close()
    return (int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1") else 0), round(elapsed, 1)


def main():
    host, port, count, addresses = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    trickle = "--trickle" in sys.argv[5:]
    start = BODY_PENDING if "--body" in sys.argv[5:] else HEADERS_ONLY
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    opened_at = time.monotonic()
    slow = open_slow(host, port, count, addresses, start)
    selector = selectors.DefaultSelector()
    for connection in slow:
        selector.register(connection, selectors.EVENT_READ)
    refused = closed_by_server(selector, REFUSAL_WAIT)
    status, milliseconds = probe_health(host, port)
    result = {"opened": len(slow), "closedByServer": refused, "healthz": status, "healthzMs": milliseconds}
    if trickle:
        held = len(selector.get_map())
        first_close = None
        while selector.get_map() and time.monotonic() - opened_at < GIVE_UP_AFTER:
            for key in list(selector.get_map().values()):
                try:
                    key.fileobj.send(b" ")
                except OSError:
                    pass
            if closed_by_server(selector, TRICKLE_INTERVAL) and first_close is None:
                first_close = time.monotonic() - opened_at
        result.update({"trickled": held, "stillOpen": len(selector.get_map()),
                       "firstClosedAfter": round(first_close or 0, 2), "allClosedAfter": round(time.monotonic() - opened_at, 2)})
    print(json.dumps(result))
    for key in list(selector.get_map().values()):
        key.fileobj.close()


if __name__ == "__main__":
    main()
