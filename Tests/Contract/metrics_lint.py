"""`/metrics` passes Prometheus' own linter: starts viewhost, makes requests that fill every kind of series
(a session, events, a 404, a 405, a 401), then pipes the exposition through `promtool check metrics`.

    python3 Tests/Contract/metrics_lint.py --binary .build/debug/viewhost [--promtool promtool]
"""
import argparse
import json
import subprocess
import sys

from viewhost_server import ViewHostServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--promtool", default="promtool")
    arguments = parser.parse_args()
    with ViewHostServer(arguments.binary) as server:
        _, _, body = server.request("POST", "/v1/sessions", body=b"{}", headers={"Content-Type": "application/json"})
        session = json.loads(body)
        auth = {"Authorization": f"Bearer {session['token']}", "Content-Type": "application/json"}
        base = f"/v1/sessions/{session['id']}"
        server.request("POST", f"{base}/chat/events", body=b'{"type":"addChat"}', headers=auth)
        server.request("POST", f"{base}/chat/events", body=b'{"type":"nope"}', headers=auth)
        server.request("GET", f"{base}/chat", headers=auth)
        server.request("GET", f"{base}/chat")
        server.request("PUT", f"{base}/chat", headers=auth)
        server.request("GET", "/no-such-thing")
        status, _, metrics = server.request("GET", "/metrics")
    if status != 200:
        print(f"metrics_lint: /metrics answered {status}", file=sys.stderr)
        return 1
    result = subprocess.run([arguments.promtool, "check", "metrics"], input=metrics, capture_output=True)
    output = (result.stdout + result.stderr).decode(errors="replace").strip()
    if result.returncode != 0:
        print(f"metrics_lint: promtool check metrics exited {result.returncode}:\n{output}", file=sys.stderr)
        return 1
    print(f"metrics_lint: promtool check metrics passed ({len(metrics)} bytes){': ' + output if output else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
