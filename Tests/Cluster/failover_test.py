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

Two checks of their own (with --node-urls, which names each node's address, bypassing nginx):

- cross-node streams, before the load and the kill: sessions made on each node in turn, each with an event stream
  held directly on node3 while events are posted directly on node1, one at a time; every frame arrives on node3's
  stream, in order, with no version missing, and the stream stays open. The delay from sending each POST to its
  version's frame on node3 is reported (p50, p99), not asserted;
- timers of a dead owner: chat sessions made directly on the victim, whose bot replies fall due just after the kill
  (the user's message is posted so that the first reply is due 0.5 s after the SIGKILL or later, at the victim's
  --simulation-speed); nobody asks for them for 10 s after the kill, then reads through nginx show that a live node
  claimed each (its first timer-driven version after the kill) and applied a bot reply within 10 s of the kill.

Ownership moves (`viewhost_cluster_takeovers_total` summed over the nodes, just before the kill and over the live
nodes at the end) and forwarded requests (`viewhost_cluster_forwarded_total`) are reported per 1,000 requests the
test made, not asserted.

Standard library only. Exit status 0 when every check holds; the last line is a summary with the measured numbers.
"""

import argparse
import datetime
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

RETRYABLE = {409, 502, 503, 504}


class RequestCount:
    """Every request the test makes (stream connections included), for moves per 1,000 requests."""

    lock = threading.Lock()
    value = 0

    @classmethod
    def add(cls):
        with cls.lock:
            cls.value += 1


class Client:
    """One keep-alive connection to nginx (or to one node), reopened after any error."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.connection = None

    def request(self, method, path, body=None, headers=None, timeout=10):
        RequestCount.add()
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
        self.slowest = (0.0, None, None)  # the slowest event POST: (seconds, time.monotonic() it was sent, status)

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
                if now - sent > results.slowest[0]:
                    with results.lock:
                        results.slowest = max(results.slowest, (now - sent, sent, status), key=lambda slow: slow[0])
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
                RequestCount.add()
                connection.request("GET", "/v1/sessions/%s/stream" % self.session.id, headers=headers)
                response = connection.getresponse()
                if response.status != 200:
                    time.sleep(0.2)
                    continue
                self.connections += 1
                if self.connections > 1:
                    with self.results.lock:
                        self.results.stream_reconnects += 1
                for event_id, _, data in sse_events(response, self.stop.is_set):
                    self.received(event_id, data)
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


def sse_events(response, stopped=lambda: False):
    """The server-sent events of `response` as they come: (id or None, event name or None, data), until the body
    ends or `stopped()` says so (asked at every line, heartbeats included). Read with the response's own readline:
    chunked framing decoded, b"" at the body's end (nginx keeps the connection open after a body that ended
    properly)."""
    event_id, event, data = None, None, None
    while not stopped():
        line = response.readline()
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line.startswith("id:"):
            event_id = int(line[3:].strip())
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif line == "" and data is not None:
            yield event_id, event, data
            event_id, event, data = None, None, None


class NodeStream(threading.Thread):
    """An event stream of one session held directly on one node: each frame's version, event id and arrival time
    (the cross-node check). When the stream ends (its session moved to another node, which ends the old owner's
    streams), it reconnects to the same node with Last-Event-ID, as a client does, and counts it."""

    def __init__(self, host, port, session, feature="login"):
        super().__init__(daemon=True)
        self.host, self.port, self.session, self.feature = host, port, session, feature
        self.frames = []  # (version, event id, time.monotonic() of arrival)
        self.changed = threading.Condition()
        self.ended = None  # why it ended, once it did
        self.closing = False
        self.connection = None
        self.reconnects = 0
        self.last_id = None

    def run(self):
        reason = "the stream ended"
        attempts = 0
        while not self.closing and attempts < 20:
            reason = self.follow()
            if self.closing:
                break
            attempts += 1
            with self.changed:
                self.reconnects += 1
            time.sleep(0.05)
        with self.changed:
            self.ended = reason
            self.changed.notify_all()

    def follow(self):
        """One connection of the stream, until it ends; why it ended."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self.connection = connection
        reason = "the stream ended"
        try:
            RequestCount.add()
            headers = dict(auth(self.session))
            if self.last_id is not None:
                headers["Last-Event-ID"] = str(self.last_id)
            connection.request("GET", "/v1/sessions/%s/stream" % self.session.id, headers=headers)
            response = connection.getresponse()
            if response.status != 200:
                return "the stream answered %d" % response.status
            for event_id, event, data in sse_events(response):
                arrived = time.monotonic()
                if event_id is not None:
                    self.last_id = event_id
                if event in (None, self.feature):
                    version = json.loads(data).get("version")
                    with self.changed:
                        self.frames.append((version, event_id, arrived))
                        self.changed.notify_all()
        except (OSError, http.client.HTTPException, ValueError) as error:
            reason = "the stream broke: %r" % error
        finally:
            connection.close()
        return reason

    def wait_for(self, version, timeout):
        """The arrival time of the first frame at `version` or later, or None after `timeout` s or at the end."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for frame_version, _, arrived in self.frames:
                    if isinstance(frame_version, int) and frame_version >= version:
                        return arrived
                left = deadline - time.monotonic()
                if self.ended is not None or left <= 0:
                    return None
                self.changed.wait(left)

    def close(self):
        self.closing = True
        connection = self.connection
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def address(url):
    target = urllib.parse.urlparse(url)
    return target.hostname, target.port


def percentile(values, fraction):
    """The nearest-rank percentile of `values` (none: None)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def create_session(client, features, results):
    status, _, payload = client.request("POST", "/v1/sessions", {"features": features})
    if status != 201:
        results.problem("creating a session answered %s %s" % (status, payload[:200]))
        return None
    answer = json.loads(payload)
    return Session(answer["id"], answer["token"])


def post_event(client, session, feature, body, key, results, what):
    """POSTs one event with an Idempotency-Key, retried (same key) on 409/502/503/504 for 10 s; its version or None."""
    deadline = time.monotonic() + 10
    while True:
        status, _, payload = client.request(
            "POST", "/v1/sessions/%s/%s/events" % (session.id, feature), body,
            dict(auth(session), **{"Idempotency-Key": key}))
        if status == 202:
            return json.loads(payload)["version"]
        if (status is not None and status not in RETRYABLE) or time.monotonic() > deadline:
            results.problem("%s: session %s: event answered %s %s" % (what, session.id, status, payload[:200]))
            return None
        time.sleep(0.05)


def cross_node_streams(node_urls, stream_node, post_node, count, posts, results):
    """Sessions made on each node in turn, each streamed directly on `stream_node` while events are posted directly
    on `post_node`, one at a time, each waited for on the stream. Returns the delays (s) from sending each POST to
    its version's frame."""
    makers = [Client(*address(url)) for url in node_urls]
    sessions = []
    made_on = {}
    for index in range(count):
        session = create_session(makers[index % len(makers)], ["login"], results)
        if session is None:
            return []
        sessions.append(session)
        made_on[session.id] = node_urls[index % len(makers)]
    for maker in makers:
        maker.close()
    streams = {session.id: NodeStream(*address(stream_node), session) for session in sessions}
    for stream in streams.values():
        stream.start()
    for session in sessions:
        if streams[session.id].wait_for(1, 10) is None:
            results.problem("cross-node stream %s: no first frame within 10 s (%s)"
                            % (session.id, streams[session.id].ended or "the stream still open"))
    poster = Client(*address(post_node))
    delays = []
    failures = {}  # session id: what went wrong first (one line per session, not one per frame)
    for number in range(1, posts + 1):
        for session in sessions:
            stream = streams[session.id]
            if session.id in failures:
                continue
            sent = time.monotonic()
            version = post_event(
                poster, session, "login", {"type": "setUsername", "value": "%s-x%d" % (session.id[:6], number)},
                "%s-x%d" % (session.id, number), results, "cross-node stream")
            if version is None:
                failures[session.id] = "a POST got no 202"
                continue
            session.acked += 1
            session.max_version = max(session.max_version, version)
            arrived = stream.wait_for(version, 5)
            if arrived is None:
                failures[session.id] = "version %d did not reach the stream within 5 s (%s)" % (
                    version, stream.ended or "the stream still open")
                continue
            delays.append(arrived - sent)
    poster.close()
    for session in sessions:
        stream = streams[session.id]
        with stream.changed:
            frames = list(stream.frames)
            ended = stream.ended
        versions = [frame[0] for frame in frames]
        ids = [frame[1] for frame in frames if frame[1] is not None]
        expected = list(range(1, 2 + session.acked))
        if session.id not in failures and ended is not None:
            failures[session.id] = "%s while every node lived, after %d reconnects" % (ended, stream.reconnects)
        if session.id not in failures and (not versions or versions != expected[len(expected) - len(versions):]
                                           or versions[-1] != session.max_version):
            failures[session.id] = "versions %s, expected every one up to %d in order" % (versions, session.max_version)
        if session.id not in failures and any(later <= earlier for earlier, later in zip(ids, ids[1:])):
            failures[session.id] = "event ids %s do not grow" % ids
        stream.close()
    for session_id, failure in list(failures.items())[:5]:
        results.problem("cross-node stream %s (made on %s): %s" % (session_id, made_on[session_id], failure))
    if failures:
        results.problem("cross-node streams: %d of %d failed (streams on %s, events posted on %s)"
                        % (len(failures), len(sessions), stream_node, post_node))
    return delays


def metric(node_url, name):
    """The sum of metric `name`'s samples on one node's /metrics; None when the node does not answer or lacks it."""
    client = Client(*address(node_url))
    status, _, payload = client.request("GET", "/metrics", timeout=5)
    client.close()
    if status != 200:
        return None
    total, found = 0.0, False
    for line in payload.decode(errors="replace").splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            total += float(line.rsplit(" ", 1)[1])
            found = True
    return total if found else None


def metric_sum(node_urls, name):
    values = [metric(url, name) for url in node_urls]
    if any(value is None for value in values):
        return None
    return sum(values)


class ChatTimers:
    """Chat sessions owned by the victim whose bot replies fall due after the kill (the dead owner's timers)."""

    def __init__(self, victim_url, count, speed, results):
        self.victim = Client(*address(victim_url))
        self.speed, self.results = speed, results
        self.sessions = []
        for _ in range(count):
            session = create_session(self.victim, ["chat"], results)
            if session is not None:
                self.sessions.append(session)
        # The chat list loads 0.5 s (simulated) after the session starts; then the chat with John opens.
        time.sleep(0.5 / speed + 0.2)
        for session in self.sessions:
            post_event(self.victim, session, "chat", {"type": "openChat", "contact": "John"}, session.id + "-open",
                       results, "chat timers")
        self.sent_at = None

    @property
    def lead(self):
        """How long before the kill the user's message goes: its first reply is due (1.5 + 1.5..4.5 + 5..14) s of
        simulated time after it (seed-behaviour.md: sent, read receipt, reply), so 0.5 s after the kill at the
        earliest and (20 s / speed - lead) at the latest."""
        return max(0.0, 8.0 / self.speed - 0.5)

    def send(self):
        self.first_sent_at = time.time()
        for session in self.sessions:
            post_event(self.victim, session, "chat", {"type": "send", "text": "Hi"}, session.id + "-send",
                       self.results, "chat timers")
        self.sent_at = time.time()
        self.victim.close()

    def check(self, client, kill_wall):
        """Reads each session (after 10 s without a request for any of them): a node claimed it within 10 s of the
        kill (its first timer-driven version after the kill, when the timers due by then fire) and a bot reply was
        applied by then. Replies planned after the claim fall due from the claim's time on, possibly past 10 s: they
        are not late. Returns (bot replies within 10 s of the kill, the latest first timer-driven version after the
        kill: (s after the kill, its event), or None)."""
        replies, latest = 0, None
        for session in self.sessions:
            status, _, payload = None, {}, b""
            for _ in range(20):
                status, _, payload = client.request("GET", "/v1/sessions/%s/versions" % session.id, headers=auth(session))
                if status == 200:
                    break
                time.sleep(0.2)
            if status != 200:
                self.results.problem("chat timers %s: reading its versions answered %s" % (session.id, status))
                continue
            timed = []
            for version in json.loads(payload)["versions"]:
                cause = version.get("cause") or {}
                if cause.get("source") not in ("timer", "simulator"):
                    continue
                at = datetime.datetime.strptime(cause["at"].replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
                if at > kill_wall:
                    timed.append((round(at - kill_wall, 2), cause.get("event")))
            timed.sort()
            in_time = [event for after, event in timed if after <= 10]
            if not timed or timed[0][0] > 10:
                self.results.problem("chat timers %s: no timer-driven version within 10 s of the kill (after it: %s)"
                                     % (session.id, timed))
            elif "replyDue" not in in_time:
                self.results.problem("chat timers %s: no bot reply within 10 s of the kill (after it: %s)" % (session.id, timed))
            replies += in_time.count("replyDue")
            if timed:
                latest = max(latest or (0, ""), timed[0])
            status, _, payload = client.request("GET", "/v1/sessions/%s/chat" % session.id, headers=auth(session))
            if status == 200:
                messages = json.loads(payload)["conversations"].get("John", {}).get("messages", [])
                texts = [m.get("message") for m in messages]
                if "Hi" not in texts or not any(m.get("sentBy") == "other" for m in messages[texts.index("Hi") + 1:]):
                    self.results.problem("chat timers %s: no reply after the user's message in the snapshot: %s" % (session.id, texts))
            else:
                self.results.problem("chat timers %s: reading its chat answered %s" % (session.id, status))
        return replies, latest


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--victim-pid", type=int)
    parser.add_argument("--victim-node")
    parser.add_argument("--postgres-restart", help="shell command that restarts PostgreSQL")
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--streams", type=int, default=30)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--balancer", default="hash", help="nginx's balancing (hash or round-robin), for the summary")
    parser.add_argument("--node-urls", help="each node's own address, comma-separated (the checks that bypass nginx)")
    parser.add_argument("--node-names", help="each node's --node-id, in the order of --node-urls")
    parser.add_argument("--victim-simulation-speed", type=float, default=100, help="the victim's --simulation-speed")
    parser.add_argument("--stream-sessions", type=int, default=20, help="sessions of the cross-node stream check")
    parser.add_argument("--stream-posts", type=int, default=10, help="events posted to each of them")
    parser.add_argument("--chat-sessions", type=int, default=8, help="chat sessions of the dead owner's timers check")
    parser.add_argument("--streams-only", action="store_true",
                        help="only the cross-node stream check, no load and no kill (Benchmarks/cluster.sh)")
    arguments = parser.parse_args()
    if not arguments.streams_only and (arguments.victim_pid is None or arguments.victim_node is None):
        parser.error("--victim-pid and --victim-node name the node to kill")
    target = urllib.parse.urlparse(arguments.url)
    host, port = target.hostname, target.port
    node_urls = arguments.node_urls.split(",") if arguments.node_urls else []
    node_names = arguments.node_names.split(",") if arguments.node_names else []
    if node_urls and len(node_names) != len(node_urls):
        parser.error("--node-names names each of --node-urls")
    live_urls = [url for url, name in zip(node_urls, node_names) if name != arguments.victim_node]
    victim_url = dict(zip(node_names, node_urls)).get(arguments.victim_node)

    results = Results()
    begun = time.monotonic()

    def progress(text):
        print("failover_test: [%.1f s] %s" % (time.monotonic() - begun, text), flush=True)

    # Before anything else: a stream held on node3 follows the events posted on node1.
    delays = []
    if len(node_urls) >= 3 and arguments.stream_sessions > 0:
        delays = cross_node_streams(node_urls, node_urls[2], node_urls[0], arguments.stream_sessions,
                                    arguments.stream_posts, results)
    stream_figures = "cross-node streams (%d on %s, events posted on %s): %d frames, POST to frame p50 %s ms, p99 %s ms" % (
        arguments.stream_sessions if node_urls else 0, node_names[2] if node_names else "-",
        node_names[0] if node_names else "-", len(delays),
        "%.1f" % (1000 * percentile(delays, 0.5)) if delays else "-",
        "%.1f" % (1000 * percentile(delays, 0.99)) if delays else "-")
    progress(stream_figures)
    if arguments.streams_only:
        for problem in results.problems:
            print("PROBLEM " + problem)
        print("failover_test: %s: %s" % ("ok" if not results.problems else "FAILED (%d problems)" % len(results.problems),
                                         stream_figures))
        return 0 if not results.problems else 1

    chat = None
    if victim_url and arguments.chat_sessions > 0:
        chat = ChatTimers(victim_url, arguments.chat_sessions, arguments.victim_simulation_speed, results)

    progress("chat sessions made on the victim; making %d sessions" % arguments.sessions)
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
    progress("load started (%s)" % arguments.balancer)
    if chat is not None:
        # The user's message, timed so that the bot's first reply falls due after the kill.
        time.sleep(max(0, started + arguments.seconds / 3 - chat.lead - time.monotonic()))
        chat.send()
    time.sleep(max(0, started + arguments.seconds / 3 - time.monotonic()))
    moves_before = metric_sum(node_urls, "viewhost_cluster_takeovers_total") if node_urls else None
    forwarded_before = metric_sum(node_urls, "viewhost_cluster_forwarded_total") if node_urls else None
    requests_before = RequestCount.value
    owned = subprocess.run(
        ["psql", arguments.database_url, "-At", "-c", "SELECT id FROM sessions WHERE owner = '%s'" % arguments.victim_node],
        check=True, capture_output=True, text=True).stdout.split()
    for session in sessions:
        session.on_victim = session.id in owned
    os.kill(arguments.victim_pid, signal.SIGKILL)
    kill_time[0] = time.monotonic()
    kill_wall = time.time()
    acks_at_kill = results.acks
    progress("%s killed" % arguments.victim_node)
    chat_figures = ""
    if chat is not None:
        # Nobody asks for the chat sessions for 10 s; then their replies must be there, applied in time.
        time.sleep(max(0, kill_time[0] + 10 - time.monotonic()))
        replies, latest = chat.check(Client(host, port), kill_wall)
        chat_figures = "; dead owner's timers: %d chat sessions (speed %g), messages %.1f-%.1f s before the kill, %d bot replies within 10 s of it, claimed (first timer-driven version) at the latest %s after the kill" % (
            len(chat.sessions), chat.speed, kill_wall - chat.first_sent_at, kill_wall - chat.sent_at, replies,
            "%.2f s (%s)" % latest if latest is not None else "-")
        progress("dead owner's timers checked")
    outage = None
    if arguments.postgres_restart:
        # After the timers' check (when there is one): a restart while the new owners apply the dead owner's timers
        # is another test.
        time.sleep(max(0, started + arguments.seconds * 2 / 3 - time.monotonic()))
        progress("restarting PostgreSQL")
        outage_start = time.monotonic()
        subprocess.run(arguments.postgres_restart, shell=True, check=True, stdout=subprocess.DEVNULL)
        outage = time.monotonic() - outage_start
        # Load after the restart too, at least 3 s of it.
        time.sleep(max(0, started + arguments.seconds - time.monotonic(), outage_start + outage + 3 - time.monotonic()))
    else:
        time.sleep(max(0, started + arguments.seconds - time.monotonic()))
    stop.set()
    progress("stopping the load")
    for worker in workers:
        worker.join(40)
    elapsed = time.monotonic() - started
    progress("load stopped; checking every session and stream")

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

    moves = metric_sum(live_urls, "viewhost_cluster_takeovers_total") if live_urls else None
    forwarded = metric_sum(live_urls, "viewhost_cluster_forwarded_total") if live_urls else None
    requests = RequestCount.value

    def per_thousand(count, total):
        return "n/a" if count is None else "%d (%.2f per 1,000 requests)" % (count, 1000.0 * count / max(1, total))

    moves_figures = "; %s: ownership moves before the kill %s, at the end (live nodes) %s; forwarded before the kill %s, at the end %s" % (
        arguments.balancer, per_thousand(moves_before, requests_before), per_thousand(moves, requests),
        per_thousand(forwarded_before, requests_before), per_thousand(forwarded, requests))

    if results.status_503_without_retry_after:
        results.problem("%d answers of 503 without Retry-After" % results.status_503_without_retry_after)
    moved = [s.moved_after for s in sessions if s.moved_after is not None]
    for problem in results.problems:
        print("PROBLEM " + problem)
    print(
        "failover_test: %s: %d sessions, %d streams (%d reconnects, %d events), %d events acknowledged in %.1f s "
        "(%.0f/s; %d before the kill), the slowest answer %.1f s (%s, sent %.1f s after the kill), %d retries, %d answers of 503; %d sessions moved, failover (kill to first 202 "
        "of a moved session) min %.2f s, max %.2f s%s"
        % (
            "ok" if not results.problems else "FAILED (%d problems)" % len(results.problems),
            len(sessions), len(streams), results.stream_reconnects, results.stream_events, results.acks, elapsed,
            results.acks / elapsed, acks_at_kill, results.slowest[0], results.slowest[2] or "no answer",
            (results.slowest[1] or kill_time[0]) - kill_time[0], results.retries, results.status_503, len(moved),
            min(moved) if moved else 0, max(moved) if moved else 0,
            "; PostgreSQL restart took %.1f s" % outage if outage is not None else "",
        )
        + "; " + stream_figures + chat_figures + moves_figures
    )
    return 0 if not results.problems else 1


if __name__ == "__main__":
    sys.exit(main())
