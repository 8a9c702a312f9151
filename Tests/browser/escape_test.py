#!/usr/bin/env python3
"""Every page writes what people write as text, forbids inline script and keeps the token to itself, in headless
Chromium (Debian chromium, chromium-driver, python3-selenium).

  escape_test.py BASE_URL TOKEN TAP_ID

The viewer (TOKEN) has friends whose names are markup (an <img> whose onerror runs script and fetches
/stolen?<the address's fragment>, and a <b>). On the viewer (tapping TAP_ID to open its card), the Leaflet page and
the MapLibre page, each opened at #token=…, it checks: the names show as text and no element made from them is in
the document; no script of theirs ran; the page answers with a Content-Security-Policy under which an inline
script does not run and the page itself breaks no rule; the address no longer holds the token once the page has
read it, and no storage does; and, from Chromium's network log and the page's resource timings, the token went
nowhere but the Authorization header of the server's own /v1/me/ requests.
Exits 0 when everything holds, 1 with a message otherwise.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import chromium

TIMEOUT = 90
# Runs before any script of the page: records the page's Content-Security-Policy violations.
RECORD_VIOLATIONS = ("window.cspViolations = []; document.addEventListener('securitypolicyviolation', "
                     "(event) => window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));")
# Elements a name's markup would make (tiles, the frame and the map's own images all have a real src).
MARKUP_SELECTOR = "[onerror], b, i, img:not([src]):not(#frame), img[src=''], img[src='x']"


def fail(page, message):
    print(f"escape_test: {page}: {message}")
    sys.exit(1)


def network(driver):
    """The requests Chromium sent since the last call: (url, headers) each, headers merged from both CDP events."""
    requests = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message.get("method") == "Network.requestWillBeSent":
            request = requests.setdefault(params["requestId"], {"url": "", "headers": {}})
            request["url"] = params["request"]["url"]
            request["headers"].update(params["request"].get("headers", {}))
        elif message.get("method") == "Network.requestWillBeSentExtraInfo":
            requests.setdefault(params["requestId"], {"url": "", "headers": {}})["headers"].update(params.get("headers", {}))
    return list(requests.values())


def check_token_kept(driver, page, base, token):
    """The token is in no address, storage, URL sent or header but the Authorization of the server's /v1/me/."""
    href = driver.execute_script("return location.href")
    if token in href or "token=" in href:
        fail(page, f"the address still holds the token after load: {href}")
    stored = driver.execute_script("return JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), history.state])")
    if token in stored:
        fail(page, "the token is kept in storage or history state")
    resources = driver.execute_script("return performance.getEntriesByType('resource').map((entry) => entry.name)")
    authorized = 0
    for request in network(driver) + [{"url": url, "headers": {}} for url in resources]:
        if token in request["url"] or "/stolen" in request["url"]:
            fail(page, f"the token or a name's script reached a URL: {request['url'][:120]}")
        for name, value in request["headers"].items():
            if token not in value:
                continue
            if name.lower() != "authorization" or value != "Bearer " + token or not request["url"].startswith(base + "/v1/me/"):
                fail(page, f"the token went to {request['url'][:120]} in {name}")
            authorized += 1
    if authorized == 0:
        fail(page, "no request carried the token in its Authorization header (the page did not sign in)")
    return authorized


def check_csp(driver, page):
    """The page broke no rule of its policy, and an inline script added to it does not run."""
    violations = driver.execute_script("return window.cspViolations")
    if violations is None:
        fail(page, "the violation recorder did not run")
    if violations:
        fail(page, "the page itself breaks its Content-Security-Policy: " + "; ".join(violations[:5]))
    driver.execute_script("const script = document.createElement('script'); script.textContent = 'window.inlineRan = true';"
                          "document.head.appendChild(script);")
    if driver.execute_script("return window.inlineRan === true"):
        fail(page, "an inline script ran: the page has no Content-Security-Policy forbidding it")


def check_no_markup(driver, page):
    if driver.execute_script("return window.pwned !== undefined"):
        fail(page, "a friend's name ran script (window.pwned is set)")
    made = driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.outerHTML)", MARKUP_SELECTOR)
    if made:
        fail(page, f"{len(made)} elements made from a friend's name: {' '.join(made)[:200]}")


def open_page(driver, base, path):
    driver.get("about:blank")
    network(driver)
    driver.get(base + path)


def main():
    base, token, tap_id = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    driver = chromium.start(520, performance_log=True)
    wait = WebDriverWait(driver, TIMEOUT)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
        # The viewer: the map, then a tap on the friend whose full name is markup opens their card.
        open_page(driver, base, "/#token=" + token)
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        pins = json.load(urllib.request.urlopen(urllib.request.Request(base + "/v1/me/layout.json", headers={"Authorization": "Bearer " + token})))
        pin = next(p for p in pins["pins"] if p["id"] == tap_id)
        rect, area = pin["avatarRect"], driver.find_element(By.ID, "map")
        x, y = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
        ActionChains(driver).move_to_element_with_offset(area, x * area.size["width"] / 393 - area.size["width"] / 2,
                                                         y * area.size["height"] / 852 - area.size["height"] / 2).click().perform()
        wait.until(lambda d: "open" in d.find_element(By.ID, "card").get_attribute("class"))
        shown = driver.execute_script("const name = document.getElementById('card-name'); return [name.textContent, name.children.length]")
        if shown != [pin["name"], 0]:
            fail("/", f"the card shows {shown!r}, not the name {pin['name']!r} as text")
        check_no_markup(driver, "/")
        sent = check_token_kept(driver, "/", base, token)
        check_csp(driver, "/")
        print(f"escape_test: viewer: the card names {pin['name']!r} as text; the token went only in Authorization ({sent} requests)")

        # Leaflet: a tooltip per pin and group, each label as text.
        expected = [g["labelText"] for g in pins["groups"] if g["visible"]] + [p["labelText"] for p in pins["pins"] if p["visible"] and not p.get("groupId")]
        open_page(driver, base, "/leaflet.html#token=" + token)
        wait.until(lambda d: d.execute_script("return document.querySelectorAll('.leaflet-tooltip').length") >= len(expected))
        labels = driver.execute_script("return [...document.querySelectorAll('.leaflet-tooltip')].map((t) => t.textContent)")
        markup = [text for text in expected if "<" in text]
        if len(markup) < 2 or any(text not in labels for text in markup):
            fail("/leaflet.html", f"the tooltips read {labels!r}; expected the markup labels {markup!r} as text")
        check_no_markup(driver, "/leaflet.html")
        sent = check_token_kept(driver, "/leaflet.html", base, token)
        check_csp(driver, "/leaflet.html")
        print(f"escape_test: Leaflet: {len(labels)} tooltips as text, {', '.join(markup)} among them; the token went only in Authorization ({sent})")

        # MapLibre: the friends' labels are text fields drawn on the canvas; other parameters of the address stay.
        open_page(driver, base, "/maplibre.html#token=" + token + "&glow=off")
        wait.until(lambda d: d.execute_script("return window.mapStatus && window.mapStatus.idle"))
        labels = driver.execute_script("return window.map.querySourceFeatures('friends').map((f) => f.properties.label)")
        if any(text not in labels for text in markup):
            fail("/maplibre.html", f"the friends source reads {labels!r}; expected {markup!r}")
        errors = driver.execute_script("return window.mapStatus.errors")
        if errors:
            fail("/maplibre.html", "MapLibre reported errors: " + "; ".join(errors[:5]))
        if driver.execute_script("return location.hash") != "#glow=off":
            fail("/maplibre.html", "the address lost its other parameters: " + driver.execute_script("return location.hash"))
        check_no_markup(driver, "/maplibre.html")
        sent = check_token_kept(driver, "/maplibre.html", base, token)
        check_csp(driver, "/maplibre.html")
        print(f"escape_test: MapLibre: {len(labels)} labels drawn as text fields; the token went only in Authorization ({sent})")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
