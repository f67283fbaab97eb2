#!/usr/bin/env bash
# A walk through the chat feature with curl, as a front-end would drive it (API.md).
#
# Start a server whose simulated delays run 50 times faster, then point this script at its port:
#
#   viewhost serve --simulation-speed 50 --port 8080 &
#   scripts/walkthrough.sh 8080
#
# Each step prints the request it makes and the part of the answer that changed. Waiting is done the way a
# client should: a long poll (`?wait=SECONDS` with `If-None-Match`) that returns as soon as the snapshot changes.
set -euo pipefail

PORT="${1:-8080}"
BASE="http://127.0.0.1:${PORT}"
command -v curl >/dev/null || { echo "walkthrough: curl is needed" >&2; exit 1; }
command -v python3 >/dev/null || { echo "walkthrough: python3 is needed" >&2; exit 1; }

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '   $ %s\n' "$*"; }

# field JSON PYTHON-EXPRESSION: evaluates an expression over the parsed document `d`, prints it as JSON.
field() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(json.dumps(eval(sys.argv[2]), ensure_ascii=False))' "$1" "$2"; }
# pretty PYTHON-EXPRESSION: reads JSON on stdin and pretty-prints the part the expression selects.
pretty() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(eval(sys.argv[1]), ensure_ascii=False))' "$1" | python3 -m json.tool --no-ensure-ascii; }

step "0. Is the server up?"
show "curl $BASE/healthz"
curl -fsS "$BASE/healthz" | python3 -m json.tool

step "1. Create a session (POST /v1/sessions): an id, a token, and links to every feature"
show "curl -X POST $BASE/v1/sessions"
SESSION_JSON=$(curl -fsS -X POST "$BASE/v1/sessions")
echo "$SESSION_JSON" | python3 -m json.tool
ID=$(field "$SESSION_JSON" 'd["id"]' | tr -d '"')
TOKEN=$(field "$SESSION_JSON" 'd["token"]' | tr -d '"')
AUTH=(-H "Authorization: Bearer ${TOKEN}")
CHAT="$BASE/v1/sessions/$ID/chat"

# chat: the current chat snapshot.
chat() { curl -fsS "${AUTH[@]}" "$CHAT"; }
# post JSON: posts events to the chat feature and prints the 202 answer.
post() {
    show "curl -X POST $CHAT/events -H 'Content-Type: application/json' -d '$1'"
    curl -fsS -X POST "${AUTH[@]}" -H 'Content-Type: application/json' -d "$1" "$CHAT/events"
    echo
}
# until_chat PYTHON-CONDITION: reads the chat snapshot until the condition over `d` holds. Between reads it
# long-polls: `?wait=5` with the snapshot's ETag in `If-None-Match` is held until the next change (or 5 s).
until_chat() {
    local body etag headers
    headers=$(mktemp)
    for _ in $(seq 1 20); do
        body=$(curl -fsS -D "$headers" "${AUTH[@]}" "$CHAT")
        if [ "$(field "$body" "bool($1)")" = "true" ]; then
            rm -f "$headers"
            echo "$body"
            return 0
        fi
        etag=$(grep -i '^etag:' "$headers" | cut -d' ' -f2 | tr -d '\r')
        show "curl '$CHAT?wait=5' -H 'If-None-Match: $etag'   (held until the snapshot changes)" >&2
        curl -sS -o /dev/null -w '     -> %{http_code} after %{time_total} s\n' "${AUTH[@]}" -H "If-None-Match: $etag" "$CHAT?wait=5" >&2
    done
    rm -f "$headers"
    echo "walkthrough: gave up waiting for: $1" >&2
    exit 1
}

step "2. The chat list: a spinner while loading, then John's conversation (0.5 s simulated)"
show "curl $CHAT"
until_chat 'len(d["chatList"]["chats"]) == 1' | pretty '{"badge": d["badge"], "navigation": d["navigation"], "chatList": d["chatList"]["chats"]}'

step "3. Open John's chat (the snapshot's itemTapped action): his message is read, the badge drops to 0"
post '{"type":"openChat","contact":"John"}'
chat | pretty '{"badge": d["badge"], "navigation": d["navigation"], "messages": d["conversations"]["John"]["messages"]}'

step "4. Send a message: \"Sending...\" at once, then its date once sent"
post '{"type":"send","text":"Hey John"}'
chat | pretty 'd["conversations"]["John"]["messages"][-1]'

step "5. Wait for John's read receipt (✓) and his reply"
until_chat 'len(d["conversations"]["John"]["messages"]) >= 3 and d["conversations"]["John"]["messages"][1]["readStatus"] == "✓"' \
    | pretty '[(m["sentBy"], m["message"], m["sendStatus"], m["readStatus"]) for m in d["conversations"]["John"]["messages"]]'

step "6. Back to the list, then add a chat with Ann (spinner while the simulated server creates it)"
post '[{"type":"back"},{"type":"addChat"},{"type":"create","contact":"Ann"}]'
chat | pretty '{"navigation": d["navigation"], "createChat": d["createChat"]}'
until_chat 'd["navigation"][-1].get("contact") == "Ann"' | pretty '{"navigation": d["navigation"], "Ann": d["conversations"]["Ann"]["messages"]}'

step "7. Write to Ann; once it is sent, go back (two chats now) and leave the app"
# The bot says goodbye only for a conversation it is still replying in, within 30 s of the user's last message
# (0.6 s at --simulation-speed 50): Ann's has just started, so go back and leave as soon as the message is sent.
post '{"type":"send","text":"Hi Ann"}'
until_chat 'd["conversations"]["Ann"]["messages"][-1]["sendStatus"] != "Sending..."' \
    | pretty 'd["conversations"]["Ann"]["messages"][-1]'
post '[{"type":"back"},{"type":"appResignActive"}]'
chat | pretty '{"navigation": d["navigation"], "chats": [c["contact"] for c in d["chatList"]["chats"]]}'

step "8. Ann says goodbye through a push notification (3-12 s simulated)"
SALUTES='["OK, bye", "Sure, see ya 👍", "ttyl 😎", "Nice talking to you again"]'
until_chat "any(n['title'] == 'Ann' and n['body'] in $SALUTES for n in d['notifications'])" \
    | pretty '[{k: n[k] for k in ("title", "subtitle", "body", "badge", "shown")} for n in d["notifications"]]'

step "9. Tap the notification: Ann's chat opens again, holding the goodbye"
post '{"type":"notificationTap","contact":"Ann"}'
chat | pretty '{"navigation": d["navigation"], "messages": [m["message"] for m in d["conversations"]["Ann"]["messages"]]}'

step "10. The data-flow log: why the snapshot changed (source, causedBy)"
show "curl $BASE/v1/sessions/$ID/log"
curl -fsS "${AUTH[@]}" "$BASE/v1/sessions/$ID/log" \
    | pretty '["%3d %-9s %-22s causedBy=%s %s" % (e["seq"], e["source"], e["event"], "-" if e["causedBy"] is None else e["causedBy"], e["summary"]) for e in d[-12:]]'

step "11. Delete the session"
show "curl -X DELETE $BASE/v1/sessions/$ID"
curl -fsS -o /dev/null -w '%{http_code}\n' -X DELETE "${AUTH[@]}" "$BASE/v1/sessions/$ID"
show "curl $CHAT   (now 404)"
curl -sS -o /dev/null -w '%{http_code}\n' "${AUTH[@]}" "$CHAT"
