"""Schemathesis hooks for ViewHost: a fresh session per generated case (loaded by SCHEMATHESIS_HOOKS).

Every case gets a session of its own, created on the server under test (VIEWHOST_BASE), so what one case does
(a DELETE, 100 events, an open stream) never changes what the next one sees. Its token goes in the
`Authorization` header and its id in the `{id}` path parameter of operations that have one.
"""
import json
import os
import urllib.request

import schemathesis

BASE = os.environ["VIEWHOST_BASE"]


def create_session():
    request = urllib.request.Request(
        BASE + "/v1/sessions", data=b"{}", method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


@schemathesis.auth(refresh_interval=None)
class FreshSession:
    """No caching: `get` runs once per case, so each case has its own session."""

    def get(self, case, context):
        return create_session()

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data['token']}"
        if case.path_parameters is not None and "id" in case.path_parameters:
            case.path_parameters["id"] = data["id"]


@schemathesis.hook
def map_query(context, query):
    """Long polls wait at most 1 s here (the server takes up to 60): the same code path, and a bounded run.

    A generated `wait=60` on a fresh session that never changes would hold the case for a minute.
    """
    if query and "wait" in query:
        try:
            if float(query["wait"]) > 1:
                query["wait"] = 1
        except (TypeError, ValueError):
            pass
    return query
