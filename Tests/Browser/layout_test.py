#!/usr/bin/env python3
"""The page at a phone's width (414 px) and a desktop's (1280 px), in headless Chromium, with screenshots.

Three things are drawn at both widths and checked to be usable, not only inspectable:
- Examples/Todo's to-do list (todo-server, no page code of its own: the page's generic drawing): each item a card
  of at most about two lines at 414 px (the debug view drew 286 px), with at most three controls and no open form;
  a prompt's form opens on demand, started from the item's title, and Escape closes it; a 200-character title
  wraps inside its card and a right-to-left override in it is isolated.
- A retrospective board (the shape of issue 45's: three columns of cards, seven actions each, a vote deadline),
  drawn by the same generic drawing from a sample snapshot: its columns side by side at 1280 px and stacked at
  414 px, each card with two actions and a "More" menu, the deadline as a local time (the browser's zone set to
  Asia/Tokyo, so the UTC afternoon shows as the next day's night).
- The seed app (viewhost) with its features' own renderers, and each of its snapshots drawn generically too, none
  wider than the phone.
Screenshots go to artifacts/screenshots/ (git-ignored): todo-phone.png, todo-desktop.png, board-phone.png,
board-desktop.png, seed-phone.png, seed-desktop.png. docs/screenshots/ holds copies, updated by hand.

Usage: Tests/Browser/layout_test.py --binary .build/debug/viewhost --todo-binary PATH/todo-server [--out DIR]
Needs: chromium, python3 (stdlib only; the DevTools client is browser_test.py's).
"""
import argparse, json, os, shutil, sys, tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import ROOT, find_chromium, open_tab, start_chromium, start_server, stop  # noqa: E402

PHONE = {"width": 414, "height": 896, "deviceScaleFactor": 1, "mobile": True}
DESKTOP = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}


def resize(page, metrics):
    page.call("Emulation.setDeviceMetricsOverride", metrics)
    page.wait_for(f"window.innerWidth === {metrics['width']}", f"the page {metrics['width']} px wide")


def fits(page, width, what):
    widths = page.evaluate("[document.documentElement.scrollWidth, ...[...document.querySelectorAll('.card:not([hidden])')]"
                           ".map(c => Math.ceil(c.getBoundingClientRect().right))]")
    if max(widths) > width:
        raise AssertionError(f"{what} is wider than the {width} px screen: {widths}")


# For each card of a list (selector), its height, its controls that can be seen (buttons and "More") and the inputs
# that can be seen.
CARDS = """(selector => [...document.querySelectorAll(selector)].map(card => {
  const seen = e => e.checkVisibility({visibilityProperty: true});
  return {height: Math.round(card.getBoundingClientRect().height),
          controls: [...card.querySelectorAll('button, summary')].filter(seen).map(b => b.textContent),
          inputs: [...card.querySelectorAll('input')].filter(seen).length};
}))"""


def cards(page, selector):
    return page.evaluate(f"{CARDS}({json.dumps(selector)})")


def todo(page, out):
    print("layout_test: Examples/Todo, drawn generically")
    page.wait_for("document.getElementById('status').textContent === 'Live'", "the event stream")
    page.wait_for("!!viewhost.snapshots.todo", "the to-do list")
    for title in ["Buy milk", "Walk the dog", "Write the report"]:
        if not page.evaluate(f"ViewHost.post(viewhost.snapshots.todo.actions.add, {{title: {json.dumps(title)}}})"):
            raise AssertionError(f"adding {title} was refused")
        page.wait_for(f"document.getElementById('todo').textContent.includes({json.dumps(title)})", f"{title} drawn")
    page.evaluate("ViewHost.post(viewhost.snapshots.todo.items[0].actions.toggle)")
    page.wait_for("viewhost.snapshots.todo.items[0].done === true", "the first item done (its snapshot)")

    drawn = cards(page, "#todo li")
    print(f"  414 px: items {[card['height'] for card in drawn]} px tall, controls {drawn[0]['controls']}")
    for card in drawn:
        if card["height"] > 100 or len(card["controls"]) > 3 or card["inputs"]:
            raise AssertionError(f"a to-do item at 414 px is not a compact card: {card}")
    fits(page, 414, "the to-do list")
    # Its done is a checkmark; its title the card's headline.
    page.wait_for("!!document.querySelector('#todo [data-id=t1] [data-field=done][data-value=true] .check.on')"
                  " && document.querySelector('#todo [data-id=t1] .item-title')?.textContent === 'Buy milk'",
                  "the first item drawn done")

    print("layout_test: the rename form opens on demand, from the item's title; Escape closes it")
    page.evaluate("document.getElementById('vh-todo-items-t2-edit-button').click(), true")
    page.wait_for("document.activeElement?.id === 'vh-todo-items-t2-edit-title'"
                  " && document.activeElement.value === 'Walk the dog'", "the form open, its input started from the title")
    page.screenshot(os.path.join(out, "todo-phone.png"))
    page.evaluate("document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true})), true")
    page.wait_for("document.getElementById('vh-todo-items-t2-edit-form').hidden"
                  " && document.activeElement?.id === 'vh-todo-items-t2-edit-button'", "the form closed")

    resize(page, DESKTOP)
    drawn = cards(page, "#todo li.item")
    print(f"  1280 px: items {[card['height'] for card in drawn]} px tall")
    if any(card["height"] > 70 for card in drawn):
        raise AssertionError(f"a to-do item at 1280 px is more than one row: {drawn}")
    fits(page, 1280, "the to-do list")
    page.screenshot(os.path.join(out, "todo-desktop.png"))

    print("layout_test: a 200-character title wraps in its card at 414 px; a right-to-left override is isolated")
    resize(page, PHONE)
    hostile = "W" * 195 + "\u202eevil"
    if not page.evaluate(f"ViewHost.post(viewhost.snapshots.todo.actions.add, {{title: {json.dumps(hostile)}}})"):
        raise AssertionError("adding the long title was refused")
    page.wait_for(f"[...document.querySelectorAll('#todo .item-title')].some(e => e.textContent === {json.dumps(hostile)})",
                  "the long title drawn")
    fits(page, 414, "the to-do list with a 200-character title")
    unisolated = page.evaluate("[...document.querySelectorAll('#todo *')].filter(e => [...e.childNodes].some(n => "
                               "n.nodeType === 3 && n.textContent.includes('\\u202e')) && "
                               "!['isolate', 'plaintext', 'isolate-override'].includes(getComputedStyle(e).unicodeBidi))"
                               ".map(e => e.tagName)")
    if unisolated:
        raise AssertionError(f"the right-to-left override is not drawn isolated: {unisolated}")
    page.evaluate("ViewHost.post(viewhost.snapshots.todo.items[3].actions.remove)")
    page.wait_for("document.querySelectorAll('#todo li.item').length === 3", "the long title removed")


def board_snapshot():
    """A retrospective board as issue 45's user wrote it: three columns, each card with seven actions (two of them
    disabled), a column's prompt to add a card, the board's actions, and the vote deadline as RFC 3339 UTC."""
    def action(event, enabled=True, prompt=None, **fields):
        body = {"type": event, **fields}
        described = {"method": "POST", "href": "/v1/sessions/sample/board/events", "body": body, "enabled": enabled}
        if prompt:
            described["prompt"] = {"title": prompt[0], "submit": prompt[1]}
        return described

    def card(id, text, author, votes, column):
        return {"id": id, "text": text, "author": author, "votes": votes, "createdAt": "2026-03-12T09:05:00Z",
                "actions": {"vote": action("vote", card=id), "unvote": action("unvote", votes > 0, card=id),
                            "edit": action("edit", prompt=("Edit card", "Save"), card=id, text="{text}"),
                            "moveLeft": action("move", column > 0, card=id, to="left"),
                            "moveRight": action("move", column < 2, card=id, to="right"),
                            "pin": action("pin", card=id), "remove": action("remove", card=id)}}

    columns = [("well", "Went well", [("c1", "Deploys took minutes, not hours", "Ann", 3),
                                      ("c2", "Pairing on the importer", "Raj", 1)]),
               ("improve", "To improve", [("c3", "Flaky browser tests", "Mia", 4)]),
               ("actions", "Action items", [("c4", "Write the runbook for restores", "Ann", 0),
                                            ("c5", "A dashboard for queue depth", "Raj", 2)])]
    return {"feature": "board", "version": 12, "title": "Sprint 14 retrospective",
            "voteDeadline": "2026-03-12T16:30:00Z", "votingOpen": True, "votesLeft": 2,
            "columns": [{"id": id, "title": title, "cards": [card(*entry, index) for entry in entries],
                         "actions": {"addCard": action("addCard", prompt=("Add a card", "Add"), column=id, text="{text}")}}
                        for index, (id, title, entries) in enumerate(columns)],
            "actions": {"closeVoting": action("closeVoting"), "export": action("export")}}


def board(page, out):
    print("layout_test: a retrospective board (a sample snapshot) drawn generically")
    page.call("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    page.call("Emulation.setLocaleOverride", {"locale": "en-US"})
    page.evaluate(f"""(() => {{
      document.getElementById('todo').hidden = true;
      const section = ViewHost.el('section', {{id: 'board', class: 'card', 'aria-labelledby': 'board-title'}});
      section.append(ViewHost.el('div', {{}}, ViewHost.generic({json.dumps(board_snapshot())})));
      document.getElementById('features').append(section);
      return true;
    }})()""")
    deadline = page.evaluate("(() => { const t = document.querySelector('#board [data-field=voteDeadline] time');"
                             " return t && [t.getAttribute('datetime'), t.title, t.textContent]; })()")
    if not deadline or deadline[0] != "2026-03-12T16:30:00Z" or deadline[1] != deadline[0] \
            or not deadline[2].startswith("Mar 13, 2026") or "1:30" not in deadline[2]:
        raise AssertionError(f"the vote deadline is not drawn as a local time (Asia/Tokyo): {deadline}")
    print(f"  the deadline 2026-03-12T16:30:00Z reads {deadline[2]!r} in Asia/Tokyo")

    for metrics, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        resize(page, metrics)
        boxes = page.evaluate("[...document.querySelectorAll('#board .column')].map(c => c.getBoundingClientRect())"
                              ".map(r => [Math.round(r.left), Math.round(r.top), Math.round(r.bottom)])")
        if len(boxes) != 3:
            raise AssertionError(f"the board has {len(boxes)} columns, not 3")
        side_by_side = all(b[1] == boxes[0][1] and b[0] > a[0] for a, b in zip(boxes, boxes[1:]))
        stacked = all(b[1] >= a[2] for a, b in zip(boxes, boxes[1:]))
        arranged = "side by side" if name == "desktop" else "stacked"
        if not (side_by_side if name == "desktop" else stacked):
            raise AssertionError(f"the board's columns at {metrics['width']} px are not {arranged}: {boxes}")
        drawn = cards(page, "#board li.item")
        for card in drawn:
            if len(card["controls"]) > 3 or card["inputs"] or card["height"] > 200:
                raise AssertionError(f"a board card at {metrics['width']} px is not compact: {card}")
        print(f"  {metrics['width']} px: columns {arranged},"
              f" cards {[card['height'] for card in drawn]} px tall, controls {drawn[0]['controls']}")
        fits(page, metrics["width"], "the board")
        page.screenshot(os.path.join(out, f"board-{name}.png"))

    print("layout_test: a card's seventh action, from its More menu, opens its form with the card's text")
    page.evaluate("document.querySelector('#vh-board-columns-well-cards-c1-more summary').click(), true")
    page.evaluate("document.getElementById('vh-board-columns-well-cards-c1-edit-button').click(), true")
    page.wait_for("document.activeElement?.id === 'vh-board-columns-well-cards-c1-edit-text'"
                  " && document.activeElement.value === 'Deploys took minutes, not hours'"
                  " && !document.getElementById('vh-board-columns-well-cards-c1-more').open",
                  "the edit form, the menu closed")
    page.evaluate("document.getElementById('board').remove(), document.getElementById('todo').hidden = false, true")


def seed(page, out):
    print("layout_test: the seed app, its features' own renderers")
    page.wait_for("document.getElementById('status').textContent === 'Live'", "the event stream")
    page.wait_for("[...document.querySelectorAll('.chats .contact')].some(e => e.textContent === 'John')", "John's chat")
    page.wait_for("!!document.querySelector('#weather .location')", "the weather card")
    fits(page, 414, "the seed page")
    page.screenshot(os.path.join(out, "seed-phone.png"))
    # Each seed snapshot drawn generically as well (a feature's renderer aside): real shapes, none wider than a phone.
    widths = page.evaluate("""(() => Object.values(viewhost.snapshots).map(snapshot => {
      const section = ViewHost.el('section', {class: 'card'}, ViewHost.generic(snapshot));
      document.getElementById('features').append(section);
      const width = Math.ceil(Math.max(section.getBoundingClientRect().right, document.documentElement.scrollWidth));
      section.remove();
      return [snapshot.feature, width];
    }))()""")
    print(f"  each seed snapshot drawn generically at 414 px: {widths}")
    if len(widths) < 4 or any(width > 414 for _, width in widths):
        raise AssertionError(f"a seed snapshot drawn generically does not fit 414 px: {widths}")
    resize(page, DESKTOP)
    fits(page, 1280, "the seed page")
    page.screenshot(os.path.join(out, "seed-desktop.png"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/viewhost"))
    parser.add_argument("--todo-binary", required=True, help="Examples/Todo's todo-server")
    parser.add_argument("--out", default=os.path.join(ROOT, "artifacts/screenshots"))
    args = parser.parse_args()
    chromium = find_chromium()
    os.makedirs(args.out, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="viewhost-chromium-")
    data = [tempfile.mkdtemp(prefix="viewhost-layout-data-") for _ in range(2)]
    browser = todo_server = seed_server = None
    try:
        browser, endpoint = start_chromium(chromium, profile)
        # The example runs in its data directory (the repository's Config/viewhost.json is the seed app's).
        todo_server, todo_base = start_server(args.todo_binary, ["--data-dir", data[0]], cwd=data[0])
        page = open_tab(endpoint, todo_base + "/")
        todo(page, args.out)
        board(page, args.out)
        seed_server, seed_base = start_server(args.binary, ["--data-dir", data[1]], cwd=ROOT)
        # Cookies do not tell ports apart: without this, the seed page's session picker would ask the seed server
        # for the to-do server's session (a 404, logged by the browser).
        page.call("Storage.clearCookies", {}, session=False)
        seed_page = open_tab(endpoint, seed_base + "/")
        seed(seed_page, args.out)
        errors = page.console_errors + seed_page.console_errors
        if errors:
            raise AssertionError(f"the page logged errors: {errors}")
        print("layout_test: passed")
    finally:
        stop(browser, todo_server)
        stop(None, seed_server)
        for directory in [profile, *data]:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        sys.exit(f"layout_test: FAILED: {failure}")
