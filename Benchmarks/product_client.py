#!/usr/bin/env python3
"""Clients for Benchmarks/product.sh: measurements of the real `viewhost serve` (harness, not product code).

Python 3 standard library only (asyncio protocols, no third-party packages). Every target is 127.0.0.1.
Each subcommand prints one JSON object (also written to --json-out) and exits 0 when the measurement was made,
whatever the numbers; 1 when it could not be made.

  startup  --bin B --runs N [--cwd D]
      N times: start `B serve --port 0`, time (monotonic clock) from just before the spawn to the readiness line
      `viewhost listening on http://HOST:PORT` on stdout, then to the first `200` of GET /healthz; SIGTERM, wait.
  create   --port P --pid PID --count N --conns C --body JSON [--sessions-out FILE]
      Creates N sessions with POST /v1/sessions over C keep-alive connections (one request in flight on each),
      reports the rate, status counts, the server's VmRSS before / after / after settling, and the CPU seconds
      the server and this client used during the creation (who was the bottleneck).
  live     --port P --pid PID --sessions N --per S [--longpoll L]
      Server-sent events and long poll, on sessions with the login feature:
      1. creates N sessions, 2. opens S streams per session (GET /v1/sessions/{id}/stream), waits until every
      stream got its initial snapshot, 3. holds them idle (VmRSS and CPU), 4. triggers one change per session
      (POST {"type":"setUsername","value":...}) in two rounds, "paced" (spread evenly over --pace-seconds) and
      "burst" (all written at once), and measures per stream the time from writing that POST to the arrival of
      the stream's next frame, 5. closes the streams, 6. long poll: L sessions, GET /login?wait=30 with
      If-None-Match of the current ETag, checks none answers early, then one change each; latency from
      writing the POST to the long poll's response.
  cpu snap --out F | cpu diff --before F --self PID
      CPU used by other processes during a run: machine busy time (/proc/stat) minus what process PID and its
      waited-for children used, and the other processes alive at the end that used the most since the snapshot.
"""

import argparse
import asyncio
import collections
import json
import os
import re
import resource
import select
import signal
import socket
import subprocess
import sys
import time

HOST = "127.0.0.1"  # the only target
READY = re.compile(rb"viewhost listening on https?://([^\s:]+|\[[^\]]+\]):(\d+)")
CLK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------------------------- /proc helpers
def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def threads_of(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return None


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def self_cpu():
    t = os.times()
    return t.user + t.system


def raise_nofile(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(needed, hard), max(needed, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def pct(values, p):
    """Nearest-rank percentile of a list (p in 0..100)."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def summary_ms(values):
    if not values:
        return {"n": 0}
    return {"n": len(values), "min": round(min(values) * 1000, 3), "p50": round(pct(values, 50) * 1000, 3),
            "p90": round(pct(values, 90) * 1000, 3), "p99": round(pct(values, 99) * 1000, 3),
            "max": round(max(values) * 1000, 3)}


def emit(result, path):
    text = json.dumps(result, sort_keys=True)
    print(text)
    if path:
        with open(path, "w") as f:
            f.write(text + "\n")


# ---------------------------------------------------------------------------------------------- startup
def cmd_startup(a):
    runs = []
    env = dict(os.environ)
    for i in range(a.runs):
        t0 = time.monotonic()
        p = subprocess.Popen([a.bin, "serve", "--port", "0"], cwd=a.cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        buf = b""
        ready = None
        port = None
        deadline = t0 + a.timeout
        while ready is None and time.monotonic() < deadline:
            r, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not r:
                break
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                break
            buf += chunk
            m = READY.search(buf)
            if m and b"\n" in buf[m.end():] + b"\n":
                ready = time.monotonic()
                port = int(m.group(2))
        healthz = None
        if ready is not None:
            while time.monotonic() < deadline:
                try:
                    with socket.create_connection((HOST, port), timeout=1) as s:
                        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                        data = s.recv(64)
                    if data.startswith(b"HTTP/1.1 200"):
                        healthz = time.monotonic()
                        break
                except OSError:
                    pass
                time.sleep(0.001)
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        err = p.stderr.read().decode(errors="replace")[-300:]
        runs.append({"run": i + 1, "ready_ms": None if ready is None else round((ready - t0) * 1000, 2),
                     "healthz_ms": None if healthz is None else round((healthz - t0) * 1000, 2),
                     "exit": p.returncode, "stdout": buf.decode(errors="replace").strip()[:120],
                     "stderr_tail": err.strip()})
    ok = [r["ready_ms"] for r in runs if r["ready_ms"] is not None]
    hz = [r["healthz_ms"] for r in runs if r["healthz_ms"] is not None]
    res = {"runs": runs, "n": len(runs), "ready_n": len(ok),
           "ready_ms": {"min": min(ok), "median": pct(ok, 50), "max": max(ok)} if ok else None,
           "healthz_ms": {"min": min(hz), "median": pct(hz, 50), "max": max(hz)} if hz else None,
           "exit_codes": sorted({r["exit"] for r in runs})}
    emit(res, a.json_out)
    return 0 if ok else 1


# ---------------------------------------------------------------------------------------------- HTTP client
class Conn(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection; requests may be pipelined, answers come back in order.
    Responses are framed by Content-Length (none = empty body; this server never chunks these answers)."""

    def __init__(self):
        self.buf = bytearray()
        self.waiters = collections.deque()
        self.transport = None
        self.lost = False

    def connection_made(self, transport):
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data):
        now = time.perf_counter()
        self.buf += data
        while self.waiters:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end])
            length = 0
            low = head.lower()
            i = low.find(b"\r\ncontent-length:")
            if i >= 0:
                j = low.find(b"\r\n", i + 2)
                length = int(low[i + 17:j if j >= 0 else len(low)].strip())
            total = end + 4 + length
            if len(self.buf) < total:
                return
            body = bytes(self.buf[end + 4:total])
            del self.buf[:total]
            status = int(head[9:12])
            fut = self.waiters.popleft()
            if not fut.done():
                fut.set_result((status, head, body, now))

    def connection_lost(self, exc):
        self.lost = True
        while self.waiters:
            fut = self.waiters.popleft()
            if not fut.done():
                fut.set_exception(ConnectionError("connection closed"))

    def send(self, data):
        """Writes a request; returns (time written, future of (status, head, body, arrival time))."""
        fut = asyncio.get_running_loop().create_future()
        self.waiters.append(fut)
        t = time.perf_counter()
        self.transport.write(data)
        return t, fut


async def open_conn(port):
    loop = asyncio.get_running_loop()
    _, proto = await loop.create_connection(Conn, HOST, port)
    return proto


def req(method, path, headers=(), body=b""):
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k}: {v}" for k, v in headers]
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def header_value(head, name):
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == name.lower().encode():
            return v.strip().decode()
    return None


async def create_sessions(port, count, conns, body, keep):
    """POST /v1/sessions count times over conns connections. keep: parse and return (id, token) pairs."""
    request = req("POST", "/v1/sessions", [("Content-Type", "application/json")], body.encode())
    pool = await asyncio.gather(*(open_conn(port) for _ in range(conns)))
    statuses = collections.Counter()
    sessions = []
    remaining = [count]
    latencies = []
    samples = 0

    async def worker(c):
        nonlocal samples
        while remaining[0] > 0:
            remaining[0] -= 1
            t, fut = c.send(request)
            status, head, rbody, arrived = await fut
            statuses[status] += 1
            samples += 1
            if samples % 50 == 0:
                latencies.append(arrived - t)
            if keep and status == 201:
                obj = json.loads(rbody)
                sessions.append((obj["id"], obj["token"]))

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in pool))
    elapsed = time.perf_counter() - t0
    for c in pool:
        c.transport.close()
    return elapsed, statuses, sessions, latencies


def cmd_create(a):
    raise_nofile(a.conns + 100)
    pid = a.pid
    rss0 = rss_kib(pid)
    cpu_s0, cpu_c0 = cpu_seconds(pid), self_cpu()
    elapsed, statuses, sessions, lat = asyncio.run(
        create_sessions(a.port, a.count, a.conns, a.body, keep=bool(a.sessions_out)))
    cpu_s1, cpu_c1 = cpu_seconds(pid), self_cpu()
    rss1 = rss_kib(pid)
    time.sleep(a.settle)
    rss2 = rss_kib(pid)
    if a.sessions_out:
        with open(a.sessions_out, "w") as f:
            for sid, tok in sessions:
                f.write(f"{sid} {tok}\n")
    created = statuses.get(201, 0)
    res = {"count": a.count, "conns": a.conns, "body": a.body, "created": created,
           "statuses": {str(k): v for k, v in sorted(statuses.items())},
           "seconds": round(elapsed, 3), "rate_per_s": round(created / elapsed, 1) if elapsed else None,
           "latency_sample_ms": summary_ms(lat),
           "rss_before_kib": rss0, "rss_after_kib": rss1, "rss_settled_kib": rss2,
           "rss_growth_kib": max(rss1, rss2) - rss0,
           "rss_per_session_bytes": round((max(rss1, rss2) - rss0) * 1024 / created, 1) if created else None,
           "server_cpu_s": round(cpu_s1 - cpu_s0, 2), "client_cpu_s": round(cpu_c1 - cpu_c0, 2),
           "server_threads": threads_of(pid)}
    emit(res, a.json_out)
    return 0 if created else 1


# ---------------------------------------------------------------------------------------------- SSE client
class Stream(asyncio.Protocol):
    """One GET /stream: parses the response head, de-chunks (or reads close-delimited), splits SSE events and
    records the arrival time of every event block that carries data."""

    def __init__(self, request, owner):
        self.request = request
        self.owner = owner
        self.transport = None
        self.raw = bytearray()
        self.text = bytearray()
        self.head_done = False
        self.chunked = False
        self.need = None  # bytes of the current chunk still to read (+2 for its CRLF), None = at a size line
        self.status = None
        self.events = []  # (arrival perf_counter, id, event name)
        self.closed = False
        self.ready = asyncio.get_running_loop().create_future()  # set at the first data event (or failure)
        self.waiter = None  # (after_count, future) to wake on the next event

    def connection_made(self, transport):
        self.transport = transport
        transport.write(self.request)

    def connection_lost(self, exc):
        self.closed = True
        if not self.ready.done():
            self.ready.set_result(False)
        if self.waiter and not self.waiter.done():
            self.waiter.set_result(None)

    def data_received(self, data):
        now = time.perf_counter()
        if not self.head_done:
            self.raw += data
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.raw[:end])
            self.status = int(head[9:12])
            self.chunked = b"transfer-encoding: chunked" in head.lower()
            data = bytes(self.raw[end + 4:])
            self.raw = bytearray()
            self.head_done = True
            if self.status != 200:
                self.ready.set_result(False)
                self.transport.close()
                return
        if self.chunked:
            self.raw += data
            while True:
                if self.need is None:
                    nl = self.raw.find(b"\r\n")
                    if nl < 0:
                        break
                    size = int(bytes(self.raw[:nl]).split(b";")[0], 16)
                    del self.raw[:nl + 2]
                    if size == 0:
                        self.transport.close()
                        break
                    self.need = size + 2
                else:
                    if len(self.raw) < self.need:
                        break
                    self.text += self.raw[:self.need - 2]
                    del self.raw[:self.need]
                    self.need = None
        else:
            self.text += data
        while True:
            end = self.text.find(b"\n\n")
            if end < 0:
                break
            block = bytes(self.text[:end])
            del self.text[:end + 2]
            ev_id = None
            name = None
            has_data = False
            for line in block.split(b"\n"):
                if line.startswith(b"data:"):
                    has_data = True
                elif line.startswith(b"id:"):
                    ev_id = int(line[3:].strip())
                elif line.startswith(b"event:"):
                    name = line[6:].strip().decode()
            if has_data:
                self.events.append((now, ev_id, name))
                if not self.ready.done():
                    self.ready.set_result(True)
        if self.waiter and not self.waiter.done() and len(self.events) > self.waiter_after:
            self.waiter.set_result(None)

    def next_event_after(self, count):
        self.waiter_after = count
        self.waiter = asyncio.get_running_loop().create_future()
        if len(self.events) > count or self.closed:
            self.waiter.set_result(None)
        return self.waiter


async def trigger_round(port, sessions, streams_by_session, mode, pace_seconds, label, timeout):
    """One change per session; latency per stream = next frame's arrival - the POST's write time."""
    loop = asyncio.get_running_loop()
    pool = await asyncio.gather(*(open_conn(port) for _ in range(min(64, len(sessions)))))
    base = {sid: [len(s.events) for s in streams_by_session[sid]] for sid, _ in sessions}
    waits = []
    for sid, _ in sessions:
        for s, n in zip(streams_by_session[sid], base[sid]):
            waits.append((sid, s, n, s.next_event_after(n)))
    sent = {}
    post_futs = []
    t_start = time.perf_counter()
    for i, (sid, tok) in enumerate(sessions):
        if mode == "paced":
            due = t_start + pace_seconds * i / len(sessions)
            delay = due - time.perf_counter()
            if delay > 0.002:
                await asyncio.sleep(delay)
        body = json.dumps({"type": "setUsername", "value": f"{label}-{i}"}).encode()
        r = req("POST", f"/v1/sessions/{sid}/login/events",
                [("Authorization", f"Bearer {tok}"), ("Content-Type", "application/json")], body)
        t, fut = pool[i % len(pool)].send(r)
        sent[sid] = t
        post_futs.append(fut)
    send_span = time.perf_counter() - t_start
    done, pending = await asyncio.wait([w[3] for w in waits], timeout=timeout)
    statuses = collections.Counter()
    post_lat = []
    for sid_fut, (sid, _) in zip(post_futs, sessions):
        try:
            status, _, _, arrived = await asyncio.wait_for(sid_fut, timeout=1)
            statuses[status] += 1
            post_lat.append(arrived - sent[sid])
        except Exception:
            statuses["error"] += 1
    lat = []
    extra = 0
    for sid, s, n, fut in waits:
        if len(s.events) > n:
            lat.append(s.events[n][0] - sent[sid])
            extra += len(s.events) - n - 1
    for c in pool:
        c.transport.close()
    return {"mode": mode, "changes": len(sessions), "streams": len(waits), "delivered": len(lat),
            "missing": len(waits) - len(lat), "extra_frames": extra, "post_statuses": dict(statuses),
            "send_span_s": round(send_span, 3), "pace_seconds": pace_seconds if mode == "paced" else 0,
            "latency_ms": summary_ms(lat), "post_response_ms": summary_ms(post_lat)}


async def live(a):
    pid = a.pid
    result = {"sessions": a.sessions, "per_session": a.per, "streams_wanted": a.sessions * a.per}
    # 1. sessions
    elapsed, statuses, sessions, _ = await create_sessions(a.port, a.sessions + a.longpoll, 64,
                                                           '{"features":["login"]}', keep=True)
    result["create_statuses"] = {str(k): v for k, v in statuses.items()}
    if len(sessions) < a.sessions + a.longpoll:
        result["error"] = "could not create the sessions"
        return result, 1
    lp_sessions = sessions[a.sessions:]
    sessions = sessions[:a.sessions]
    await asyncio.sleep(1)
    rss0 = rss_kib(pid)
    # 2. streams
    loop = asyncio.get_running_loop()
    streams_by_session = {sid: [] for sid, _ in sessions}
    all_streams = []
    sem = asyncio.Semaphore(a.connect_concurrency)
    connect_errors = collections.Counter()

    async def open_stream(sid, tok):
        r = req("GET", f"/v1/sessions/{sid}/stream", [("Authorization", f"Bearer {tok}"),
                                                       ("Accept", "text/event-stream")])
        async with sem:
            try:
                _, proto = await loop.create_connection(lambda: Stream(r, None), HOST, a.port)
            except OSError as e:
                connect_errors[type(e).__name__] += 1
                return
            streams_by_session[sid].append(proto)
            all_streams.append(proto)
            try:
                await asyncio.wait_for(asyncio.shield(proto.ready), timeout=30)
            except asyncio.TimeoutError:
                pass

    t0 = time.perf_counter()
    await asyncio.gather(*(open_stream(sid, tok) for sid, tok in sessions for _ in range(a.per)))
    result["connect_seconds"] = round(time.perf_counter() - t0, 3)
    ok = [s for s in all_streams if s.ready.done() and s.ready.result()]
    result["streams_open"] = len(ok)
    result["stream_statuses"] = dict(collections.Counter(str(s.status) for s in all_streams))
    result["connect_errors"] = dict(connect_errors)
    result["initial_frames"] = dict(collections.Counter(len(s.events) for s in all_streams))
    # keep only the good ones in the latency rounds
    for sid in streams_by_session:
        streams_by_session[sid] = [s for s in streams_by_session[sid] if s.ready.done() and s.ready.result()]
    # 3. idle
    await asyncio.sleep(1)
    rss1 = rss_kib(pid)
    c0 = cpu_seconds(pid)
    await asyncio.sleep(a.idle_seconds)
    c1 = cpu_seconds(pid)
    rss2 = rss_kib(pid)
    result.update({"rss_before_streams_kib": rss0, "rss_streams_open_kib": rss1, "rss_streams_idle_kib": rss2,
                   "rss_per_stream_bytes": round((max(rss1, rss2) - rss0) * 1024 / len(ok), 1) if ok else None,
                   "idle_seconds": a.idle_seconds,
                   "idle_cpu_percent": round(100 * (c1 - c0) / a.idle_seconds, 2),
                   "server_threads": threads_of(pid),
                   "still_open_after_idle": sum(1 for s in ok if not s.closed)})
    # 4. changes
    rounds = []
    cc0 = self_cpu()
    for mode in a.modes.split(","):
        cs0 = cpu_seconds(pid)
        cl0 = self_cpu()
        r = await trigger_round(a.port, sessions, streams_by_session, mode, a.pace_seconds, f"{mode}", a.timeout)
        r["server_cpu_s"] = round(cpu_seconds(pid) - cs0, 2)
        r["client_cpu_s"] = round(self_cpu() - cl0, 2)
        rounds.append(r)
        await asyncio.sleep(1)
    result["rounds"] = rounds
    # 5. close the streams
    for s in all_streams:
        if s.transport is not None:
            s.transport.close()
    await asyncio.sleep(2)
    result["rss_after_close_kib"] = rss_kib(pid)
    # 6. long poll
    if lp_sessions:
        result["longpoll"] = await longpoll(a.port, lp_sessions, a.wait)
    return result, 0


async def longpoll(port, sessions, wait):
    loop = asyncio.get_running_loop()
    etags = {}
    c = await open_conn(port)
    for sid, tok in sessions:
        _, fut = c.send(req("GET", f"/v1/sessions/{sid}/login", [("Authorization", f"Bearer {tok}")]))
        status, head, body, _ = await fut
        etags[sid] = header_value(head, "etag")
    c.transport.close()
    polls = []
    for sid, tok in sessions:
        pc = await open_conn(port)
        _, fut = pc.send(req("GET", f"/v1/sessions/{sid}/login?wait={wait}",
                             [("Authorization", f"Bearer {tok}"), ("If-None-Match", etags[sid])]))
        polls.append((sid, pc, fut))
    await asyncio.sleep(1.0)
    early = sum(1 for _, _, f in polls if f.done())
    pool = await asyncio.gather(*(open_conn(port) for _ in range(32)))
    sent = {}
    post_futs = []
    for i, (sid, tok) in enumerate(sessions):
        body = json.dumps({"type": "setUsername", "value": f"lp-{i}"}).encode()
        t, fut = pool[i % len(pool)].send(req("POST", f"/v1/sessions/{sid}/login/events",
                                              [("Authorization", f"Bearer {tok}"),
                                               ("Content-Type", "application/json")], body))
        sent[sid] = t
        post_futs.append(fut)
    lat = []
    statuses = collections.Counter()
    changed_etag = 0
    for sid, pc, fut in polls:
        try:
            status, head, body, arrived = await asyncio.wait_for(fut, timeout=wait + 5)
        except Exception:
            statuses["timeout/error"] += 1
            continue
        statuses[status] += 1
        if status == 200:
            lat.append(arrived - sent[sid])
            if header_value(head, "etag") != etags[sid]:
                changed_etag += 1
    post_statuses = collections.Counter()
    for f in post_futs:
        try:
            post_statuses[(await asyncio.wait_for(f, timeout=5))[0]] += 1
        except Exception:
            post_statuses["error"] += 1
    for _, pc, _ in polls:
        pc.transport.close()
    for c in pool:
        c.transport.close()
    return {"clients": len(sessions), "wait": wait, "answered_early": early,
            "statuses": {str(k): v for k, v in statuses.items()}, "new_etag": changed_etag,
            "post_statuses": {str(k): v for k, v in post_statuses.items()}, "latency_ms": summary_ms(lat)}


def cmd_live(a):
    raise_nofile(a.sessions * a.per + a.longpoll * 2 + 1000)
    result, code = asyncio.run(live(a))
    emit(result, a.json_out)
    return code


# ---------------------------------------------------------------------------------------------- CPU accounting
def machine_ticks():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    busy = v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)
    return busy, busy + v[3] + v[4]


def process_table():
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        table[name] = {"comm": comm, "ppid": int(fields[1]), "ticks": int(fields[11]) + int(fields[12]),
                       "children_ticks": int(fields[13]) + int(fields[14]), "start": int(fields[19])}
    return table


def cmd_cpu(a):
    """snap: machine and process CPU counters to --out. diff: what other processes used since --before, that is
    machine busy time minus what the script's shell (--self, with its waited-for children) used."""
    now = {"time": time.monotonic(), "machine": machine_ticks(), "procs": process_table()}
    if a.action == "snap":
        with open(a.out, "w") as f:
            json.dump(now, f)
        return 0
    with open(a.before) as f:
        before = json.load(f)
    wall = now["time"] - before["time"]
    busy = (now["machine"][0] - before["machine"][0]) / CLK
    total = (now["machine"][1] - before["machine"][1]) / CLK
    me_now, me_before = now["procs"].get(str(a.self)), before["procs"].get(str(a.self))
    own = None
    if me_now and me_before:
        own = (me_now["ticks"] + me_now["children_ticks"] - me_before["ticks"] - me_before["children_ticks"]) / CLK
    tree = {str(a.self)}
    changed = True
    while changed:
        changed = False
        for pid, p in now["procs"].items():
            if pid not in tree and str(p["ppid"]) in tree:
                tree.add(pid)
                changed = True
    others = []
    for pid, p in now["procs"].items():
        if pid in tree:
            continue
        old = before["procs"].get(pid)
        delta = p["ticks"] - (old["ticks"] if old and old["start"] == p["start"] else 0)
        if delta / CLK >= 0.5:
            others.append({"pid": int(pid), "comm": p["comm"], "cpu_s": round(delta / CLK, 2)})
    others.sort(key=lambda x: -x["cpu_s"])
    res = {"wall_s": round(wall, 1), "machine_busy_cpu_s": round(busy, 1), "machine_capacity_cpu_s": round(total, 1),
           "own_cpu_s": None if own is None else round(own, 1),
           "others_cpu_s": None if own is None else round(max(0.0, busy - own), 1),
           "others_percent_of_machine": None if own is None or not total else round(100 * max(0.0, busy - own) / total, 1),
           "top_other_processes_alive_at_end": others[:6]}
    emit(res, a.json_out)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("startup")
    s.add_argument("--bin", required=True)
    s.add_argument("--runs", type=int, default=20)
    s.add_argument("--cwd", default=None)
    s.add_argument("--timeout", type=float, default=10)
    s.add_argument("--json-out")
    c = sub.add_parser("create")
    c.add_argument("--port", type=int, required=True)
    c.add_argument("--pid", type=int, required=True)
    c.add_argument("--count", type=int, default=100000)
    c.add_argument("--conns", type=int, default=128)
    c.add_argument("--body", default='{"features":["chat"]}')
    c.add_argument("--settle", type=float, default=2)
    c.add_argument("--sessions-out")
    c.add_argument("--json-out")
    l = sub.add_parser("live")
    l.add_argument("--port", type=int, required=True)
    l.add_argument("--pid", type=int, required=True)
    l.add_argument("--sessions", type=int, default=2000)
    l.add_argument("--per", type=int, default=5)
    l.add_argument("--longpoll", type=int, default=200)
    l.add_argument("--wait", type=int, default=30)
    l.add_argument("--idle-seconds", type=float, default=5)
    l.add_argument("--modes", default="paced,burst")
    l.add_argument("--pace-seconds", type=float, default=2)
    l.add_argument("--timeout", type=float, default=15)
    l.add_argument("--connect-concurrency", type=int, default=256)
    l.add_argument("--json-out")
    u = sub.add_parser("cpu")
    u.add_argument("action", choices=["snap", "diff"])
    u.add_argument("--out")
    u.add_argument("--before")
    u.add_argument("--self", type=int)
    u.add_argument("--json-out")
    a = ap.parse_args()
    return {"startup": cmd_startup, "create": cmd_create, "live": cmd_live, "cpu": cmd_cpu}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
