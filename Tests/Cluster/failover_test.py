#!/usr/bin/env python3
"""The cluster's failover test (run by `scripts/cluster.sh test`, which starts PostgreSQL, three nodes and nginx).

Clients drive SESSIONS login sessions through nginx: each session gets a sequence of `setUsername` events, each with
its own Idempotency-Key, retried (same key) until it gets a 202. Some sessions also hold an event stream, which
reconnects with Last-Event-ID whenever it breaks. A third of the way in, one node is killed with SIGKILL; two thirds
of the way in (with --postgres-restart), PostgreSQL is restarted. Afterwards:

- every event that got a 202 is applied exactly once: the session's final version is 1 + its acknowledged events,
  and its username is the last one acknowledged;
- no client ever saw a version go backwards (202 answers, snapshot reads, stream events);
- every session answered again within 10 s of the kill;
- every stream resumed and reached the session's final version, its event ids only ever growing;
- while PostgreSQL was down, events got 503 with Retry-After (never a 202 that was then lost).

Standard library only. Exit status 0 when every check holds; the last line is a summary with the measured numbers.
"""

import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

RETRYABLE = {409, 502, 503, 504}


class Client:
    """One keep-alive connection to nginx, reopened after any error."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.connection = None

    def request(self, method, path, body=None, headers=None, timeout=10):
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            return response.status, dict((k.lower(), v) for k, v in response.getheaders()), payload
        except (OSError, http.client.HTTPException):
            self.close()
            return None, {}, b""

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Session:
    def __init__(self, sid, token):
        self.id, self.token = sid, token
        self.acked = 0
        self.last_value = None
        self.max_version = 1
        self.uncertain = 0  # events given up on: applied or not, unknown
        self.on_victim = False
        self.moved_after = None  # kill to its first 202 (for a session the killed node owned)


class Results:
    def __init__(self):
        self.lock = threading.Lock()
        self.problems = []
        self.acks = 0
        self.retries = 0
        self.status_503 = 0
        self.status_503_without_retry_after = 0
        self.stream_reconnects = 0
        self.stream_events = 0

    def problem(self, text):
        with self.lock:
            if len(self.problems) < 50:
                self.problems.append(text)


def auth(session):
    return {"Authorization": "Bearer " + session.token}


def drive(client, sessions, stop, kill_time, results):
    """Sends events to `sessions` in turn until `stop` is set; checks each 202's version."""
    number = 0
    while not stop.is_set():
        number += 1
        for session in sessions:
            if stop.is_set():
                return
            value = "%s-%d" % (session.id[:6], number)
            key = "%s-%d" % (session.id, number)
            deadline = time.monotonic() + 30
            while True:
                sent = time.monotonic()
                status, headers, payload = client.request(
                    "POST", "/v1/sessions/%s/login/events" % session.id,
                    {"type": "setUsername", "value": value}, dict(auth(session), **{"Idempotency-Key": key}))
                now = time.monotonic()
                if status == 202:
                    version = json.loads(payload)["version"]
                    with results.lock:
                        results.acks += 1
                    if version <= session.max_version:
                        results.problem("session %s: 202 with version %d after version %d" % (session.id, version, session.max_version))
                    session.max_version = max(session.max_version, version)
                    session.acked += 1
                    session.last_value = value
                    if session.on_victim and session.moved_after is None and kill_time[0] is not None and sent > kill_time[0]:
                        session.moved_after = now - kill_time[0]
                    break
                if status == 503:
                    with results.lock:
                        results.status_503 += 1
                        if "retry-after" not in headers:
                            results.status_503_without_retry_after += 1
                if status is not None and status not in RETRYABLE:
                    results.problem("session %s: event answered %s %s" % (session.id, status, payload[:200]))
                    session.uncertain += 1
                    break
                with results.lock:
                    results.retries += 1
                if now > deadline:
                    results.problem("session %s: no 202 within 30 s (last status %s)" % (session.id, status))
                    session.uncertain += 1
                    break
                time.sleep(0.1)
            # Now and then a read: never older than what this client was given.
            if number % 3 == 0:
                status, _, payload = client.request("GET", "/v1/sessions/%s/login" % session.id, headers=auth(session))
                if status == 200:
                    version = json.loads(payload)["version"]
                    if version < session.max_version:
                        results.problem("session %s: read version %d after being given %d" % (session.id, version, session.max_version))


class Stream(threading.Thread):
    """An event stream of one session through nginx, reconnecting with Last-Event-ID."""

    def __init__(self, host, port, session, stop, results):
        super().__init__(daemon=True)
        self.host, self.port, self.session, self.stop, self.results = host, port, session, stop, results
        self.last_id = None
        self.version = 0
        self.connections = 0

    def run(self):
        while not self.stop.is_set():
            connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                headers = auth(self.session)
                if self.last_id is not None:
                    headers["Last-Event-ID"] = str(self.last_id)
                connection.request("GET", "/v1/sessions/%s/stream" % self.session.id, headers=headers)
                response = connection.getresponse()
                if response.status != 200:
                    time.sleep(0.2)
                    continue
                self.connections += 1
                if self.connections > 1:
                    with self.results.lock:
                        self.results.stream_reconnects += 1
                event_id, data = None, None
                while not self.stop.is_set():
                    # The response's own readline: chunked framing decoded, b"" at the body's end (nginx keeps
                    # the connection open after a body that ended properly).
                    line = response.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\n")
                    if line.startswith("id:"):
                        event_id = int(line[3:].strip())
                    elif line.startswith("data:"):
                        data = line[5:].strip()
                    elif line == "" and data is not None:
                        self.received(event_id, data)
                        event_id, data = None, None
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.1)
            finally:
                connection.close()

    def received(self, event_id, data):
        if event_id is not None:
            if self.last_id is not None and event_id <= self.last_id:
                self.results.problem("stream %s: id %d after %d" % (self.session.id, event_id, self.last_id))
            self.last_id = event_id
        try:
            snapshot = json.loads(data)
        except ValueError:
            return
        version = snapshot.get("version")
        if isinstance(version, int):
            if version < self.version:
                self.results.problem("stream %s: version %d after %d" % (self.session.id, version, self.version))
            self.version = max(self.version, version)
            with self.results.lock:
                self.results.stream_events += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--victim-pid", type=int, required=True)
    parser.add_argument("--victim-node", required=True)
    parser.add_argument("--postgres-restart", help="shell command that restarts PostgreSQL")
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--streams", type=int, default=30)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    arguments = parser.parse_args()
    target = urllib.parse.urlparse(arguments.url)
    host, port = target.hostname, target.port

    results = Results()
    setup = Client(host, port)
    sessions = []
    for _ in range(arguments.sessions):
        status, _, payload = setup.request("POST", "/v1/sessions", {"features": ["login"]})
        if status != 201:
            print("failover_test: creating a session answered %s %s" % (status, payload[:200]), file=sys.stderr)
            return 1
        answer = json.loads(payload)
        sessions.append(Session(answer["id"], answer["token"]))
    setup.close()

    stop = threading.Event()
    streams_stop = threading.Event()
    kill_time = [None]
    streams = [Stream(host, port, session, streams_stop, results) for session in sessions[: arguments.streams]]
    for stream in streams:
        stream.start()
    workers = []
    for index in range(arguments.clients):
        share = sessions[index :: arguments.clients]
        worker = threading.Thread(target=drive, args=(Client(host, port), share, stop, kill_time, results), daemon=True)
        worker.start()
        workers.append(worker)

    started = time.monotonic()
    time.sleep(arguments.seconds / 3)
    owned = subprocess.run(
        ["psql", arguments.database_url, "-At", "-c", "SELECT id FROM sessions WHERE owner = '%s'" % arguments.victim_node],
        check=True, capture_output=True, text=True).stdout.split()
    for session in sessions:
        session.on_victim = session.id in owned
    os.kill(arguments.victim_pid, signal.SIGKILL)
    kill_time[0] = time.monotonic()
    acks_at_kill = results.acks
    outage = None
    if arguments.postgres_restart:
        time.sleep(arguments.seconds / 3)
        outage_start = time.monotonic()
        subprocess.run(arguments.postgres_restart, shell=True, check=True, stdout=subprocess.DEVNULL)
        outage = time.monotonic() - outage_start
        time.sleep(max(0, arguments.seconds - (time.monotonic() - started)))
    else:
        time.sleep(arguments.seconds * 2 / 3)
    stop.set()
    for worker in workers:
        worker.join(40)
    elapsed = time.monotonic() - started

    # Every session's final value: exactly its acknowledged events, the last one's value.
    check = Client(host, port)
    for session in sessions:
        status, _, payload = None, None, b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            status, _, payload = check.request("GET", "/v1/sessions/%s/login" % session.id, headers=auth(session))
            if status == 200:
                break
            time.sleep(0.2)
        if status != 200:
            results.problem("session %s: final read answered %s" % (session.id, status))
            continue
        snapshot = json.loads(payload)
        version = snapshot["version"]
        expected = 1 + session.acked
        if not (expected <= version <= expected + session.uncertain):
            results.problem("session %s: version %d, expected %d (+%d uncertain)" % (session.id, version, expected, session.uncertain))
        if version < session.max_version:
            results.problem("session %s: final version %d below %d given" % (session.id, version, session.max_version))
        username = json.dumps(snapshot)
        if session.last_value is not None and session.uncertain == 0 and ('"%s"' % session.last_value) not in username:
            results.problem("session %s: the last acknowledged value %s is not in its snapshot" % (session.id, session.last_value))
        if session.on_victim and (session.moved_after is None or session.moved_after > 10):
            results.problem("session %s: did not answer 202 within 10 s of the kill (%s)" % (session.id, session.moved_after))

    # Every stream catches up with its session's final version.
    deadline = time.monotonic() + 15
    for stream in streams:
        while stream.version < stream.session.max_version and time.monotonic() < deadline:
            time.sleep(0.1)
        if stream.version < stream.session.max_version:
            lease = subprocess.run(
                ["psql", arguments.database_url, "-At", "-c", "SELECT owner, epoch FROM sessions WHERE id = '%s'" % stream.session.id],
                capture_output=True, text=True).stdout.strip()
            results.problem("stream %s: lease %s, on the killed node at the kill: %s" % (stream.session.id, lease, stream.session.on_victim))
            results.problem("stream %s: stopped at version %d, the session is at %d (%d connections)" % (stream.session.id, stream.version, stream.session.max_version, stream.connections))
    streams_stop.set()

    if results.status_503_without_retry_after:
        results.problem("%d answers of 503 without Retry-After" % results.status_503_without_retry_after)
    moved = [s.moved_after for s in sessions if s.moved_after is not None]
    for problem in results.problems:
        print("PROBLEM " + problem)
    print(
        "failover_test: %s: %d sessions, %d streams (%d reconnects, %d events), %d events acknowledged in %.1f s "
        "(%.0f/s; %d before the kill), %d retries, %d answers of 503; %d sessions moved, failover (kill to first 202 "
        "of a moved session) min %.2f s, max %.2f s%s"
        % (
            "ok" if not results.problems else "FAILED (%d problems)" % len(results.problems),
            len(sessions), len(streams), results.stream_reconnects, results.stream_events, results.acks, elapsed,
            results.acks / elapsed, acks_at_kill, results.retries, results.status_503, len(moved),
            min(moved) if moved else 0, max(moved) if moved else 0,
            "; PostgreSQL restart took %.1f s" % outage if outage is not None else "",
        )
    )
    return 0 if not results.problems else 1


if __name__ == "__main__":
    sys.exit(main())
