#!/usr/bin/env python3
"""Two tabs of one browser, each on its own session, then a reload: headless Chromium against the real server.

Tab A opens the page and gets a session; tab B (same browser: the same cookies, its own sessionStorage) opens it and
gets another. Each changes its person through the page, A again after B came (before a cookie per session, B's
session cookie replaced A's and A's posts got 404), and neither sees the other's. Both sessions are held by the
browser (the page reads their `viewhost_held_ID` markers; the tokens stay in HttpOnly cookies it cannot read), and
B's session picker lists both. Then A is reloaded: it finds its own session again, its state intact.

Usage: Tests/Browser/tabs_test.py [--binary PATH]
Needs: chromium (Debian package), python3 (stdlib only; the DevTools client is browser_test.py's).
"""
import argparse, json, os, shutil, sys, tempfile

from browser_test import ROOT, click, find_chromium, open_tab, start_chromium, start_server, stop, type_into


def live(page, what):
    page.wait_for("document.getElementById('status').textContent === 'Live'", f"{what}'s event stream")
    page.wait_for("!!document.getElementById('person-name')", f"{what}'s person card")
    return page.evaluate("viewhost.id")


def rename(page, first, last):
    """Replaces the person through the page's form, and waits until the snapshot that comes back shows it."""
    type_into(page, "#person-first", first)
    type_into(page, "#person-last", last)
    click(page, "#person-save")
    page.wait_for(f"document.getElementById('person-name').textContent.includes({json.dumps(f'{first} {last}')})",
                  f"{first} {last} drawn")


def name(page):
    return page.evaluate("document.getElementById('person-name').textContent")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/viewhost"))
    args = parser.parse_args()
    chromium = find_chromium()
    data = tempfile.mkdtemp(prefix="viewhost-tabs-data-")
    profile = tempfile.mkdtemp(prefix="viewhost-chromium-")
    server = browser = None
    try:
        server, base = start_server(args.binary, ["--data-dir", data], cwd=ROOT)
        browser, endpoint = start_chromium(chromium, profile)

        print("tabs_test: tab A opens the page")
        a = open_tab(endpoint, base + "/")
        id_a = live(a, "tab A")
        print("tabs_test: tab B opens the page and gets a session of its own")
        b = open_tab(endpoint, base + "/")
        id_b = live(b, "tab B")
        if not id_a or id_a == id_b:
            raise AssertionError(f"the tabs share a session: {id_a} and {id_b}")

        print("tabs_test: each tab acts on its own session, A again after B came")
        rename(a, "Ada", "Alpha")
        rename(b, "Bea", "Beta")
        rename(a, "Ada", "Again")
        if "Beta" in name(a) or "Alpha" in name(b) or "Again" in name(b):
            raise AssertionError(f"a tab shows the other's person: A {name(a)!r}, B {name(b)!r}")
        for tab, own in ((a, id_a), (b, id_b)):
            versions = tab.evaluate(f"fetch('/v1/sessions/{own}').then(r => r.json()).then(s => s.features.person.version)")
            if versions != (3 if own == id_a else 2):
                raise AssertionError(f"session {own} has person version {versions}")

        print("tabs_test: the browser holds both sessions; no script can read a token")
        cookies = a.evaluate("document.cookie")
        for own in (id_a, id_b):
            if f"viewhost_held_{own}=1" not in cookies:
                raise AssertionError(f"no marker of session {own} in {cookies!r}")
        if "viewhost_session" in cookies:
            raise AssertionError(f"a token's cookie is readable by the page: {cookies!r}")
        b.wait_for(f"[...document.querySelectorAll('#sessions option')].map(o => o.value).includes({json.dumps(id_a)})"
                   f" && document.getElementById('sessions').value === {json.dumps(id_b)}", "B's picker listing both")

        print("tabs_test: tab A is reloaded and finds its session again")
        a.call("Page.reload")
        a.wait_for(f"viewhost.id === {json.dumps(id_a)}", "A's own session after the reload")
        live(a, "tab A, reloaded")
        a.wait_for("document.getElementById('person-name').textContent.includes('Ada Again')", "A's state after the reload")
        rename(a, "Ada", "Reloaded")
        if "Beta" not in name(b):
            raise AssertionError(f"B's person changed with A's: {name(b)!r}")

        errors = a.console_errors + b.console_errors
        if errors:
            raise AssertionError(f"the pages logged errors: {errors}")
        print("tabs_test: passed")
    finally:
        stop(browser, server)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        sys.exit(f"tabs_test: FAILED: {failure}")
