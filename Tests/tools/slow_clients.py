#!/usr/bin/env python3
"""Slow clients against a snapmap server, for the tests.

  slow_clients.py HOST PORT COUNT

Opens COUNT connections from 127.0.0.2, each sending the start of a request and then nothing (as a slowloris
attack does), then asks GET /healthz from 127.0.0.1 while they hang. Prints one JSON line: how many slow
connections the server closed at once (beyond its per-client limit), the /healthz status and its time in ms.
"""
import json
import socket
import sys
import time


def main():
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    slow = []
    for _ in range(count):
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        connection.bind(("127.0.0.2", 0))
        connection.settimeout(5)
        try:
            connection.connect((host, port))
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(connection)
        except OSError:
            connection.close()
    closed = 0
    for connection in slow:
        connection.settimeout(0.05)
        try:
            if connection.recv(1) == b"":
                closed += 1
        except socket.timeout:
            pass
        except OSError:
            closed += 1
    started = time.perf_counter()
    probe = socket.create_connection((host, port), timeout=10)
    probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    answer = probe.recv(64)
    elapsed = (time.perf_counter() - started) * 1000
    status = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1") else 0
    print(json.dumps({"opened": count, "closedByServer": closed, "healthz": status, "healthzMs": round(elapsed, 1)}))
    for connection in slow:
        connection.close()


if __name__ == "__main__":
    main()
