#!/usr/bin/env python3
"""Browser test of the web viewer in headless Chromium (Debian chromium, chromium-driver, python3-selenium).

  viewer_test.py BASE_URL SCREENSHOT.png SAM_TOKEN JORDAN_TOKEN

Opens the viewer signed in as Sam (#token=…), taps Jordan at the point the layout gives, waits for the card,
checks it names Jordan Lee, saves a screenshot; moves Jordan with curl, as his phone would, and waits for the
open viewer to receive the event and redraw without a reload; turns Sam's Footsteps on, steps him where the map is
and checks the Footsteps button tints streets in the frame; then opens the Leaflet page and checks that its
tiles load with no failed request.
Exits 0 when everything holds, 1 with a message otherwise.
"""
import json
import subprocess
import sys
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import chromium

TIMEOUT = 60
# The frame the page shows, as pixels: kept (SAVE_PIXELS), or compared with the kept ones (CHANGED_PIXELS counts the
# pixels that differ by more than 8 in a channel).
FRAME_PIXELS = """
const img = document.getElementById('frame'), canvas = document.createElement('canvas');
canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
const context = canvas.getContext('2d');
context.drawImage(img, 0, 0);
const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
"""
SAVE_PIXELS = FRAME_PIXELS + "window.savedPixels = data; return data.length;"
CHANGED_PIXELS = FRAME_PIXELS + """
let count = 0;
for (let i = 0; i < data.length; i += 4) {
  if ([0, 1, 2].some((c) => Math.abs(data[i + c] - window.savedPixels[i + c]) > 8)) count++;
}
return count;
"""


def fail(message):
    print("viewer_test: " + message)
    sys.exit(1)


def main():
    base, screenshot, token, jordan_token = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], sys.argv[4]
    driver = chromium.start(520, webgl=False)
    try:
        driver.get(base + "/#token=" + token)
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        request = urllib.request.Request(base + "/v1/me/layout.json", headers={"Authorization": "Bearer " + token})
        layout = json.load(urllib.request.urlopen(request))
        jordan = next(p for p in layout["pins"] if p["id"] == "jordan")
        rect = jordan["avatarRect"]
        x, y = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
        area = driver.find_element(By.ID, "map")
        size = area.size
        ActionChains(driver).move_to_element_with_offset(area, x * size["width"] / 393 - size["width"] / 2,
                                                         y * size["height"] / 852 - size["height"] / 2).click().perform()
        WebDriverWait(driver, TIMEOUT).until(lambda d: "open" in d.find_element(By.ID, "card").get_attribute("class"))
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        # The card opens before its selected layout has come back and filled it: wait for the name, not the class.
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.find_element(By.ID, "card-name").text != "")
        name = driver.find_element(By.ID, "card-name").text
        seen = driver.find_element(By.ID, "card-seen").text
        driver.save_screenshot(screenshot)
        if name != "Jordan Lee":
            fail("the card names %r, not Jordan Lee" % name)
        if not seen.endswith("m ago"):
            fail("the card says %r, not minutes ago" % seen)

        driver.find_element(By.ID, "card-chat").click()
        WebDriverWait(driver, TIMEOUT).until(lambda d: "open" in d.find_element(By.ID, "chat").get_attribute("class"))
        if driver.find_element(By.ID, "chat-name").text != "Jordan Lee":
            fail("the chat sheet names %r" % driver.find_element(By.ID, "chat-name").text)
        if driver.find_element(By.ID, "chat").get_attribute("data-link") != "snapchat://chat/jordan":
            fail("the chat links %r" % driver.find_element(By.ID, "chat").get_attribute("data-link"))
        if driver.find_element(By.ID, "chat-input").get_attribute("placeholder") != "Send a Chat":
            fail("no composer")
        # The sheet slides up (a CSS transition): until it has arrived, the point Selenium clicks may be the thread's.
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return document.getElementById('chat').getAnimations().length === 0"))
        driver.find_element(By.ID, "chat-close").click()

        before = driver.execute_script("return document.getElementById('frame').src")
        subprocess.run(["curl", "-sf", "-X", "PUT", "-H", "Authorization: Bearer " + jordan_token, "--data",
                        '{"lat": 40.7152, "lon": -73.9661, "accuracyMeters": 8}', base + "/v1/me/location"], check=True)
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.liveEvents") >= 1)
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return document.getElementById('frame').src") != before)

        # Footsteps: Sam keeps them and steps where the map is; the button redraws his frame with the streets near that
        # place tinted (pixels change), and off again as it was.
        auth = ["-H", "Authorization: Bearer " + token]
        lat, lon = driver.execute_script("return window.frameCenter")
        subprocess.run(["curl", "-sf", "-X", "PUT", *auth, "--data", '{"on": true}', base + "/v1/me/footsteps"], check=True, capture_output=True)
        subprocess.run(["curl", "-sf", "-X", "PUT", *auth, "--data", json.dumps({"lat": lat, "lon": lon, "accuracyMeters": 8}),
                        base + "/v1/me/location"], check=True)
        kept = json.load(urllib.request.urlopen(urllib.request.Request(base + "/v1/me/footsteps", headers={"Authorization": "Bearer " + token})))
        if kept["places"] < 1:
            fail("footsteps: Sam's step was not kept: %r" % kept)
        driver.execute_script(SAVE_PIXELS)
        driver.find_element(By.ID, "footsteps-toggle").click()
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.frameLayers") == "base,footsteps,heat,pins")
        tinted = driver.execute_script(CHANGED_PIXELS)
        if tinted < 50 or driver.find_element(By.ID, "footsteps-toggle").get_attribute("aria-pressed") != "true":
            fail("footsteps: the button changed %d pixels of the frame" % tinted)
        driver.find_element(By.ID, "footsteps-toggle").click()
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.frameLayers") == "base,heat,pins")
        untinted = driver.execute_script(CHANGED_PIXELS)
        if untinted > 20:
            fail("footsteps: with the layer off again, %d pixels still differ from the frame before" % untinted)

        driver.get(base + "/leaflet.html")
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.tileStatus && window.tileStatus.layersLoaded >= 2"))
        status = driver.execute_script("return window.tileStatus")
        if status["failed"] != 0 or status["loaded"] == 0:
            fail("Leaflet tiles: %r" % status)
        print("viewer_test: card names %s (%s); Chat opens the conversation; a move redrew the open viewer; Footsteps tinted %d pixels; Leaflet loaded %d tiles, %d failed" % (name, seen, tinted, status["loaded"], status["failed"]))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
