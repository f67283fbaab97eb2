#!/usr/bin/env python3
"""Two people, each in a browser context of their own, become contacts through the page and chat: headless Chromium
against the real server (issue 42).

Browser context A (its own cookies and storage, as another browser profile) logs in as Alice; the People card starts
her invitation's name from the login, and she makes an invitation: its code is shown once, with a Copy button, and is
in no snapshot. Context B logs in as Bob, tries a wrong code (the server's sentence is shown), then redeems Alice's
code under his name. From there on it is the chat's: each chat list shows the other under the name they gave (the
test waits for it there, and says so when it does not come), Alice writes to Bob, Bob opens the chat and answers, and
Alice's message shows the read mark once Bob opened it.

Usage: Tests/Browser/contacts_test.py [--binary PATH] [--out DIR]
Needs: chromium (Debian package), python3 (stdlib only; the DevTools client is browser_test.py's).
"""
import argparse, json, os, shutil, sys, tempfile

from browser_test import (ROOT, Page, WebSocket, click, find_chromium, start_chromium, start_server, stop,
                          type_into)


# The names each gives (the login takes 6 to 24 characters), under which the other's chat list shows them.
ALICE, BOB = "Alice Adams", "Bob Brown"


def open_context(endpoint, url):
    """A tab in a new browser context of its own (no cookies, storage or cache shared with any other), 414 px wide
    like a phone, on its own DevTools connection, navigated to `url`."""
    page = Page(WebSocket(endpoint))
    context = page.call("Target.createBrowserContext", {"disposeOnDetach": True}, session=False)["browserContextId"]
    target = page.call("Target.createTarget", {"url": "about:blank", "browserContextId": context},
                       session=False)["targetId"]
    page.target = target  # (to close the tab: shared_list_test.py's member leaves)
    page.session = page.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        page.call(f"{domain}.enable")
    page.call("Emulation.setDeviceMetricsOverride", {"width": 414, "height": 896, "deviceScaleFactor": 1, "mobile": True})
    page.call("Page.navigate", {"url": url})
    return page


def text(page, selector):
    return page.evaluate(f"document.querySelector({json.dumps(selector)})?.textContent ?? ''")


def log_in(page, who, name):
    page.wait_for("document.getElementById('status').textContent === 'Live'", f"{who}'s event stream")
    page.wait_for("!!document.getElementById('people')", f"{who}'s People card (a feature that takes contacts)")
    # The password right after the username, as a person tabs on: each field's edits are posted (a debounce per field;
    # one shared by both dropped the username's post).
    type_into(page, "#login-username", name)
    type_into(page, "#login-password", "secret99")
    page.wait_for(f"viewhost.snapshots.login?.username === {json.dumps(name)}", f"{who}'s username posted")
    page.wait_for("viewhost.snapshots.login?.passwordValid === true", f"{who}'s password posted")
    click(page, "#login-button")
    page.wait_for("viewhost.snapshots.login?.instructionKey === 'login.succeeded'", f"{who} logged in")


def chat_lists(page, who, contact):
    """Waits until `who`'s chat list shows `contact`: where the page's part ends and the chat's begins."""
    try:
        page.wait_for(f"[...document.querySelectorAll('.chats .contact')].some(e => e.textContent === {json.dumps(contact)})",
                      f"{contact} in {who}'s chat list", timeout=30)
    except AssertionError as failure:
        raise AssertionError(f"the contact was made, but {who}'s chat list does not show {contact}: the chat does not"
                             f" take contacts (yet)? {failure}") from None


def message_shown(page, kind, message, what, timeout=20):
    page.wait_for(f"[...document.querySelectorAll('.messages li.{kind} .text')].some(e => e.textContent === {json.dumps(message)})",
                  what, timeout=timeout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/viewhost"))
    parser.add_argument("--out", default=os.path.join(ROOT, "artifacts/screenshots"))
    args = parser.parse_args()
    chromium = find_chromium()
    os.makedirs(args.out, exist_ok=True)
    data = tempfile.mkdtemp(prefix="viewhost-contacts-data-")
    profile = tempfile.mkdtemp(prefix="viewhost-chromium-")
    server = browser = None
    try:
        server, base = start_server(args.binary, ["--simulation-speed", "50", "--data-dir", data], cwd=ROOT)
        browser, endpoint = start_chromium(chromium, profile)

        print("contacts_test: A and B open the page, each in a browser context of its own")
        a = open_context(endpoint, base + "/")
        b = open_context(endpoint, base + "/")
        log_in(a, "A", ALICE)
        log_in(b, "B", BOB)
        id_a, id_b = a.evaluate("viewhost.id"), b.evaluate("viewhost.id")
        if id_a == id_b or f"viewhost_held_{id_a}" in b.evaluate("document.cookie"):
            raise AssertionError(f"the two contexts share a session or its cookie: {id_a}, {id_b}")

        print("contacts_test: A invites; the name starts from her login, the code is shown once")
        a.wait_for(f"document.getElementById('invite-name').value === {json.dumps(ALICE)}", "the invitation's name from the login")
        click(a, "#invite-button")
        a.wait_for("!document.getElementById('invite-result').hidden && document.getElementById('invite-code').textContent.length >= 16",
                   "the invitation's code")
        code = text(a, "#invite-code")
        if not a.evaluate("document.activeElement?.id === 'invite-copy'"):
            raise AssertionError("the Copy button is not focused once the code is shown")
        click(a, "#invite-copy")
        a.wait_for("document.getElementById('status').textContent.startsWith('Cop')"
                   " || document.getElementById('status').textContent.startsWith('The code is copied')", "the copy said")
        if code in a.evaluate("JSON.stringify(viewhost.snapshots)"):
            raise AssertionError("the invitation's code is in a snapshot")
        a.screenshot(os.path.join(args.out, "contacts-01-invitation.png"))

        print("contacts_test: B tries a wrong code (the server's sentence shown), then redeems A's")
        b.wait_for(f"document.getElementById('redeem-name').value === {json.dumps(BOB)}", "the redeemer's name from the login")
        type_into(b, "#redeem-code", "not-a-code")
        click(b, "#redeem-button")
        b.wait_for("!document.getElementById('redeem-error').hidden"
                   " && document.getElementById('redeem-error').textContent.includes('not the code of any invitation')",
                   "the 404's sentence")
        # (Chromium logs the refused request as an error of its own: that one was asked for.)
        b.console_errors = [error for error in b.console_errors if "status of 404" not in error]
        type_into(b, "#redeem-code", code)
        click(b, "#redeem-button")
        b.wait_for(f"document.getElementById('redeem-done').textContent === {json.dumps(ALICE + ' is now a contact.')}",
                   "the contact made")
        if not b.evaluate("document.getElementById('redeem-error').hidden"):
            raise AssertionError("the earlier error is still shown")
        b.screenshot(os.path.join(args.out, "contacts-02-redeemed.png"))

        print("contacts_test: each chat list shows the other (the chat's part from here on)")
        chat_lists(b, "B", ALICE)
        chat_lists(a, "A", BOB)

        print("contacts_test: A writes to Bob")
        click(a, f"[aria-label='Open chat with {BOB}']")
        a.wait_for(f"document.getElementById('chat-title')?.textContent === {json.dumps(BOB)}", "A's chat with Bob")
        type_into(a, "#message-text", "Hello Bob!")
        click(a, "#send-button")
        message_shown(a, "user", "Hello Bob!", "A's message")
        if a.evaluate("[...document.querySelectorAll('.messages li.user .read-status')].some(e => e.textContent === '✓')"):
            raise AssertionError("A's message shows read before Bob opened the chat")

        print("contacts_test: B opens the chat, reads it and answers; A sees the answer and the read mark")
        click(b, f"[aria-label='Open chat with {ALICE}']")
        b.wait_for(f"document.getElementById('chat-title')?.textContent === {json.dumps(ALICE)}", "B's chat with Alice")
        message_shown(b, "other", "Hello Bob!", "A's message at B")
        a.wait_for("[...document.querySelectorAll('.messages li.user .read-status')].some(e => e.textContent === '✓')",
                   "the read mark on A's message", timeout=30)
        type_into(b, "#message-text", "Hi Alice!")
        click(b, "#send-button")
        message_shown(b, "user", "Hi Alice!", "B's message")
        message_shown(a, "other", "Hi Alice!", "B's answer at A", timeout=30)
        a.screenshot(os.path.join(args.out, "contacts-03-chat-a.png"))
        b.screenshot(os.path.join(args.out, "contacts-04-chat-b.png"))

        errors = a.console_errors + b.console_errors
        if errors:
            raise AssertionError(f"the pages logged errors: {errors}")
        print("contacts_test: passed")
    finally:
        stop(browser, server)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        sys.exit(f"contacts_test: FAILED: {failure}")
