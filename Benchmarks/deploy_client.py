#!/usr/bin/env python3
"""Benchmarks/deploy.sh's load: CLIENTS sessions, each posting a person event every PERIOD s with the Swift client's
retry rules (a failed try, a reset, a 5xx is tried again with the same Idempotency-Key, backoff 0.1 s doubling to
2 s), and one SSE stream per session following with Last-Event-ID. Runs until the file STOP exists, then checks every
session against its snapshot and prints one JSON line of figures. Measurement harness, not product code."""
import asyncio, json, os, sys, time, uuid

PORT = int(sys.argv[1]); CLIENTS = int(sys.argv[2]); PERIOD = float(sys.argv[3]); STOP = sys.argv[4]
figures = dict(refused=0, reset=0, answers5xx=0, acknowledged=0, lost=0, doubled=0, backwards=0, behind=0, waits=[])

async def request(method, path, token=None, body=None, headers=None):
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    try:
        data = body.encode() if body else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
        if data: head += "Content-Type: application/json\r\n"
        if token: head += f"Authorization: Bearer {token}\r\n"
        for k, v in (headers or {}).items(): head += f"{k}: {v}\r\n"
        writer.write(head.encode() + b"\r\n" + data); await writer.drain()
        raw = await reader.read(-1)
        if not raw: raise ConnectionResetError("closed before an answer")
        status = int(raw.split(b" ", 2)[1]); body = raw.split(b"\r\n\r\n", 1)[1]
        headers = raw.split(b"\r\n\r\n", 1)[0].decode(errors="replace")
        return status, headers, body
    finally:
        writer.close()

async def send(session, token, n):
    key = str(uuid.uuid4()); backoff = 0.1; start = time.monotonic()
    body = json.dumps({"type": "setPerson", "firstName": f"n{n}", "lastName": "Deploy", "birthdate": "1990-01-01"})
    while True:
        try:
            status, _, answer = await request("POST", f"/v1/sessions/{session}/person/events", token, body,
                                              {"Idempotency-Key": key})
            if status < 500:
                figures["waits"].append(time.monotonic() - start)
                return json.loads(answer).get("version") if status == 202 else None
            figures["answers5xx"] += 1
        except ConnectionRefusedError:
            figures["refused"] += 1
        except (ConnectionResetError, OSError, IndexError, ValueError):
            figures["reset"] += 1
        await asyncio.sleep(backoff); backoff = min(backoff * 2, 2.0)

async def follow(session, token, seen):
    last = None
    while not os.path.exists(STOP) or seen["last"] < seen["target"]:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
            head = f"GET /v1/sessions/{session}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            if last is not None: head += f"Last-Event-ID: {last}\r\n"
            writer.write((head + "\r\n").encode()); await writer.drain()
            while True:
                line = await asyncio.wait_for(reader.readline(), 1.0) if os.path.exists(STOP) else await reader.readline()
                if not line: break
                # Event ids are the session's sequence numbers (for Last-Event-ID and "backwards"); how far the
                # stream got is the feature's version inside the frame, compared with the snapshot's ETag.
                if line.startswith(b"id:"):
                    value = int(line[3:].strip())
                    if last is not None and value <= last: figures["backwards"] += 1
                    last = value
                elif line.startswith(b"data:"):
                    try: version = json.loads(line[5:]).get("version")
                    except ValueError: version = None
                    if isinstance(version, int): seen["last"] = max(seen["last"], version)
            writer.close()
        except asyncio.TimeoutError:
            if seen["last"] >= seen["target"]: break
        except OSError:
            await asyncio.sleep(0.1)
        if os.path.exists(STOP) and time.monotonic() > seen.get("deadline", 1e18): break

async def client(index):
    status, _, answer = await request("POST", "/v1/sessions", body='{"features":["person"]}')
    made = json.loads(answer); session, token = made["id"], made["token"]
    seen = {"last": -1, "target": 1 << 62}
    stream = asyncio.create_task(follow(session, token, seen))
    acked = []; n = 0
    while not os.path.exists(STOP):
        version = await send(session, token, n); n += 1
        if version is not None: acked.append(version)
        await asyncio.sleep(PERIOD)
    status, headers, _ = await request("GET", f"/v1/sessions/{session}/person", token)
    etag = [h for h in headers.split("\r\n") if h.lower().startswith("etag:")]
    final = int(etag[0].split(":", 1)[1].strip().strip('"')) if etag else -1
    figures["acknowledged"] += len(acked)
    figures["lost"] += sum(1 for v in acked if v > final)
    figures["doubled"] += len(acked) - len(set(acked)) + max(0, (final - (min(acked) - 1 if acked else final)) - len(set(acked)))
    seen["target"] = final; seen["deadline"] = time.monotonic() + 5
    await stream
    if seen["last"] < final: figures["behind"] += 1

async def main():
    await asyncio.gather(*(client(i) for i in range(CLIENTS)))
    waits = sorted(figures.pop("waits")) or [0]
    figures["p99_wait_s"] = round(waits[min(len(waits) - 1, int(len(waits) * 0.99))], 3)
    figures["max_wait_s"] = round(waits[-1], 3)
    print(json.dumps(figures))

asyncio.run(main())
