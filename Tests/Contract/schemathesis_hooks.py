"""Schemathesis hooks for ViewHost: a fresh session per generated case (loaded by SCHEMATHESIS_HOOKS).

Every case gets a session of its own, created on the server under test (VIEWHOST_BASE), so what one case does
(a DELETE, 100 events, an open stream) never changes what the next one sees. Its token goes in the
`Authorization` header and its id in the `{id}` path parameter of operations that have one.

The routes of a shared session get live values too, made for the case in its session (unless the case is one whose
path is wrong on purpose): `{code}` a join invitation's code made just now (so it is not used up: a join is 201, not
the 404 of a made-up code), `{participant}` the id of someone who joined just now (a removal is 204), and
`{invitationId}` a join invitation's id (a withdrawal is 204).
"""
import json
import os
import urllib.request

import schemathesis
from schemathesis.core.parameters import ParameterLocation

BASE = os.environ["VIEWHOST_BASE"]


def post(path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def create_session():
    return post("/v1/sessions", {})


def join_invitation(session):
    """A new join invitation of `session` (the default: every feature that can be shared, one use): id and code."""
    return post(f"/v1/sessions/{session['id']}/invitations", {"purpose": "join"}, token=session["token"])


def live_path_values(case, session):
    """The live values of the path parameters of a shared session's routes that `case` has, made in `session`."""
    parameters = case.path_parameters or {}
    values = {}
    if "code" in parameters:
        values["code"] = join_invitation(session)["code"]
    if "invitationId" in parameters:
        values["invitationId"] = join_invitation(session)["id"]
    if "participant" in parameters:
        joined = post(f"/v1/invitations/{join_invitation(session)['code']}", {"name": "Schemathesis"})
        values["participant"] = joined["participant"]["id"]
    return values


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
        # A path made wrong on purpose (a negative case) stays as generated: the server must refuse it.
        if case.path_parameters and not (case.meta and case.meta.is_negative_at(ParameterLocation.PATH)):
            case.path_parameters.update(live_path_values(case, data))


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
