#!/usr/bin/python3
"""The report in a real browser: renders pages in headless Chromium through
chromedriver (Debian's chromium and chromium-driver), waits for them to
load, fails on any image that did not load or a page without its expected
text, and saves a screenshot of each.

usage: tests/browser.py SCREENSHOT_DIR PAGE.html:expected text[|more text] ...
Prints "ok"/"FAIL" lines and "browser: N passed, N failed"; exits 1 on a
failure. A page given as !PAGE must fail (the checker's own negative test).
"""
import base64, json, os, socket, subprocess, sys, time, urllib.request

passed = failed = 0


def check(what, cond):
    global passed, failed
    if cond:
        passed += 1
        print("ok   - " + what)
    else:
        failed += 1
        print("FAIL - " + what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Driver:
    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen(["chromedriver", "--port=%d" % self.port],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % self.port
        for _ in range(100):
            try:
                if self.call("GET", "/status")["value"].get("ready"):
                    break
            except OSError:
                pass
            time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1800", "--hide-scrollbars"]}}}}
        self.sid = self.call("POST", "/session", caps)["value"]["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.load(r)

    def js(self, script):
        return self.call("POST", "/session/%s/execute/sync" % self.sid,
                         {"script": script, "args": []})["value"]

    def close(self):
        try:
            self.call("DELETE", "/session/" + self.sid)
        finally:
            self.proc.kill()


def render(d, path, shot):
    """(images, broken images, body text) of a page, after it loaded."""
    d.call("POST", "/session/%s/url" % d.sid, {"url": "file://" + os.path.abspath(path)})
    for _ in range(100):
        if d.js("return document.readyState") == "complete":
            break
        time.sleep(0.1)
    images = d.js("return document.images.length")
    broken = d.js("return Array.from(document.images).filter(i => !i.complete || "
                  "i.naturalWidth === 0).map(i => i.getAttribute('src'))")
    text = d.js("return document.body ? document.body.innerText : ''")
    png = base64.b64decode(d.call("GET", "/session/%s/screenshot" % d.sid)["value"])
    with open(shot, "wb") as f:
        f.write(png)
    return images, broken, text, len(png)


def main():
    shots = sys.argv[1]
    os.makedirs(shots, exist_ok=True)
    d = Driver()
    try:
        for arg in sys.argv[2:]:
            page, _, want = arg.partition(":")
            negative = page.startswith("!")
            page = page.lstrip("!")
            name = os.path.basename(page)
            shot = os.path.join(shots, name.replace(".html", ".png"))
            images, broken, text, size = render(d, page, shot)
            good = not broken and all(w in text for w in want.split("|") if w)
            if negative:
                check("%s: the checker notices its missing image (%s)" % (name, broken), not good)
                continue
            check("%s: rendered, %d bytes of screenshot in %s" % (name, size, shot), size > 20000)
            check("%s: every one of its %d images loaded%s" % (name, images,
                  "" if not broken else " (not: %s)" % ", ".join(broken)), not broken)
            for w in want.split("|"):
                if w:
                    check("%s: shows '%s'" % (name, w), w in text)
    finally:
        d.close()
    print("browser: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
