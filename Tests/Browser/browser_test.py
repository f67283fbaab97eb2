#!/usr/bin/env python3
"""Browser test of the web front-end: headless Chromium drives the page at / like a user.

It starts `viewhost serve --port 0 --simulation-speed 50` (SQLite store in a temporary directory), opens the page, and checks that the page (which renders
only from snapshots and posts only their actions) shows the chat list, creates a chat, sends a message, sees the
bot's reply arrive over the event stream, changes the weather location, and raises no script or CSP errors.
Screenshots go to artifacts/screenshots/ (git-ignored).

With --todo it drives the example app outside the package instead (Examples/Todo's todo-server, which has no page
code of its own): the page draws the to-do list generically from its snapshot, its items as cards with their own
actions as buttons, and an action with a prompt as a button that opens its small form; the test opens the add form,
adds an item through it, toggles the item, clears it and brings it back with undo. (Tests/Browser/layout_test.py
checks the drawing itself at a phone's width and a desktop's.)

Usage: Tests/Browser/browser_test.py [--binary PATH] [--out DIR] [--todo]
Needs: chromium (Debian package), python3 (stdlib only: the DevTools WebSocket client is below).
"""
import argparse, base64, json, os, re, shutil, socket, struct, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class WebSocket:
    """Just enough RFC 6455 for the DevTools protocol: text frames, client masking, 16/64-bit lengths."""

    def __init__(self, url, timeout=30):
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the handshake")
            response += chunk
        if b" 101 " not in response.split(b"\r\n")[0]:
            raise RuntimeError(f"DevTools refused the WebSocket: {response[:200]!r}")
        self.buffer = response.split(b"\r\n\r\n", 1)[1]

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])
        if len(payload) < 126:
            header.append(0x80 | len(payload))
        elif len(payload) < 65536:
            header.append(0x80 | 126)
            header += struct.pack("!H", len(payload))
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            data = self._read(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise RuntimeError("DevTools closed the WebSocket")
            if opcode in (0x9, 0xA):
                continue
            message += data
            if first & 0x80:
                return message.decode()


class Page:
    def __init__(self, socket_):
        self.ws = socket_
        self.next_id = 0
        self.session = None
        self.console_errors = []

    def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._note(reply)

    def _note(self, event):
        method = event.get("method")
        if method == "Runtime.exceptionThrown":
            self.console_errors.append(event["params"]["exceptionDetails"].get("text", "exception"))
        elif method == "Log.entryAdded" and event["params"]["entry"]["level"] == "error":
            self.console_errors.append(event["params"]["entry"]["text"])
        elif method == "Runtime.consoleAPICalled" and event["params"]["type"] == "error":
            self.console_errors.append(str(event["params"]["args"]))

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.evaluate(expression):
                    return
            except RuntimeError:
                pass  # the page is still loading: not yet
            time.sleep(0.1)
        try:
            section = self.evaluate("(document.querySelector('main') || document.body).outerHTML.slice(0, 1500)")
        except RuntimeError:
            section = "(the page cannot be read)"
        raise AssertionError(f"timed out waiting for {what}: {expression}; errors {self.console_errors}; page: {section}")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        print(f"  screenshot {os.path.relpath(path, ROOT)}")


def type_into(page, selector, text):
    page.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.focus(); e.value = {json.dumps(text)};"
                  f" e.dispatchEvent(new Event('input', {{bubbles: true}})); return true; }})()")


def click(page, selector):
    page.wait_for(f"!!document.querySelector({json.dumps(selector)}) && !document.querySelector({json.dumps(selector)}).disabled",
                  f"{selector} to be clickable")
    page.evaluate(f"document.querySelector({json.dumps(selector)}).click(), true")


def click_button(page, section, label):
    """Clicks the enabled button labelled `label` in the feature section `section` (the generic drawing's buttons
    have no ids of their own)."""
    find = (f"[...document.querySelectorAll('#{section} button')]"
            f".find(b => b.textContent === {json.dumps(label)} && !b.disabled)")
    page.wait_for(f"!!{find}", f"the {label} button")
    page.evaluate(f"{find}.click(), true")


def todo_flow(page, out):
    print("browser_test: the to-do list is drawn generically")
    page.wait_for("document.getElementById('status').textContent === 'Live'", "the event stream")
    page.wait_for("document.getElementById('todo-title')?.textContent === 'Todo'", "the to-do section")
    print("browser_test: add an item through the action's form, opened by its button")
    form = "document.getElementById('vh-todo-add-form')"
    page.wait_for(f"!!{form} && {form}.hidden", "the add action's form (from its prompt), closed")
    click_button(page, "todo", "New item…")
    page.wait_for("document.activeElement?.id === 'vh-todo-add-title'", "the add form open, its input focused")
    type_into(page, "#vh-todo-add-title", "Buy milk")
    page.evaluate(f"{form}.querySelector('button[type=submit]').click(), true")
    page.wait_for("[...document.querySelectorAll('#todo .item-title')].some(e => e.textContent === 'Buy milk')", "the new item")
    page.wait_for(f"{form}.hidden", "the add form closed once the item was added")
    print("browser_test: toggle it, clear it, undo")
    click_button(page, "todo", "Toggle")
    page.wait_for("!!document.querySelector('#todo [data-field=done][data-value=true]')", "the item done")
    click_button(page, "todo", "Clear completed")
    page.wait_for("(document.querySelector('#todo [data-field=undoMessage]')?.textContent || '').startsWith('Removed')",
                  "the undo message")
    page.screenshot(os.path.join(out, "todo-01-cleared.png"))
    click_button(page, "todo", "Undo")
    page.wait_for("[...document.querySelectorAll('#todo .item-title')].some(e => e.textContent === 'Buy milk')", "the item back")
    page.screenshot(os.path.join(out, "todo-02-undone.png"))


def history_flow(page, out):
    """The chat's history slider: back to its second version (the list still loading, no Ann), read-only there (the
    section is inert and an action of the past is not posted), then back to live. The stream brought patches."""
    print("browser_test: the chat's history slider shows a past version, read-only, then live again")
    slider = "document.getElementById('vh-history-chat')"
    page.wait_for(f"!!{slider} && Number({slider}.max) >= 4", "the chat's history slider")
    page.evaluate(f"{slider}.focus(), true")  # asks the server for the oldest version held
    page.wait_for(f"Number({slider}.min) === 1", "the oldest version held")
    # (The chat goes on by itself, its bot replying: what must not change is the events the page posted.)
    added = ("fetch(`/v1/sessions/${viewhost.id}/log`).then(r => r.json())"
             ".then(log => log.filter(e => e.event === 'addChat').length)")
    before = page.evaluate(added)
    page.evaluate(f"(() => {{ const s = {slider}; s.value = '2'; s.dispatchEvent(new Event('input', {{bubbles: true}})); return true; }})()")
    page.wait_for("document.getElementById('chat').classList.contains('past')", "the past version drawn")
    page.wait_for("document.getElementById('vh-history-chat-label').textContent.startsWith('Version 2 of')", "the label")
    if "read-only" not in page.evaluate("document.getElementById('vh-history-chat-label').textContent"):
        raise AssertionError("the past is not said to be read-only")
    if page.evaluate("[...document.querySelectorAll('#chat .chats .contact')].some(e => e.textContent === 'Ann')"):
        raise AssertionError("version 2 shows Ann's chat, made later")
    if not page.evaluate("[...document.querySelectorAll('#chat > :not(.history)')].every(e => e.inert)"):
        raise AssertionError("the past version's controls can be used")
    posted = page.evaluate("ViewHost.post(viewhost.history.chat.viewing.snapshot.chatList.actions.addChat)")
    if posted is not False or "read-only" not in page.evaluate("document.getElementById('status').textContent"):
        raise AssertionError(f"an action of the past was posted ({posted})")
    if page.evaluate(added) != before:
        raise AssertionError("an event was posted while the chat's past was shown")
    page.screenshot(os.path.join(out, "04-history.png"))
    click(page, "#vh-history-chat-live")
    page.wait_for("!document.getElementById('chat').classList.contains('past')", "live again")
    page.wait_for("[...document.querySelectorAll('.chats .contact')].some(e => e.textContent === 'Ann')", "Ann back in the list")
    page.wait_for(f"Number({slider}.value) === Number({slider}.max)", "the slider at the newest version")
    if page.evaluate("viewhost.patches") < 1:
        raise AssertionError(f"the stream brought no patch (refetched {page.evaluate('viewhost.refetched')})")


def hostile_text_flow(page, out):
    """Text a user types is drawn so that it cannot break the page: an unbroken 256-character name wraps inside
    its card on a 414 px phone screen (it once stretched every card to 2,592 px), and a right-to-left override in
    a name or a message is isolated, so it reorders only itself."""
    print("browser_test: a 256-character name wraps, and a right-to-left override is isolated")
    long_name = "W" * 256
    override = "\u202eevil"
    page.evaluate("fetch(`/v1/sessions/${viewhost.id}/person/events`, {method: 'POST', headers: {'Content-Type': 'application/json'},"
                  f" body: JSON.stringify({{type: 'setPerson', firstName: {json.dumps(long_name)}, lastName: {json.dumps(override)},"
                  " birthdate: '1990-01-01'})}).then(r => r.status)")
    page.wait_for(f"(document.getElementById('person-name')?.textContent || '').includes({json.dumps(long_name)})",
                  "the long name drawn")
    widths = page.evaluate("[document.documentElement.scrollWidth, ...[...document.querySelectorAll('.card')]"
                           ".map(c => Math.ceil(c.getBoundingClientRect().right))]")
    if max(widths) > 414:
        raise AssertionError(f"the page is wider than the 414 px screen: {widths}")
    unisolated = page.evaluate("[...document.querySelectorAll('.card *')].filter(e => [...e.childNodes].some(n => "
                               "n.nodeType === 3 && n.textContent.includes('\\u202e')) && "
                               "!['isolate', 'plaintext', 'isolate-override'].includes(getComputedStyle(e).unicodeBidi))"
                               ".map(e => e.tagName)")
    if unisolated or not page.evaluate("[...document.querySelectorAll('.card *')].some(e => e.textContent.includes('\\u202e'))"):
        raise AssertionError(f"the right-to-left override is not drawn isolated: {unisolated}")
    page.screenshot(os.path.join(out, "05-hostile-text.png"))


def find_chromium():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not chromium:
        sys.exit("browser_test: chromium is not installed (apt-get install chromium)")
    return chromium


def start_server(binary, arguments, cwd):
    """`binary serve --port 0 ARGUMENTS` in `cwd`; returns the process and its base URL (from the readiness line)."""
    server = subprocess.Popen([os.path.abspath(binary), "serve", "--port", "0", *arguments],
                              cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline().strip()
    # The app's name starts the line: `viewhost`, or `todo-server` for the example (its executable's name).
    name = os.path.basename(binary)
    match = re.match(re.escape(name) + r" listening on (http://\S+)", line)
    if not match:
        server.kill()
        raise AssertionError(f"no readiness line from the server: {line!r}")
    return server, match.group(1)


def start_chromium(chromium, profile):
    """Headless Chromium with its DevTools on a free port; returns the process and the browser's endpoint."""
    browser = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                                f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = browser.stderr.readline()
        found = re.search(r"DevTools listening on (ws://\S+)", line)
        if found:
            return browser, found.group(1)
    browser.kill()
    raise AssertionError("Chromium did not start its DevTools endpoint")


def open_tab(endpoint, url):
    """A new tab of the browser (its default context: the cookies of every tab, each tab its own sessionStorage) on
    its own DevTools connection, 414 px wide like a phone, navigated to `url`."""
    page = Page(WebSocket(endpoint))
    target = page.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
    page.session = page.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        page.call(f"{domain}.enable")
    page.call("Emulation.setDeviceMetricsOverride", {"width": 414, "height": 896, "deviceScaleFactor": 1, "mobile": True})
    page.call("Page.navigate", {"url": url})
    return page


def stop(browser, server):
    if browser:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
    if server:
        server.terminate()
        server.wait(20)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/viewhost"))
    parser.add_argument("--out", default=os.path.join(ROOT, "artifacts/screenshots"))
    parser.add_argument("--todo", action="store_true", help="drive Examples/Todo's server (pass its --binary)")
    args = parser.parse_args()
    chromium = find_chromium()
    os.makedirs(args.out, exist_ok=True)

    # The default store (SQLite), in a directory of its own: the page is driven against the product as it ships.
    data = tempfile.mkdtemp(prefix="viewhost-browser-data-")
    # The example runs in its data directory: the repository's Config/viewhost.json is the seed app's.
    # The chat's simulated partner 50 times faster; the to-do's undo window at its real 5 s.
    speed = [] if args.todo else ["--simulation-speed", "50"]
    profile = tempfile.mkdtemp(prefix="viewhost-chromium-")
    server = browser = None
    try:
        server, base = start_server(args.binary, [*speed, "--data-dir", data], cwd=data if args.todo else ROOT)
        browser, endpoint = start_chromium(chromium, profile)
        page = open_tab(endpoint, base + "/")

        if args.todo:
            todo_flow(page, args.out)
            if page.console_errors:
                raise AssertionError(f"the page logged errors: {page.console_errors}")
            print("browser_test: passed")
            return

        print("browser_test: the chat list loads with John's chat")
        page.wait_for("document.getElementById('status').textContent === 'Live'", "the event stream")
        page.wait_for("[...document.querySelectorAll('.chats .contact')].some(e => e.textContent === 'John')", "John's chat")
        page.screenshot(os.path.join(args.out, "01-chat-list.png"))

        print("browser_test: create a chat with Ann")
        click(page, "[aria-label='New chat']")
        page.wait_for("!!document.getElementById('create-contact')", "the Create Chat screen")
        type_into(page, "#create-contact", "Ann")
        click(page, "#create-button")
        page.wait_for("document.getElementById('chat-title')?.textContent === 'Ann'", "Ann's chat screen")

        print("browser_test: send a message and see the bot reply")
        type_into(page, "#message-text", "Hello Ann!")
        click(page, "#send-button")
        page.wait_for("[...document.querySelectorAll('.messages li.user .text')].some(e => e.textContent === 'Hello Ann!')",
                      "the sent message")
        page.wait_for("document.querySelectorAll('.messages li.other').length > 0", "the bot's reply", timeout=30)
        page.wait_for("[...document.querySelectorAll('.messages li.user .read-status')].some(e => e.textContent === '✓')",
                      "the read receipt", timeout=30)
        page.screenshot(os.path.join(args.out, "02-conversation.png"))

        print("browser_test: back to the list, then change the weather location")
        click(page, "[aria-label='Back']")
        page.wait_for("[...document.querySelectorAll('.chats .contact')].some(e => e.textContent === 'Ann')", "Ann in the list")
        if page.evaluate("!!document.getElementById('weather-location')"):
            page.wait_for("!!document.querySelector('#weather .location')", "the weather card")
            type_into(page, "#weather-location", "Paris")
            click(page, "#weather-submit")
            page.wait_for("document.querySelector('#weather .location').textContent.startsWith('Paris')", "Paris weather")
            # The icon is drawn (SVG), not an emoji that a machine without an emoji font shows as an empty box.
            page.wait_for("!!document.querySelector('#weather .weather-icon svg *')", "the weather icon drawn as SVG")
        page.screenshot(os.path.join(args.out, "03-overview.png"))

        history_flow(page, args.out)
        hostile_text_flow(page, args.out)

        if page.console_errors:
            raise AssertionError(f"the page logged errors: {page.console_errors}")
        print("browser_test: passed")
    finally:
        stop(browser, server)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)

if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        sys.exit(f"browser_test: FAILED: {failure}")
