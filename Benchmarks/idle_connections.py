#!/usr/bin/env python3
"""Idle keep-alive connections: memory and CPU a server spends on N open, used, idle connections.

Measurement harness (Benchmarks/run.sh), not product code; python3 standard library only.

    idle_connections.py --port PORT --pid PID [--connections 10000] [--seconds 10] [--label NAME]

1. Samples the server's VmRSS (/proc/PID/status) before connecting.
2. Opens N TCP connections to 127.0.0.1:PORT (the only target) and on each sends
   `GET /bench/snapshot HTTP/1.1` + `Host: x` and reads the whole response (Content-Length framing),
   so every connection is a real, used keep-alive connection. Fails if any response is not 200.
3. Samples VmRSS once all are open, then holds them idle for T seconds, reading the server's CPU time
   (utime + stime from /proc/PID/stat, all threads, clock ticks -> seconds) at the start and the end
   of that window.
4. Samples VmRSS again, counts how many of the N connections the server still holds open (a closed one
   polls readable and reads EOF), and sends one more request on a random sample of 100 of them.

Prints one JSON line (also to --json-out if given):
  rss_before_mib, rss_after_mib (all open), rss_end_mib (after the idle window),
  rss_growth_mib = max(rss_after, rss_end) - rss_before, idle_cpu_percent (of one core, over the window),
  connections_open_at_end (of N), sample_requests_ok (of the sample), and the parameters.
Exit status 0 when the measurement completed (whatever the numbers), 1 when it could not be made.

RLIMIT_NOFILE is raised for this process (soft to hard; the hard limit too when permitted).
Every socket operation has a timeout, so the run is bounded by about N x 5 s in the worst case and
normally takes a few seconds plus T.
"""

import argparse
import json
import os
import random
import resource
import select
import socket
import sys
import time

HOST = "127.0.0.1"  # the only target
REQUEST = b"GET /bench/snapshot HTTP/1.1\r\nHost: x\r\n\r\n"
SOCKET_TIMEOUT = 5.0


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/{pid}/status")


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split()  # fields from 3 (state) on; comm may hold spaces
    return int(fields[11]) + int(fields[12])  # utime (14) + stime (15)


def raise_nofile(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, needed))
            return needed
        except (ValueError, OSError):
            pass
    target = hard if hard == resource.RLIM_INFINITY else max(soft, hard)
    if target == resource.RLIM_INFINITY:
        target = max(needed, soft)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def read_response(sock):
    """Reads one response; returns its status code. Raises on EOF or timeout."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("EOF before the end of the response head")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        elif name.strip().lower() == b"transfer-encoding":
            raise ValueError("chunked responses are not expected here")
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("EOF in the response body")
        rest += chunk
    if len(rest) != length:
        raise ValueError("more bytes than Content-Length (unexpected pipelining)")
    return status


def still_open(socks):
    """How many sockets are still open: a socket the peer closed polls readable and reads EOF (or errors)."""
    poller = select.poll()
    by_fd = {}
    for s in socks:
        poller.register(s.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
        by_fd[s.fileno()] = s
    closed = 0
    for fd, _ in poller.poll(0):
        s = by_fd[fd]
        try:
            s.setblocking(False)
            if s.recv(1, socket.MSG_PEEK) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        finally:
            s.settimeout(SOCKET_TIMEOUT)
    return len(socks) - closed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server process to sample")
    parser.add_argument("--connections", "-n", type=int, default=10000)
    parser.add_argument("--seconds", "-t", type=float, default=10.0, help="idle window")
    parser.add_argument("--sample", type=int, default=100, help="connections re-used at the end")
    parser.add_argument("--label", default="", help="server name, copied into the JSON")
    parser.add_argument("--json-out", help="also write the JSON line to this file")
    args = parser.parse_args()

    mib = lambda kib: round(kib / 1024, 1)
    limit = raise_nofile(args.connections + 64)
    if limit < args.connections + 16:
        print(f"idle_connections.py: RLIMIT_NOFILE is {limit}, too low for {args.connections} connections",
              file=sys.stderr)
        return 1
    ticks_per_second = os.sysconf("SC_CLK_TCK")

    rss_before = status_kib(args.pid, "VmRSS")
    socks = []
    started = time.monotonic()
    failures = 0
    first_error = None
    try:
        for i in range(args.connections):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.settimeout(SOCKET_TIMEOUT)
            try:
                s.connect((HOST, args.port))
                s.sendall(REQUEST)
                status = read_response(s)
                if status != 200:
                    raise ValueError(f"status {status}")
            except (OSError, ValueError, ConnectionError) as error:
                failures += 1
                first_error = first_error or f"connection {i}: {error!r}"
                s.close()
                if failures >= 50:
                    break
                continue
            socks.append(s)
        connect_seconds = time.monotonic() - started
        opened = len(socks)

        time.sleep(0.5)  # let the server finish whatever follows the last response
        rss_after = status_kib(args.pid, "VmRSS")
        cpu_start = cpu_ticks(args.pid)
        window_start = time.monotonic()
        time.sleep(args.seconds)
        cpu_end = cpu_ticks(args.pid)
        window = time.monotonic() - window_start
        rss_end = status_kib(args.pid, "VmRSS")
        hwm_end = status_kib(args.pid, "VmHWM")

        open_at_end = still_open(socks)
        sample_ok = 0
        sample = random.Random(1).sample(socks, min(args.sample, len(socks)))
        for s in sample:
            try:
                s.sendall(REQUEST)
                if read_response(s) == 200:
                    sample_ok += 1
            except (OSError, ValueError, ConnectionError) as error:
                first_error = first_error or f"sample request: {error!r}"
    finally:
        for s in socks:
            s.close()

    idle_cpu_seconds = (cpu_end - cpu_start) / ticks_per_second
    result = {
        "label": args.label,
        "port": args.port,
        "pid": args.pid,
        "connections_requested": args.connections,
        "connections_opened": opened,
        "connect_failures": failures,
        "connect_seconds": round(connect_seconds, 2),
        "idle_seconds": round(window, 2),
        "rss_before_mib": mib(rss_before),
        "rss_after_mib": mib(rss_after),
        "rss_end_mib": mib(rss_end),
        "rss_growth_mib": mib(max(rss_after, rss_end) - rss_before),
        "vmhwm_end_mib": mib(hwm_end),
        "idle_cpu_seconds": round(idle_cpu_seconds, 3),
        "idle_cpu_percent": round(100.0 * idle_cpu_seconds / window, 2),
        "connections_open_at_end": open_at_end,
        "sample_size": len(sample),
        "sample_requests_ok": sample_ok,
        "first_error": first_error,
    }
    line = json.dumps(result)
    print(line)
    if args.json_out:
        with open(args.json_out, "w") as f:
            f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
