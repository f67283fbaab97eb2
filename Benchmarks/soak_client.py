#!/usr/bin/env python3
"""Benchmarks/soak.sh's client: bounded-rate churn against a running viewhost (measurement harness, not product code).

Each kind of churn runs in its own asyncio task at its own fixed rate, so the load is the same on a fast or a slow
machine (a task that falls behind skips ticks rather than bursting). Standard library only.

  soak_client.py --plain http://127.0.0.1:P --tls https://127.0.0.1:Q --seconds 600 --report out.json

Counts every operation and every error by kind; an error is anything the churn did not provoke on purpose (a
dropped stream or an abandoned handshake is provoked; a 5xx, a refused connection or a malformed answer is not).
"""
import argparse
import asyncio
import json
import random
import ssl
import sys
import time
from collections import Counter
from urllib.parse import urlsplit

ops = Counter()
errors = Counter()
error_samples = []


def error(kind, detail):
    errors[kind] += 1
    if len(error_samples) < 40:
        error_samples.append(f"{kind}: {detail}")


class Target:
    def __init__(self, url, tls_context=None):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.tls = tls_context

    async def connect(self):
        return await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, ssl=self.tls, server_hostname="localhost" if self.tls else None),
            10)


def request_bytes(method, path, headers=None, body=b"", keep_alive=True):
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}")
    if not keep_alive:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def read_response(reader, head_only=False):
    """Reads one response; returns (status, headers, body)."""
    status_line = await asyncio.wait_for(reader.readline(), 15)
    if not status_line:
        raise ConnectionError("closed before a response")
    status = int(status_line.split()[1])
    headers = {}
    while True:
        line = await asyncio.wait_for(reader.readline(), 15)
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = b""
    if head_only or status in (204, 304):
        return status, headers, body
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await asyncio.wait_for(reader.readline(), 15)).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                break
            body += await asyncio.wait_for(reader.readexactly(size + 2), 15)
    elif "content-length" in headers:
        body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 15)
    return status, headers, body


async def close(writer):
    writer.close()
    try:
        await asyncio.wait_for(writer.wait_closed(), 5)
    except Exception:
        pass


async def exchange(target, method, path, headers=None, body=b""):
    reader, writer = await target.connect()
    try:
        writer.write(request_bytes(method, path, headers, body, keep_alive=False))
        await writer.drain()
        return await read_response(reader)
    finally:
        await close(writer)


async def every(rate, deadline, action, name):
    """Runs `action` `rate` times a second until `deadline`, skipping ticks when it falls behind."""
    interval = 1.0 / rate
    next_tick = time.monotonic()
    while time.monotonic() < deadline:
        try:
            await action()
            ops[name] += 1
        except Exception as exc:  # an unexpected failure of this operation
            error(name, repr(exc))
        next_tick += interval
        delay = next_tick - time.monotonic()
        if delay < 0:
            next_tick = time.monotonic()
        else:
            await asyncio.sleep(delay)


def expect(status, wanted, what):
    if status not in wanted:
        raise RuntimeError(f"{what}: status {status}")


async def new_session(target):
    status, headers, body = await exchange(
        target, "POST", "/v1/sessions", {"Content-Type": "application/json"}, b'{"features":["chat","weather","login","person"]}')
    expect(status, (201,), "POST /v1/sessions")
    answer = json.loads(body)
    return answer["id"], answer["token"]


def churn_actions(plain, tls, sessions):
    async def connect_close():
        # A connection opened and closed: half with a request, half without one.
        reader, writer = await plain.connect()
        if random.random() < 0.5:
            writer.write(request_bytes("GET", "/healthz", keep_alive=False))
            await writer.drain()
            status, _, _ = await read_response(reader)
            expect(status, (200,), "healthz")
        await close(writer)

    async def keep_alive():
        reader, writer = await plain.connect()
        try:
            for path in ("/healthz", "/readyz", "/openapi.json", "/healthz"):
                writer.write(request_bytes("GET", path, {"Accept-Encoding": "gzip"}))
                await writer.drain()
                status, _, _ = await read_response(reader)
                expect(status, (200,), path)
        finally:
            await close(writer)

    async def pipelined():
        reader, writer = await plain.connect()
        try:
            count = random.randint(2, 8)
            writer.write(b"".join(request_bytes("GET", "/healthz") for _ in range(count)))
            await writer.drain()
            for _ in range(count):
                status, _, _ = await read_response(reader)
                expect(status, (200,), "pipelined healthz")
        finally:
            await close(writer)

    async def session_life():
        # Created, used, then deleted (half) or left to expire (half).
        sid, token = await new_session(plain)
        auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        for event in (b'{"type":"create","contact":"Ann"}', b'{"type":"send","text":"hello"}', b'{"type":"back"}'):
            status, _, _ = await exchange(plain, "POST", f"/v1/sessions/{sid}/chat/events", auth, event)
            expect(status, (202, 409), "chat event")
        status, _, _ = await exchange(
            plain, "POST", f"/v1/sessions/{sid}/weather/events", auth, b'{"type":"changeLocation","location":"Paris"}')
        expect(status, (202, 409), "weather event")
        status, _, _ = await exchange(plain, "GET", f"/v1/sessions/{sid}/chat", {"Authorization": f"Bearer {token}"})
        expect(status, (200,), "chat snapshot")
        if random.random() < 0.5:
            status, _, _ = await exchange(plain, "DELETE", f"/v1/sessions/{sid}", {"Authorization": f"Bearer {token}"})
            expect(status, (204,), "DELETE session")
        else:
            sessions.append((sid, token))
            del sessions[:-50]

    async def stream_dropped():
        # An event stream read for a moment and dropped, often in the middle of a frame.
        if not sessions:
            return
        sid, token = random.choice(sessions)
        reader, writer = await plain.connect()
        try:
            writer.write(request_bytes("GET", f"/v1/sessions/{sid}/stream", {"Authorization": f"Bearer {token}"}))
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), 15)
            status = int(line.split()[1])
            # 410: the session expired meanwhile (provoked by the churn); 429: this session's streams are full.
            expect(status, (200, 410, 404, 429), "stream")
            if status == 200:
                await asyncio.wait_for(reader.read(random.randint(1, 300)), 15)
        finally:
            if random.random() < 0.5 and writer.get_extra_info("socket") is not None:
                writer.transport.abort()  # a reset instead of a FIN
            else:
                await close(writer)

    async def tls_request():
        reader, writer = await tls.connect()
        try:
            writer.write(request_bytes("GET", "/healthz", keep_alive=random.random() < 0.5))
            await writer.drain()
            status, _, _ = await read_response(reader)
            expect(status, (200,), "TLS healthz")
        finally:
            await close(writer)

    async def tls_abandoned():
        # A TCP connection to the TLS port that sends half a ClientHello, or nothing, and goes away.
        reader, writer = await asyncio.open_connection(tls.host, tls.port)
        if random.random() < 0.5:
            writer.write(bytes([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00]))
            await writer.drain()
        await close(writer)

    async def slow_reader():
        # Asks for sizeable answers on a small receive buffer and reads them a little at a time.
        reader, writer = await plain.connect()
        try:
            sock = writer.get_extra_info("socket")
            if sock is not None:
                import socket
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            writer.write(b"".join(request_bytes("GET", "/openapi.json") for _ in range(3)))
            await writer.drain()
            for _ in range(40):
                chunk = await asyncio.wait_for(reader.read(512), 15)
                if not chunk:
                    break
                await asyncio.sleep(0.05)
        finally:
            await close(writer)

    return {
        "connect_close": (connect_close, 20),
        "keep_alive": (keep_alive, 10),
        "pipelined": (pipelined, 10),
        "session_life": (session_life, 5),
        "stream_dropped": (stream_dropped, 5),
        "tls_request": (tls_request, 5),
        "tls_abandoned": (tls_abandoned, 2),
        "slow_reader": (slow_reader, 1),
    }


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plain", required=True)
    parser.add_argument("--tls", required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--report", required=True)
    args = parser.parse_args()
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    plain, tls = Target(args.plain), Target(args.tls, context)
    sessions = []
    deadline = time.monotonic() + args.seconds
    tasks = [every(rate, deadline, action, name) for name, (action, rate) in churn_actions(plain, tls, sessions).items()]
    started = time.monotonic()
    await asyncio.gather(*tasks)
    report = {"seconds": round(time.monotonic() - started, 1), "operations": dict(ops), "errors": dict(errors),
              "error_samples": error_samples}
    with open(args.report, "w") as out:
        json.dump(report, out, indent=2)
    print(json.dumps({k: report[k] for k in ("seconds", "operations", "errors")}))


if __name__ == "__main__":
    asyncio.run(main())
