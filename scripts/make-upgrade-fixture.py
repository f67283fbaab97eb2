#!/usr/bin/env python3
"""Makes the upgrade fixture: two SQLite data directories written by one build of `viewhost`, and what that build
served from them, so a later build can be checked to open them with every session, version and snapshot as it was.

    scripts/make-upgrade-fixture.py --binary .build/debug/viewhost --out Tests/ServerTests/Fixtures/upgrade-0.1.0

Each directory gets the same traffic: sessions with all four seed features (chat with replies from the simulated
contact, weather, login, person), one with a subset of features, one in another time zone and locale, and one whose
chat took more than 64 inputs (so its store holds a snapshot and journal records after it). Then, once every timer
has fired, every snapshot and log is recorded and the server is stopped: `clean/` with SIGTERM (it drains and
checkpoints), `killed/` with SIGKILL (the last commits stay in the -wal file). `expected.json` holds, per directory,
each session's id and token and what each of its features and its log answered. stdlib only.
"""
import argparse
import json
import os
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Contract"))
from viewhost_server import ViewHostServer  # noqa: E402


class SQLiteServer(ViewHostServer):
    """`viewhost serve` on a data directory (ViewHostServer starts the memory store; a later --store wins)."""

    def __init__(self, binary, directory):
        super().__init__(binary, "--store", "sqlite", "--data-dir", directory, "--simulation-speed", "1000",
                         environment={"VIEWHOST_SIMULATION_SEED": "7", "VIEWHOST_LOG_ACCESS": "false"})


def post(server, path, body, token=None, headers=None):
    all_headers = {"Content-Type": "application/json"}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    all_headers.update(headers or {})
    status, _, answer = server.request("POST", path, body=json.dumps(body), headers=all_headers)
    if status not in (201, 202):
        raise RuntimeError(f"POST {path} {body}: {status} {answer[:300]!r}")
    return json.loads(answer) if answer else None


def get(server, path, token):
    status, headers, body = server.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    if status != 200:
        raise RuntimeError(f"GET {path}: {status} {body[:300]}")
    return headers, body


def create(server, **options):
    session = post(server, "/v1/sessions", options)
    time.sleep(0.3)  # the chat list (John's chat) loads after a simulated round trip
    return session


def events(server, session, feature, *bodies, headers=None):
    for body in bodies:
        post(server, f"/v1/sessions/{session['id']}/{feature}/events", body, session["token"], headers)


def drive(server):
    """The fixture's traffic; returns the sessions made."""
    everything = create(server)
    events(server, everything, "chat", {"type": "openChat", "contact": "John"}, {"type": "send", "text": "Hi John"})
    time.sleep(0.3)
    events(server, everything, "chat", {"type": "back"}, {"type": "create", "contact": "Ann"})
    time.sleep(0.3)  # the chat is made after a simulated round trip
    events(server, everything, "chat", {"type": "send", "text": "Hello Ann 👋"}, {"type": "userRead"})
    events(server, everything, "weather", {"type": "changeLocation", "location": "Paris"})
    time.sleep(0.2)
    events(server, everything, "weather", {"type": "changeLocation", "location": "Tokyo"})
    post(server, f"/v1/sessions/{everything['id']}/login/events",
         [{"type": "setUsername", "value": "annabelle"}, {"type": "setPassword", "value": "secret123"}],
         everything["token"], {"Idempotency-Key": "fixture-login"})
    events(server, everything, "login", {"type": "login"})
    events(server, everything, "person", {"type": "setPerson", "salutation": "Ms.", "firstName": "Ada",
                                          "lastName": "Lovelace", "birthdate": "1815-12-10"})

    subset = create(server, features=["login", "person"])
    events(server, subset, "person", {"type": "setPerson", "firstName": "Grace", "lastName": "Hopper",
                                      "birthdate": "1906-12-09T00:00:00Z"})
    events(server, subset, "login", {"type": "setUsername", "value": "x"})

    elsewhere = create(server, timeZone="Asia/Shanghai", locale="zh-Hans")
    events(server, elsewhere, "login", {"type": "setUsername", "value": "maruko"}, {"type": "setPassword", "value": "123"})
    events(server, elsewhere, "chat", {"type": "openChat", "contact": "John"}, {"type": "send", "text": "你好"})

    # More than 64 inputs: the store snapshots the value every 64, so this one has a snapshot and a journal after it.
    long = create(server, features=["chat"])
    events(server, long, "chat", {"type": "openChat", "contact": "John"})
    for number in range(16):
        events(server, long, "chat", {"type": "send", "text": f"message {number}"})
        time.sleep(0.02)
    events(server, long, "chat", {"type": "appResignActive"})
    return [everything, subset, elsewhere, long]


def record(server, sessions):
    """Every feature's snapshot and the log of each session, once nothing changes any more."""
    def read():
        result = []
        for session in sessions:
            features = {}
            for name in session["links"]:
                if name in ("log", "stream"):
                    continue
                headers, body = get(server, f"/v1/sessions/{session['id']}/{name}", session["token"])
                features[name] = {"etag": headers["ETag"], "body": body.decode()}
            _, log = get(server, f"/v1/sessions/{session['id']}/log", session["token"])
            result.append({"id": session["id"], "token": session["token"], "features": features, "log": log.decode()})
        return result

    previous = read()
    for _ in range(60):
        time.sleep(1)
        current = read()
        if current == previous:
            return current
        previous = current
    raise RuntimeError("the sessions did not settle")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    shutil.rmtree(arguments.out, ignore_errors=True)
    os.makedirs(arguments.out)
    expected = {}
    for mode in ("clean", "killed"):
        directory = os.path.join(arguments.out, mode)
        server = SQLiteServer(arguments.binary, directory)
        server.__enter__()
        try:
            sessions = drive(server)
            expected[mode] = record(server, sessions)
            if mode == "clean":
                server.stop()
            else:
                os.kill(server.process.pid, signal.SIGKILL)
                server.process.wait()
        finally:
            server.stop()
        shm = os.path.join(directory, "viewhost.sqlite-shm")
        if os.path.exists(shm):
            os.remove(shm)  # rebuilt from the -wal file on open; not part of the data
    with open(os.path.join(arguments.out, "expected.json"), "w") as file:
        json.dump(expected, file, indent=1, sort_keys=True, ensure_ascii=False)
        file.write("\n")
    for mode in ("clean", "killed"):
        print(mode, sorted(os.listdir(os.path.join(arguments.out, mode))))


if __name__ == "__main__":
    main()
