#!/usr/bin/env python3
"""Two people share one shopping list, each in a browser context of their own: headless Chromium against
Examples/SharedList's server (issue 43).

Browser context A (its own cookies and storage, as another browser) opens the page: a new session, whose owner A is.
A makes an invite link on the Participants card. Context B opens that link: the page asks for a name instead of
making a session, and joins A's session under it (the code leaves the address). Both add items and each sees the
other's live, with who added it ("added by you" for their own, the other's name for the other's), and their own
"added by you" count, which differs between them. B ticks A's item and A sees it ticked. The Participants card shows
both online on both pages; B's tab closes and A's card shows B offline.

Usage: Tests/Browser/shared_list_test.py --binary Examples/SharedList/.build/debug/shared-list-server [--out DIR]
Needs: chromium (Debian package), python3 (stdlib only; the DevTools client is browser_test.py's).
"""
import argparse, json, os, shutil, sys, tempfile

from browser_test import ROOT, click, find_chromium, start_chromium, start_server, stop, type_into
from contacts_test import open_context

# How long a change made in one browser may take to show in the other (a busy 2-core machine: the stream, the
# snapshot, the redraw), and how long a closed tab may take to be seen offline.
LIVE, OFFLINE = 30, 45


def item(text):
    """The expression for the list's item whose text is `text` (null when there is none)."""
    return (f"[...document.querySelectorAll('#list-items .list-item')]"
            f".find(e => e.querySelector('.list-text')?.textContent === {json.dumps(text)})")


def shows_item(page, who, text, by, timeout=LIVE):
    page.wait_for(f"{item(text)}?.querySelector('.list-by')?.textContent === {json.dumps('added by ' + by)}",
                  f"{who} shows {text!r} added by {by}", timeout=timeout)


def add(page, text):
    type_into(page, "#list-add-text", text)
    click(page, "#list-add")


def count(page, who, number):
    page.wait_for(f"document.getElementById('list-added-by-you')?.textContent === ' · added by you: {number}'",
                  f"{who}'s added-by-you count {number}", timeout=LIVE)


def presence(page, who, participant, online, timeout=LIVE):
    page.wait_for(f"document.querySelector('#participant-list [data-participant={json.dumps(participant)}]')"
                  f"?.dataset.online === {json.dumps(str(online).lower())}",
                  f"{who} shows {participant} {'online' if online else 'offline'}", timeout=timeout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, "Examples/SharedList/.build/debug/shared-list-server"))
    parser.add_argument("--out", default=os.path.join(ROOT, "artifacts/screenshots"))
    args = parser.parse_args()
    chromium = find_chromium()
    os.makedirs(args.out, exist_ok=True)
    data = tempfile.mkdtemp(prefix="viewhost-shared-list-data-")
    profile = tempfile.mkdtemp(prefix="viewhost-chromium-")
    server = browser = None
    try:
        # In a directory of its own: not the repository's Config/, which holds viewhost's keys.
        server, base = start_server(args.binary, ["--data-dir", data], cwd=data)
        browser, endpoint = start_chromium(chromium, profile)

        print("shared_list_test: A opens the page (a new list, A its owner) and makes an invite link")
        a = open_context(endpoint, base + "/")
        a.wait_for("document.getElementById('status').textContent === 'Live'", "A's event stream")
        a.wait_for("document.getElementById('list-title')?.textContent === 'Shopping list'", "A's list")
        a.wait_for("!document.getElementById('share').hidden", "the owner's invite button")
        click(a, "#share-button")
        a.wait_for("(document.getElementById('share-link')?.value ?? '').includes('/#join=')", "the invite link")
        link = a.evaluate("document.getElementById('share-link').value")
        if not link.startswith(base + "/#join="):
            raise AssertionError(f"the invite link is not the page's with a code: {link}")

        print("shared_list_test: B opens the link in another browser context, gives a name and joins")
        b = open_context(endpoint, link)
        b.wait_for("!!document.getElementById('join-name')", "the join card's name box")
        type_into(b, "#join-name", "Bea")
        click(b, "#join-button")
        b.wait_for("document.getElementById('status').textContent === 'Live'", "B's event stream", timeout=LIVE)
        b.wait_for("document.getElementById('list-title')?.textContent === 'Shopping list'", "B's list")
        id_a, id_b = a.evaluate("viewhost.id"), b.evaluate("viewhost.id")
        if id_a != id_b:
            raise AssertionError(f"B is not in A's session: {id_a}, {id_b}")
        if b.evaluate("location.hash") != "":
            raise AssertionError("the code is still in B's address")
        if b.evaluate("!document.getElementById('share').hidden"):
            raise AssertionError("a member is offered the owner's invite button")
        bea = b.evaluate("ViewHost.viewer().id")
        if not bea or bea == "owner":
            raise AssertionError(f"B's page does not know its participant id: {bea}")

        print("shared_list_test: both are online on both pages")
        for page, who in ((a, "A"), (b, "B")):
            presence(page, who, "owner", True)
            presence(page, who, bea, True)

        print("shared_list_test: each adds items; each sees the other's live, with who added it")
        add(a, "Milk")
        add(b, "Bread")
        add(a, "Eggs")
        shows_item(a, "A", "Milk", "you")
        shows_item(a, "A", "Eggs", "you")
        shows_item(a, "A", "Bread", "Bea")
        shows_item(b, "B", "Milk", "the owner")
        shows_item(b, "B", "Eggs", "the owner")
        shows_item(b, "B", "Bread", "you")
        count(a, "A", 2)
        count(b, "B", 1)
        for page, who in ((a, "A"), (b, "B")):
            page.wait_for("document.getElementById('list-add-text').value === ''", f"{who}'s add box cleared")

        print("shared_list_test: B ticks A's item; A sees it ticked")
        b.evaluate(f"{item('Milk')}.querySelector('input[type=checkbox]').click(), true")
        a.wait_for(f"{item('Milk')}?.classList.contains('done')", "Milk ticked at A", timeout=LIVE)
        a.screenshot(os.path.join(args.out, "shared-list-01-owner.png"))
        b.screenshot(os.path.join(args.out, "shared-list-02-member.png"))

        print("shared_list_test: B closes the page; A sees B offline")
        b.call("Target.closeTarget", {"targetId": b.target}, session=False)
        presence(a, "A", bea, False, timeout=OFFLINE)
        presence(a, "A", "owner", True)
        a.screenshot(os.path.join(args.out, "shared-list-03-offline.png"))

        if a.console_errors:
            raise AssertionError(f"A's page logged errors: {a.console_errors}")
        print("shared_list_test: passed")
    finally:
        stop(browser, server)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        sys.exit(f"shared_list_test: FAILED: {failure}")
