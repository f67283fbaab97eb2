#!/usr/bin/env python3
"""The example app outside the package (Examples/Todo) served over HTTP: a session's to-do list is durable across
`kill -9`, its undo window's timer fires after a restart, and its routes and schemas are in /openapi.json.

    python3 Tests/Example/todo_test.py --binary Examples/Todo/.build/debug/todo-server

Starts the server on 127.0.0.1, port 0, with the SQLite store in a temporary directory, and stops it by pid.
stdlib only. The page is driven in Chromium by Tests/Browser/browser_test.py --todo.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Contract"))
from viewhost_server import ViewHostServer  # noqa: E402


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class Client:
    def __init__(self, server, session=None):
        self.server = server
        self.session = session

    def post(self, path, body, expected=202):
        headers = {"Content-Type": "application/json"}
        if self.session:
            headers["Authorization"] = f"Bearer {self.session['token']}"
        status, _, answer = self.server.request("POST", path, body=json.dumps(body), headers=headers)
        check(status == expected, f"POST {path} {body}: {status} {answer[:300]!r}")
        return json.loads(answer) if answer else None

    def event(self, body, expected=202):
        return self.post(f"/v1/sessions/{self.session['id']}/todo/events", body, expected)

    def todo(self):
        status, headers, body = self.server.request(
            "GET", f"/v1/sessions/{self.session['id']}/todo", headers={"Authorization": f"Bearer {self.session['token']}"})
        check(status == 200, f"GET todo: {status} {body[:300]!r}")
        return headers["ETag"], body, json.loads(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--viewhost", help="the seed app's binary: it must refuse the to-do store, naming the feature")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    data = tempfile.mkdtemp(prefix="viewhost-todo-")
    try:
        run(args.binary, data, args.viewhost and os.path.abspath(args.viewhost))
        if args.viewhost:
            refused_by_another_app(args.binary, os.path.abspath(args.viewhost), data)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print("todo_test: passed")


def start(binary, data):
    # In the data directory: the repository's Config/viewhost.json is the seed app's, with keys this app lacks.
    server = ViewHostServer(binary, "--store", "sqlite", "--data-dir", data,
                            environment={"VIEWHOST_LOG_ACCESS": "false"}, cwd=data)
    return server.__enter__()


def named(binary, data):
    """The app goes by its own name: its usage, its error lines, its `--version` (the ViewHost it runs on) and its
    readiness line (`todo-server listening on …`, which `start` waits for) say `todo-server`, never `viewhost`."""
    print("todo_test: the app's usage, errors and version say its name")
    def command(*arguments):
        return subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=60, cwd=data)
    usage = command("check", "--help")
    check(usage.returncode == 0 and "USAGE: todo-server check" in usage.stdout, f"usage: {usage.stdout!r}")
    check("viewhost check" not in usage.stdout, f"usage: {usage.stdout!r}")
    missing = command("check", "--data-dir", os.path.join(data, "none"))
    check(missing.returncode == 66 and missing.stderr.startswith("todo-server: "), f"check: {missing.stderr!r}")
    version = command("--version")
    check(version.stdout.startswith("todo-server (ViewHost "), f"version: {version.stdout!r}")


def lean(binary, data, viewhost):
    """An app on SQLite alone links no libpq (it passes no database store to ViewHostCommand.run), and refuses
    `--store postgres` before opening anything, exit 78 in one line naming the product to add; the seed binary,
    which passes `.postgres`, links it."""
    print("todo_test: the app links no libpq and refuses --store postgres")
    def links(path):
        listed = subprocess.run(["ldd", path], capture_output=True, text=True, timeout=60)
        check(listed.returncode == 0, f"ldd {path}: {listed.stderr!r}")
        return listed.stdout
    check("libpq" not in links(binary), f"todo-server links libpq: {links(binary)!r}")
    if viewhost:
        check("libpq" in links(viewhost), "the seed binary offers --store postgres, so it links libpq")
    refused = subprocess.run(
        [binary, "serve", "--port", "0", "--store", "postgres", "--database-url", "postgresql://127.0.0.1:1/none"],
        capture_output=True, text=True, timeout=60, cwd=data)
    check(refused.returncode == 78, f"--store postgres: status {refused.returncode}: {refused.stderr!r}")
    lines = refused.stderr.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith("todo-server: --store postgres: this app is built without "
                                                  "PostgreSQL support") and "ViewHostPostgres" in lines[0],
          f"--store postgres: {refused.stderr!r}")


def run(binary, data, viewhost=None):
    named(binary, data)
    lean(binary, data, viewhost)
    server = start(binary, data)
    try:
        print("todo_test: the example's routes and schemas are in /openapi.json")
        status, _, body = server.request("GET", "/openapi.json")
        document = json.loads(body)
        check("/v1/sessions/{id}/todo" in document["paths"], "no todo snapshot path")
        check("/v1/sessions/{id}/todo/events" in document["paths"], "no todo events path")
        schemas = document["components"]["schemas"]
        add = schemas["TodoAddEvent"]
        check(add["properties"]["title"]["maxLength"] == 200, f"the title's limit: {add}")
        check(set(schemas["TodoEvent"]["discriminator"]["mapping"]) ==
              {"add", "toggle", "edit", "remove", "clearCompleted", "undo"}, "the event types")
        check("todo" in json.dumps(document["components"]["schemas"]["SessionOptions"]), "todo among the features")
        check("chat" not in document["paths"].__repr__(), "a seed feature in the example's document")

        print("todo_test: a list is made over HTTP")
        client = Client(server)
        client.session = client.post("/v1/sessions", {}, expected=201)
        for title in ["Milk", "Bread", "Eggs"]:
            client.event({"type": "add", "title": title})
        client.event({"type": "toggle", "item": "t2"})
        client.event({"type": "toggle", "item": "t2", "id": "retry-1"})
        client.event({"type": "toggle", "item": "t2", "id": "retry-1"})  # a retry: acknowledged, applied once
        error = client.event({"type": "add", "title": "x" * 201}, expected=422)
        check(error["errors"][0]["field"] == "title", f"the 422 names the field: {error}")
        client.event({"type": "toggle", "item": "t9"}, expected=409)
        before_etag, before_body, before = client.todo()
        check([item["title"] for item in before["items"]] == ["Milk", "Bread", "Eggs"], f"items: {before}")
        check([item["done"] for item in before["items"]] == [False, False, False], f"toggled twice: {before}")

        print("todo_test: the command-line client drives the to-do list like any feature")
        environment = dict(os.environ, VIEWHOST_SERVER=f"http://127.0.0.1:{server.port}",
                           VIEWHOST_SESSION=client.session["id"], VIEWHOST_TOKEN=client.session["token"])
        def cli(*arguments, expected=0):
            result = subprocess.run([binary, "client", *arguments], capture_output=True, text=True, timeout=60,
                                    env=environment, cwd=data)
            check(result.returncode == expected, f"client {arguments}: exit {result.returncode}: {result.stderr!r}")
            return result.stdout
        actions = cli("actions", "todo")
        check("items[1].toggle" in actions and "send todo toggle  item=t2" in actions, f"actions: {actions!r}")
        check("send todo add  title={title}" in actions, f"the add action's field: {actions!r}")
        check("accepted 1 event; todo version" in cli("send", "todo", "add", "title=Cheese"), "client send")
        listed = cli("get", "todo")
        check("4 items, 4 left" in listed and "title: Cheese" in listed, f"client get: {listed!r}")
        cli("send", "todo", "remove", "item=t4")

        print("todo_test: kill -9, then the same list, the same bytes")
        client.event({"type": "remove", "item": "t1"})
        removed_etag, removed_body, removed = client.todo()
        check(removed["undoMessage"] == "Removed “Milk”", f"the undo window: {removed}")
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        server = start(binary, data)
        client.server = server
        etag, body, after = client.todo()
        check((etag, body) == (removed_etag, removed_body), f"after the restart: {etag} {body[:200]!r}")
        check(after["undoMessage"] == "Removed “Milk”", "the undo window survives the restart")
        client.event({"type": "undo"})
        _, _, undone = client.todo()
        check([item["title"] for item in undone["items"]] == ["Milk", "Bread", "Eggs"], f"undo: {undone}")

        print("todo_test: the undo window's timer fires after a restart, without a request")
        client.event({"type": "remove", "item": "t3"})
        server.stop()
        server = start(binary, data)
        client.server = server
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            _, _, state = client.todo()
            if state["undoMessage"] is None:
                break
            time.sleep(0.5)
        check(state["undoMessage"] is None, "the undo window did not close after the restart")
        check([item["title"] for item in state["items"]] == ["Milk", "Bread"], f"items: {state}")
    finally:
        server.stop()


def refused_by_another_app(binary, viewhost, data):
    """An app that does not register the to-do list refuses its store at start (exit 65, the feature named), and
    leaves every session as it was: a session is never dropped silently."""
    print("todo_test: the seed app refuses the to-do store at start, naming the feature; the list stays")
    server = start(binary, data)
    try:
        client = Client(server)
        client.session = client.post("/v1/sessions", {}, expected=201)
        client.event({"type": "add", "title": "Kept"})
        before = client.todo()
    finally:
        server.stop()
    result = subprocess.run([viewhost, "serve", "--port", "0", "--data-dir", data], cwd=data, capture_output=True,
                            text=True, timeout=60)
    check(result.returncode == 65, f"exit {result.returncode}: {result.stderr!r}")
    check("feature 'todo'" in result.stderr and "does not register" in result.stderr, f"stderr: {result.stderr!r}")
    check(len(result.stderr.strip().splitlines()) == 1, f"one line: {result.stderr!r}")
    server = start(binary, data)
    try:
        client.server = server
        check(client.todo()[:2] == before[:2], "the list changed after another app refused the store")
    finally:
        server.stop()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        sys.exit(f"todo_test: FAILED: {failure}")
