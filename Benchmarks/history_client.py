#!/usr/bin/env python3
"""Benchmarks/history_client.py: the client side of Benchmarks/history.sh (measurement harness, not product code).

Talks to one `viewhost serve` on 127.0.0.1 and prints one JSON object per measurement on stdout:

  bytes      BASE         per update, whole snapshot against patch, gzip on and off: a chat after 20 and after 200
                          messages (one more message sent), and a weather location change
  past       BASE N K     a session with N + 100 inputs; K reads of distinct past versions about N inputs back, newest
                          first (each rebuilt from a checkpoint: nothing cached helps), timed one by one: p50/p99 ms
  journal    BASE N R     a session with N inputs exported (GET /journal) and imported (POST /v1/sessions), R times
                          each, timed by curl: inputs/s, and the server's CPU time over each (PID from $SERVER_PID)
  streams    BASE S U M C [N]
                          S sessions (a chat of N messages each, 200 unless given), each with one event stream in mode
                          M (whole or patch) and Accept-Encoding C (identity or gzip), U messages sent to each; the server's CPU
                          time (/proc/PID/stat of the server, PID from $SERVER_PID) per frame delivered and per update
                          (a version of a chat made in that time: frames of a slow stream coalesce)
"""
import gzip
import http.client
import json
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import time
import zlib


def connection(base):
    host, port = base.replace("http://", "").split(":")
    return http.client.HTTPConnection(host, int(port), timeout=60)


def request(conn, method, path, token=None, body=None, headers=None, content_type="application/json"):
    all_headers = dict(headers or {})
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        all_headers["Content-Type"] = content_type
        if isinstance(body, str):
            body = body.encode()
    conn.request(method, path, body=body, headers=all_headers)
    response = conn.getresponse()
    return response.status, dict(response.getheaders()), response.read()


def create(conn, features=None):
    body = json.dumps({"features": features}) if features else None
    status, _, data = request(conn, "POST", "/v1/sessions", body=body)
    assert status == 201, (status, data)
    created = json.loads(data)
    return created["id"], created["token"]


def post(conn, session, feature, event):
    sid, token = session
    status, _, data = request(conn, "POST", f"/v1/sessions/{sid}/{feature}/events", token, json.dumps(event))
    assert status == 202, (status, data)
    return json.loads(data)["version"]


def snapshot(conn, session, feature, headers=None, query=""):
    sid, token = session
    return request(conn, "GET", f"/v1/sessions/{sid}/{feature}{query}", token, headers=headers)


def settle(conn, session, feature, quiet=2.0, limit=60.0):
    """Waits until `feature` has not changed for `quiet` seconds (the chat's partner done answering)."""
    _, headers, _ = snapshot(conn, session, feature)
    tag, since, start = headers["ETag"], time.time(), time.time()
    while time.time() - since < quiet and time.time() - start < limit:
        time.sleep(0.2)
        _, headers, _ = snapshot(conn, session, feature)
        if headers["ETag"] != tag:
            tag, since = headers["ETag"], time.time()


def update_bytes(conn, session, feature, change):
    """The bytes of one update of `feature` made by `change()`: the whole new snapshot, and the patch to it from
    the version before, each plain and gzipped as sent (the body's length on the wire). The feature is let settle
    first, and measured again when it moved on between the two reads (the chat's partner answering)."""
    for _ in range(10):
        settle(conn, session, feature)
        _, headers, _ = snapshot(conn, session, feature)
        before = headers["ETag"]
        change()
        time.sleep(0.3)  # a provider's answer (weather) comes back on its own
        sizes = {}
        for coding in ("identity", "gzip"):
            _, whole_headers, whole = snapshot(conn, session, feature, {"Accept-Encoding": coding})
            status, patch_headers, patch = snapshot(
                conn, session, feature, {"Accept-Encoding": coding, "If-None-Match": before, "Accept": "application/json-patch+json"})
            assert status == 200, status
            if patch_headers["ETag"].lstrip("W/") != whole_headers["ETag"].lstrip("W/"):
                break
            assert patch_headers.get("Content-Type") == "application/json-patch+json", patch_headers
            sizes[coding] = {"whole": len(whole), "patch": len(patch)}
        if len(sizes) == 2:
            return sizes
    raise AssertionError("the feature kept changing under the measurement")


def wait_for_john(conn, session):
    for _ in range(100):
        _, _, body = snapshot(conn, session, "chat")
        if any(chat.get("contact") == "John" for chat in json.loads(body)["chatList"]["chats"]):
            return
        time.sleep(0.1)
    raise AssertionError("John's chat did not load")


def bytes_table(base):
    conn = connection(base)
    rows = []
    session = create(conn, ["chat", "weather"])
    wait_for_john(conn, session)
    post(conn, session, "chat", {"type": "openChat", "contact": "John"})
    sent = 0
    for target in (20, 200):
        while True:
            _, _, body = snapshot(conn, session, "chat")
            messages = len(json.loads(body)["conversations"]["John"]["messages"])
            if messages >= target - 1:
                break
            post(conn, session, "chat", {"type": "send", "text": f"message number {sent}, as a person writes it"})
            sent += 1
        _, _, body = snapshot(conn, session, "chat")
        messages = len(json.loads(body)["conversations"]["John"]["messages"])
        sizes = update_bytes(conn, session, "chat", lambda: post(
            conn, session, "chat", {"type": "send", "text": "one more message, to see what it costs"}))
        rows.append({"case": f"chat, message {messages + 1} sent", **sizes})
    for place in ("Tallinn", "Paris"):
        sizes = update_bytes(conn, session, "weather", lambda: post(conn, session, "weather", {"type": "changeLocation", "location": place}))
    rows.append({"case": "weather, location changed", **sizes})
    print(json.dumps({"measurement": "bytes", "rows": rows}))


def person(number):
    return {"type": "setPerson", "firstName": f"Name{number}", "lastName": "History", "birthdate": "1990-01-01"}


def fill(conn, session, inputs):
    for number in range(inputs):
        post(conn, session, "person", person(number))


def past(base, back, reads):
    conn = connection(base)
    session = create(conn, ["person"])
    fill(conn, session, back + 100)
    _, _, body = snapshot(conn, session, "person")
    latest = json.loads(body)["version"]
    # Distinct versions about `back` inputs back, newest first: each one is older than where the last rebuild
    # stopped, so each starts from a checkpoint (the worst case a slider moving back meets).
    versions = sorted(random.Random(7).sample(range(latest - back - 40, latest - back + 40), min(reads, 80)), reverse=True)
    times = []
    for version in versions:
        start = time.perf_counter()
        status, _, _ = snapshot(conn, session, "person", query=f"?version={version}")
        times.append((time.perf_counter() - start) * 1000)
        assert status == 200, status
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(json.dumps({"measurement": "past", "inputsBack": back, "reads": len(times),
                      "p50ms": round(pick(0.5), 2), "p99ms": round(pick(0.99), 2), "maxms": round(times[-1], 2)}))


def curl(arguments):
    """Runs curl with `arguments`; its status code and total time (curl's own clock: the request, not curl's start)."""
    result = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", *arguments],
                            capture_output=True, text=True, timeout=300, check=True)
    status, seconds = result.stdout.split()
    return int(status), float(seconds)


def journal(base, inputs, repeats):
    """Export and import timed by curl (which reads and sends without parsing: the server is what is measured), each
    `repeats` times, with the server's CPU time over each (/proc/PID/stat, PID from $SERVER_PID)."""
    conn = connection(base)
    session = create(conn, ["person"])
    fill(conn, session, inputs)
    sid, token = session
    status, _, exported = request(conn, "GET", f"/v1/sessions/{sid}/journal", token)
    assert status == 200, status
    records = exported.count(b"\n") - 2
    pid = int(os.environ["SERVER_PID"])
    with tempfile.NamedTemporaryFile(suffix=".ndjson") as file:
        file.write(exported)
        file.flush()
        runs = {"export": [], "import": []}
        for _ in range(repeats):
            cpu = cpu_seconds(pid)
            status, seconds = curl(["-H", f"Authorization: Bearer {token}", f"{base}/v1/sessions/{sid}/journal"])
            assert status == 200, status
            runs["export"].append((seconds, cpu_seconds(pid) - cpu))
            cpu = cpu_seconds(pid)
            status, seconds = curl(["--data-binary", f"@{file.name}", "-H", f"Content-Type: application/x-ndjson",
                                    f"{base}/v1/sessions"])
            assert status == 201, status
            runs["import"].append((seconds, cpu_seconds(pid) - cpu))
    result = {"measurement": "journal", "inputs": records, "bytes": len(exported), "repeats": repeats}
    for kind, timings in runs.items():
        timings.sort()
        seconds, cpu = timings[len(timings) // 2]
        result[kind] = {"seconds": [round(s, 3) for s, _ in timings], "cpuSeconds": [round(c, 3) for _, c in timings],
                        "medianSeconds": round(seconds, 3), "medianPerSecond": round(records / seconds),
                        "bestPerSecond": round(records / timings[0][0])}
    print(json.dumps(result))


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class StreamReader:
    """One event stream's bytes as they come: the head skipped, the chunked framing undone, gzip inflated when the
    stream is gzipped; counts whole frames (blocks ended by a blank line) and patch frames."""

    def __init__(self):
        self.raw = bytearray()
        self.head = None
        self.inflater = None
        self.text = bytearray()
        self.chunk_left = 0

    def feed(self, data, frames):
        self.raw += data
        if self.head is None:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            self.head = bytes(self.raw[:end]).decode("latin-1").lower()
            del self.raw[:end + 4]
            if "content-encoding: gzip" in self.head:
                self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        while True:
            if self.chunk_left == 0:
                line_end = self.raw.find(b"\r\n")
                if line_end < 0:
                    return
                size = int(bytes(self.raw[:line_end]).split(b";")[0] or b"0", 16)
                if size == 0:
                    return
                if len(self.raw) < line_end + 2 + size + 2:
                    return
                chunk = bytes(self.raw[line_end + 2:line_end + 2 + size])
                del self.raw[:line_end + 2 + size + 2]
                self.text += self.inflater.decompress(chunk) if self.inflater else chunk
                *complete, rest = bytes(self.text).split(b"\n\n")
                self.text[:] = rest
                for frame in complete:
                    if b"event: chat.patch" in frame:
                        frames["count"] += 1
                        frames["patch"] += 1
                    elif b"event: chat" in frame:
                        frames["count"] += 1


def streams(base, count, updates, mode, coding, messages=200):
    conn = connection(base)
    host, port = base.replace("http://", "").split(":")
    sessions = []
    for _ in range(count):
        session = create(conn, ["chat"])
        sessions.append(session)
    for session in sessions:
        wait_for_john(conn, session)
        post(conn, session, "chat", {"type": "openChat", "contact": "John"})
        for number in range(messages):
            post(conn, session, "chat", {"type": "send", "text": f"message {number}, as long as a person writes it"})
    time.sleep(1)
    selector = selectors.DefaultSelector()
    frames = {"count": 0, "patch": 0, "bytes": 0}
    sockets = []
    query = "?patches=1" if mode == "patch" else ""
    # Mode "none": the same updates with no stream, the baseline a stream's delivery cost is measured against.
    for sid, token in (sessions if mode != "none" else []):
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /v1/sessions/{sid}/stream{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                     f"Accept-Encoding: {coding}\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, StreamReader())
        sockets.append(sock)

    def drain(until):
        while time.time() < until:
            if not sockets:
                time.sleep(max(0.0, min(0.05, until - time.time())))
                continue
            for key, _ in selector.select(timeout=0.05):
                try:
                    data = key.fileobj.recv(1 << 20)
                except BlockingIOError:
                    continue
                frames["bytes"] += len(data)
                key.data.feed(data, frames)

    def versions():
        return sum(int(snapshot(conn, session, "chat")[1]["ETag"].strip('W/"')) for session in sessions)

    drain(time.time() + 2)
    frames.update({"count": 0, "patch": 0, "bytes": 0})
    versions_before = versions()
    pid = int(os.environ["SERVER_PID"])
    cpu_before = cpu_seconds(pid)
    start = time.time()
    for number in range(updates):
        for session in sessions:
            post(conn, session, "chat", {"type": "send", "text": f"update {number}"})
        # Long enough (on a server whose simulation runs 1,000 times faster) for every answer to a message to come
        # before the next: each message then makes the same versions whatever the stream's mode.
        drain(time.time() + 0.15)
    drain(time.time() + 3)
    cpu = cpu_seconds(pid) - cpu_before
    made = versions() - versions_before
    for sock in sockets:
        sock.close()
    print(json.dumps({"measurement": "streams", "mode": mode, "coding": coding, "streams": count, "messages": messages,
                      "updatesSent": count * updates, "framesDelivered": frames["count"], "patchFrames": frames["patch"],
                      "bytesDelivered": frames["bytes"], "serverCpuSeconds": round(cpu, 3),
                      "cpuMicrosecondsPerFrame": round(1e6 * cpu / max(1, frames["count"]), 1),
                      "updates": made, "cpuMicrosecondsPerUpdate": round(1e6 * cpu / max(1, made), 1),
                      "seconds": round(time.time() - start, 1)}))


def main():
    what, base = sys.argv[1], sys.argv[2]
    if what == "bytes":
        bytes_table(base)
    elif what == "past":
        past(base, int(sys.argv[3]), int(sys.argv[4]))
    elif what == "journal":
        journal(base, int(sys.argv[3]), int(sys.argv[4]))
    elif what == "streams":
        streams(base, int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6], int(sys.argv[7]) if len(sys.argv) > 7 else 200)
    else:
        sys.exit(f"unknown measurement {what}")


if __name__ == "__main__":
    main()
