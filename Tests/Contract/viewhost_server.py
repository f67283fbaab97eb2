"""Starts `viewhost serve` (or another app on the library: `todo-server serve`) on 127.0.0.1, port 0, memory store,
and stops it by pid (stdlib only). The readiness line starts with the app's name, its executable's unless given.

    with ViewHostServer(binary) as server:
        status, headers, body = server.request("GET", "/healthz")
"""
import http.client
import os
import re
import select
import signal
import subprocess
import time

def readiness(name):
    """The readiness line of the app named `name`: `NAME listening on http://HOST:PORT` (or https)."""
    return re.compile(re.escape(name) + r" listening on (https?)://([^:]+):(\d+)")


class ViewHostServer:
    def __init__(self, binary, *extra, environment=None, cwd=None, name=None):
        self.binary = binary
        self.ready = readiness(name or os.path.basename(binary))
        self.extra = list(extra)
        self.environment = environment or {}
        self.cwd = cwd
        self.process = None
        self.port = None
        self.base = None

    def __enter__(self):
        env = dict(os.environ)
        env.update(self.environment)
        self.process = subprocess.Popen(
            [self.binary, "serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory", *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=self.cwd, text=True)
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 1)
            if ready:
                line = self.process.stdout.readline()
                match = self.ready.match(line)
                if match:
                    self.port = int(match.group(3))
                    self.base = f"{match.group(1)}://127.0.0.1:{self.port}"
                    return self
                if not line:
                    break
        self.stop()
        raise RuntimeError(f"{self.binary} did not become ready: {line!r} {self.process.stderr.read()[:500]}")

    def __exit__(self, *_):
        self.stop()

    def stop(self):
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()
