#!/usr/bin/env python3
"""The rolling restart check (run by `scripts/cluster.sh deploy`, which starts PostgreSQL, three nodes and nginx, and
restarts the nodes one at a time while this runs).

CLIENTS clients each drive one login session through nginx, posting a `setUsername` event every PERIOD seconds with
the Swift client's rules: each logical send has its own Idempotency-Key, kept for every retry; a connection refused,
reset or closed before the answer, a 408, a 502/503/504 (a proxy's or the server's) and a 409/429 with Retry-After
are retried after a backoff (at least Retry-After) until a 202. STREAMS of the sessions are also followed through
nginx, each reconnecting with Last-Event-ID 50 ms after its body ends or breaks. Once the load runs this writes --ready-file; cluster.sh then restarts every node in turn and writes
--done-file; the load runs on for a moment, stops, and the streams are given time to catch up.

It prints, for the rolling restart: connections refused or reset, 5xx answers, events acknowledged and then lost,
events applied twice (a session's final version against 1 + its acknowledged events, and its username against the
last one acknowledged), streams that went backwards or never caught up with their session's final version, and the
longest wait of any client for a 202 (p99, max) and of any stream for its next connection. Exit status 0 when
nothing was refused, reset, answered 5xx, lost or doubled, every stream caught up, and the longest wait is under
--max-wait seconds.

Standard library only.
"""

import argparse
import json
import os
import random
import sys
import threading
import time

from failover_test import Client, Session, address, auth, percentile, sse_events

import http.client


class Figures:
    def __init__(self):
        self.lock = threading.Lock()
        self.refused_or_reset = 0
        self.status_5xx = {}
        self.other = []
        self.acks = 0
        self.waits = []
        self.stream_gaps = []
        self.stream_reconnects = 0
        self.backwards = []
        self.samples_5xx = []

    def count_5xx(self, status, what="", payload=b""):
        with self.lock:
            self.status_5xx[status] = self.status_5xx.get(status, 0) + 1
            if len(self.samples_5xx) < 10:
                self.samples_5xx.append("%s answered %d %s" % (what, status, payload[:300]))

    def note(self, text):
        with self.lock:
            if len(self.other) < 30:
                self.other.append(text)


def send(client, session, value, key, figures, stop_retrying):
    """One logical send, retried with the same key until a 202 (or `stop_retrying` at the end of the run)."""
    first = time.monotonic()
    failures = 0
    while True:
        status, headers, payload = client.request(
            "POST", "/v1/sessions/%s/login/events" % session.id, {"type": "setUsername", "value": value},
            dict(auth(session), **{"Idempotency-Key": key}))
        if status == 202:
            with figures.lock:
                figures.acks += 1
                figures.waits.append(time.monotonic() - first)
            version = json.loads(payload)["version"]
            if version <= session.max_version:
                figures.note("session %s: 202 with version %d after %d" % (session.id, version, session.max_version))
            session.max_version = max(session.max_version, version)
            session.acked += 1
            session.last_value = value
            return
        retry_after = None
        if status is None:
            with figures.lock:
                figures.refused_or_reset += 1
        elif status >= 500:
            figures.count_5xx(status, "session %s: event %s at %.3f" % (session.id, key, time.time()), payload)
        elif status in (408, 409, 429):
            retry_after = headers.get("retry-after")
        else:
            figures.note("session %s: event answered %s %s" % (session.id, status, payload[:200]))
            session.uncertain += 1
            return
        if stop_retrying.is_set():
            session.uncertain += 1
            figures.note("session %s: still no 202 for %s at the end" % (session.id, key))
            return
        failures += 1
        backoff = min(0.05 * 2 ** (failures - 1), 1.0) * (0.5 + random.random() / 2)
        if retry_after is not None and retry_after.isdigit():
            backoff = max(backoff, float(retry_after))
        time.sleep(backoff)


def drive(host, port, session, period, stop, stop_retrying, figures):
    client = Client(host, port)
    number = 0
    next_send = time.monotonic()
    while not stop.is_set():
        number += 1
        send(client, session, "%s-%d" % (session.id[:6], number), "%s-%d" % (session.id, number), figures,
             stop_retrying)
        next_send += period
        time.sleep(max(0.0, next_send - time.monotonic()))
    client.close()


class Stream(threading.Thread):
    """A session's event stream through nginx, resumed with Last-Event-ID whenever it ends or breaks."""

    def __init__(self, host, port, session, stop, figures):
        super().__init__(daemon=True)
        self.host, self.port, self.session, self.stop, self.figures = host, port, session, stop, figures
        self.last_id = None
        self.version = 0

    def run(self):
        broken_at = None
        while not self.stop.is_set():
            connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                headers = auth(self.session)
                if self.last_id is not None:
                    headers["Last-Event-ID"] = str(self.last_id)
                connection.request("GET", "/v1/sessions/%s/stream" % self.session.id, headers=headers)
                response = connection.getresponse()
                if response.status != 200:
                    if response.status >= 500:
                        self.figures.count_5xx(
                            response.status, "stream %s at %.3f" % (self.session.id, time.time()), response.read())
                    else:
                        self.figures.note("stream %s answered %d" % (self.session.id, response.status))
                    time.sleep(0.2)
                    continue
                if broken_at is not None:
                    with self.figures.lock:
                        self.figures.stream_gaps.append(time.monotonic() - broken_at)
                        self.figures.stream_reconnects += 1
                for event_id, event, data in sse_events(response, self.stop.is_set):
                    self.received(event_id, event, data)
            except (OSError, http.client.HTTPException, ValueError):
                with self.figures.lock:
                    self.figures.refused_or_reset += 1
            finally:
                connection.close()
            broken_at = time.monotonic()
            time.sleep(0.05)

    def received(self, event_id, event, data):
        if event == "ended":
            return
        if event_id is not None:
            if self.last_id is not None and event_id <= self.last_id:
                self.figures.backwards.append("stream %s: id %d after %d" % (self.session.id, event_id, self.last_id))
            self.last_id = event_id
        try:
            snapshot = json.loads(data)
        except ValueError:
            return
        version = snapshot.get("version") if isinstance(snapshot, dict) else None
        if isinstance(version, int):
            if version < self.version:
                self.figures.backwards.append("stream %s: version %d after %d" % (self.session.id, version, self.version))
            self.version = max(self.version, version)


def wait_for_file(path, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--streams", type=int, default=30)
    parser.add_argument("--period", type=float, default=0.1)
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--done-file", required=True)
    parser.add_argument("--restart-timeout", type=float, default=600)
    parser.add_argument("--max-wait", type=float, default=3.0)
    parser.add_argument("--label", default="")
    arguments = parser.parse_args()
    host, port = address(arguments.url)
    figures = Figures()

    setup = Client(host, port)
    sessions = []
    for _ in range(arguments.clients):
        status, _, payload = setup.request("POST", "/v1/sessions", {"features": ["login"]})
        if status != 201:
            print("deploy: making a session answered %s %s" % (status, payload[:200]))
            return 1
        created = json.loads(payload)
        sessions.append(Session(created["id"], created["token"]))
    setup.close()

    stop, stop_retrying, streams_stop = threading.Event(), threading.Event(), threading.Event()
    drivers = [threading.Thread(target=drive, args=(host, port, session, arguments.period, stop, stop_retrying, figures),
                                daemon=True) for session in sessions]
    streams = [Stream(host, port, session, streams_stop, figures) for session in sessions[:arguments.streams]]
    for thread in drivers + streams:
        thread.start()
    time.sleep(1)  # the load runs before the first node stops
    with open(arguments.ready_file, "w") as ready:
        ready.write("ready\n")
    started = time.monotonic()
    restarted = wait_for_file(arguments.done_file, arguments.restart_timeout)
    restart_seconds = time.monotonic() - started
    time.sleep(1)  # and after the last node is back
    stop.set()
    threading.Timer(30, stop_retrying.set).start()
    for thread in drivers:
        thread.join()
    stop_retrying.set()

    # The truth, read through nginx: each session's version and username.
    reader = Client(host, port)
    final = {}
    lost = doubled = 0
    for session in sessions:
        status, _, payload = reader.request("GET", "/v1/sessions/%s/login" % session.id, headers=auth(session))
        if status != 200:
            figures.note("session %s: final read answered %s" % (session.id, status))
            continue
        snapshot = json.loads(payload)
        final[session.id] = snapshot["version"]
        expected = 1 + session.acked
        if session.uncertain == 0:
            lost += max(0, expected - snapshot["version"])
            doubled += max(0, snapshot["version"] - expected)
        if session.last_value is not None and session.uncertain == 0 \
                and ('"%s"' % session.last_value) not in json.dumps(snapshot):
            figures.note("session %s: not the last username acknowledged, %r" % (session.id, session.last_value))
    reader.close()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(stream.version < final.get(stream.session.id, 0) for stream in streams):
        time.sleep(0.05)
    behind = [stream for stream in streams if stream.version < final.get(stream.session.id, 0)]
    streams_stop.set()

    waits = sorted(figures.waits)
    gaps = sorted(figures.stream_gaps)
    longest = max(waits[-1] if waits else 0, gaps[-1] if gaps else 0)
    five = sum(figures.status_5xx.values())
    passed = (restarted and figures.refused_or_reset == 0 and five == 0 and lost == 0 and doubled == 0
              and not behind and not figures.backwards and not figures.other and longest < arguments.max_wait)
    for line in figures.other + figures.samples_5xx + figures.backwards[:10]:
        print("deploy: " + line)
    for stream in behind[:10]:
        print("deploy: stream %s at version %d, session at %d" % (
            stream.session.id, stream.version, final.get(stream.session.id, 0)))
    print("deploy%s: rolling restart of 3 nodes in %.1f s%s; %d clients (an event every %d ms each), %d streams; "
          "%d events acknowledged; refused or reset %d, 5xx %d %s, lost %d, doubled %d, streams backwards %d, "
          "behind %d (of %d; %d reconnects); client wait for a 202 p99 %.3f s, max %.3f s; stream reconnect p99 %.3f s, "
          "max %.3f s: %s" % (
              arguments.label, restart_seconds, "" if restarted else " (did not finish)", len(sessions),
              arguments.period * 1000, len(streams), figures.acks, figures.refused_or_reset, five,
              json.dumps(figures.status_5xx, sort_keys=True), lost, doubled, len(figures.backwards), len(behind),
              len(streams), figures.stream_reconnects, percentile(waits, 0.99) if waits else 0,
              waits[-1] if waits else 0, percentile(gaps, 0.99) if gaps else 0, gaps[-1] if gaps else 0,
              "pass" if passed else "FAIL"))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
