#!/usr/bin/env python3
"""Actionmoji marks on the MapLibre and Leaflet pages in headless Chromium (WebGL through SwiftShader for MapLibre).

  poses_test.py BASE_URL TOKEN MAPLIBRE.png LEAFLET.png

Reads the viewer's layout (each pin names its pose), opens /maplibre.html signed in (393×852 CSS pixels at device
scale 1, no glow) and saves a screenshot; then, centred on each posed friend in turn, looks where that pose's mark
goes, in avatar widths from the friend's centre as the raster pins draw it (the car's body, the plane window's sky,
the first balloon, the second "z"): a pixel there has the mark's colour, and none has with the pose layers hidden.
Then the same on /leaflet.html (the marks in panes of their own, hidden in turn). Exits 0 when that holds for every
posed friend on both pages and all four poses were seen, 1 with a message otherwise.
"""
import base64
import io
import json
import sys
import urllib.request

from PIL import Image
from selenium.webdriver.support.ui import WebDriverWait

import chromium

TIMEOUT = 90
WIDTH, HEIGHT = 393, 852
ZOOM = 15.5    # MapLibre's: friends a few hundred metres apart do not reach each other's marks
CLOSE = 10     # largest per-channel difference that still counts as the mark's colour
REACH = 3      # pixels around a spot searched for the colour (the "z" is a stroke under 3 pixels wide)
# Where each mark is, in avatar widths from the friend's centre (y down), and its colour (PosePainter's).
MARKS = {
    "driving": ((-0.7, 0.34), (229, 72, 77)),
    "flying": ((0.0, -0.64), (178, 220, 255)),
    "birthday": ((-0.95, -0.95), (255, 80, 110)),
    "asleep": ((0.92, -0.78), (58, 74, 140)),
}
POSE_LAYERS = ("friend-poses-behind", "friend-poses")
LEAFLET_ZOOM = 17   # Leaflet's (snapmap's): friends a few hundred metres apart do not reach each other's marks
POSE_PANES = ("posesBehind", "poses")
# Moves Leaflet's camera at once; then the map is waited for until no tile is loading (leaflet_settle).
LEAFLET_CENTRE = "window.map.setView([arguments[1], arguments[0]], arguments[2], {animate: false});"
LEAFLET_SHOW = "for (const name of arguments[1]) window.map.getPane(name).style.display = arguments[0];"
LEAFLET_IDLE = "let loading = false; window.map.eachLayer((layer) => { loading = loading || (layer instanceof L.TileLayer && layer.isLoading()); }); return !loading;"
# Moves the camera; then the map is waited for until idle (settle).
CENTRE = "window.map.jumpTo({center: [arguments[0], arguments[1]], zoom: arguments[2]});"
SHOW = "for (const name of arguments[1]) window.map.setLayoutProperty(name, 'visibility', arguments[0]);"


def fail(message):
    print("poses_test: " + message)
    sys.exit(1)


def settle(driver, script, *arguments):
    """Runs `script` and waits until the map has drawn everything again."""
    driver.execute_script("window.settled = false; window.map.once('idle', () => { window.settled = true; });" + script
                          + "window.map.triggerRepaint();", *arguments)
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.settled"))


def leaflet_settle(driver, script, *arguments):
    """Runs `script` on the Leaflet page and waits until no tile is loading."""
    driver.execute_script(script, *arguments)
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script(LEAFLET_IDLE))


def screen(driver):
    return Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")


def check(pin, spot, colour, shown, hidden, page):
    if not shown or hidden:
        fail(f"{page}: {pin['id']} ({pin['pose']}): the mark's colour {colour} near {spot}: with the marks {shown}, without {hidden}")
    print(f"poses_test: {page}: {pin['id']} {pin['pose']}: the mark's colour {colour} at ({spot[0]:.0f}, {spot[1]:.0f}), gone without the marks")


def leaflet(driver, base, token, posed, screenshot):
    """The marks on the Leaflet page, as on MapLibre's."""
    driver.get(base + "/leaflet.html#token=" + token + "&glow=off")
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.tileStatus && window.tileStatus.friends !== null"))
    leaflet_settle(driver, "")
    screen(driver).save(screenshot)
    width = driver.execute_script("let width = null; window.map.eachLayer((layer) => { if (layer instanceof L.CircleMarker && width === null"
                                  " && layer.options.fillColor === '#0EADFF') width = 2 * layer.getRadius() + layer.options.weight; }); return width;")
    if not width:
        fail("Leaflet: no friend's circle")
    for pin in posed:
        (dx, dy), colour = MARKS[pin["pose"]]
        leaflet_settle(driver, LEAFLET_CENTRE, pin["coordinate"]["lon"], pin["coordinate"]["lat"], LEAFLET_ZOOM)
        x, y = driver.execute_script("const p = window.map.latLngToContainerPoint([arguments[1], arguments[0]]); return [p.x, p.y];",
                                     pin["coordinate"]["lon"], pin["coordinate"]["lat"])
        spot = (x + dx * width, y + dy * width)
        shown = found(screen(driver), spot, colour)
        driver.execute_script(LEAFLET_SHOW, "none", POSE_PANES)
        hidden = found(screen(driver), spot, colour)
        driver.execute_script(LEAFLET_SHOW, "", POSE_PANES)
        check(pin, spot, colour, shown, hidden, "Leaflet")


def picture(driver):
    data = driver.execute_script("return document.querySelector('#map canvas').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1]))).convert("RGB")


def found(image, at, colour):
    """Whether a pixel within REACH of `at` is within CLOSE of `colour`."""
    x0, y0 = round(at[0]), round(at[1])
    for y in range(y0 - REACH, y0 + REACH + 1):
        for x in range(x0 - REACH, x0 + REACH + 1):
            if 0 <= x < image.width and 0 <= y < image.height and max(abs(a - b) for a, b in zip(image.getpixel((x, y)), colour)) <= CLOSE:
                return True
    return False


def main():
    base, token, screenshot, leaflet_screenshot = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], sys.argv[4]
    request = urllib.request.Request(base + "/v1/me/layout.json", headers={"Authorization": "Bearer " + token})
    layout = json.load(urllib.request.urlopen(request))
    posed = [pin for pin in layout["pins"] if pin["visible"] and not pin.get("groupId") and pin["pose"] in MARKS]
    if {pin["pose"] for pin in posed} != set(MARKS):
        fail(f"the layout's posed friends: {[(pin['id'], pin['pose']) for pin in posed]}")
    driver = chromium.start(600)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        driver.get(base + "/maplibre.html#token=" + token + "&glow=off")
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.mapStatus && window.mapStatus.idle"))
        errors = driver.execute_script("return window.mapStatus.errors")
        if errors:
            fail("MapLibre reported errors: " + "; ".join(errors[:5]))
        picture(driver).save(screenshot)
        paint = driver.execute_script("return window.map.getStyle().layers.find((layer) => layer.id === 'friends').paint")
        width = 2 * (paint["circle-radius"] + paint["circle-stroke-width"])
        for pin in posed:
            (dx, dy), colour = MARKS[pin["pose"]]
            settle(driver, CENTRE, pin["coordinate"]["lon"], pin["coordinate"]["lat"], ZOOM)
            x, y = driver.execute_script("const p = window.map.project([arguments[0], arguments[1]]); return [p.x, p.y];", pin["coordinate"]["lon"],
                                         pin["coordinate"]["lat"])
            spot = (x + dx * width, y + dy * width)
            shown = found(picture(driver), spot, colour)
            settle(driver, SHOW, "none", POSE_LAYERS)
            hidden = found(picture(driver), spot, colour)
            settle(driver, SHOW, "visible", POSE_LAYERS)
            check(pin, spot, colour, shown, hidden, "MapLibre")
        leaflet(driver, base, token, posed, leaflet_screenshot)
    finally:
        driver.quit()
    print(f"poses_test: all four poses marked on both pages ({len(posed)} posed friends)")


if __name__ == "__main__":
    main()
