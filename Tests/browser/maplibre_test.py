#!/usr/bin/env python3
"""MapLibre GL JS drawing snapmap's vector tiles in headless Chromium (WebGL through SwiftShader), compared with
snapmap's own raster frame of the same viewport.

  maplibre_test.py BASE_URL RASTER.png SCREENSHOT.png [TOKEN]

Opens /maplibre.html at the raster frame's viewport (393×852 CSS pixels at device scale 1) without the glow,
waits until the map is idle with no error, reads the WebGL canvas, and samples both pictures on a 6-pixel
grid: where the raster frame shows water, land or park (its colour within a small distance of the style's),
the MapLibre picture must show the same class. Prints the agreement and exits 0 when it is at least 95%.
It also checks that Williamsburg's subway stations are marked and named at z15.5 (Bedford Av, Lorimer St, Marcy Av).
With a token it also checks that the friends' GeoJSON source shows the viewer's pins.
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
STEP = 6
CLOSE = 12  # largest per-channel difference that still counts as a style colour
GOAL = 0.95


def fail(message):
    print("maplibre_test: " + message)
    sys.exit(1)


def colour(text):
    """rgba(r,g,b,a) as an (r, g, b) tuple."""
    return tuple(int(float(part)) for part in text[text.index("(") + 1:-1].split(",")[:3])


def classify(pixel, classes):
    for name, reference in classes.items():
        if max(abs(a - b) for a, b in zip(pixel[:3], reference)) <= CLOSE:
            return name
    return None


def draw(driver, url):
    """Opens the page, waits until MapLibre has drawn everything, and returns the WebGL canvas as an image."""
    driver.get("about:blank")
    driver.get(url)
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.execute_script("return window.mapStatus && window.mapStatus.idle"))
    errors = driver.execute_script("return window.mapStatus.errors")
    if errors:
        fail("MapLibre reported errors: " + "; ".join(errors[:5]))
    data = driver.execute_script("return document.querySelector('#map canvas').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1]))).convert("RGB")


def main():
    base, raster_path, screenshot = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    token = sys.argv[4] if len(sys.argv) > 4 else None
    style = json.load(urllib.request.urlopen(base + "/styles/snapmap.json"))
    paints = {layer["id"]: layer.get("paint", {}) for layer in style["layers"]}
    classes = {name: colour(paints[name]["fill-color"]) for name in ("water", "land", "parks")}
    driver = chromium.start(600)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        picture = draw(driver, base + "/maplibre.html#glow=off")
        picture.save(screenshot)
        if picture.size != (WIDTH, HEIGHT):
            fail(f"the canvas is {picture.size}, expected {(WIDTH, HEIGHT)}")
        names = driver.execute_script(
            "return window.map.queryRenderedFeatures({layers: ['place-names-neighbourhood', 'place-names-park', 'place-names-water']})"
            ".map((feature) => feature.properties.name)")
        if "Williamsburg" not in names or "East River" not in names:
            fail(f"place names drawn with the server's glyphs: {sorted(set(names))}")
        print(f"maplibre_test: place names drawn: {', '.join(sorted(set(names)))}")
        draw(driver, base + "/maplibre.html#lat=40.7135&lon=-73.9545&zoom=15.5&glow=off")
        stations = driver.execute_script(
            "return window.map.queryRenderedFeatures({layers: ['station-names']}).map((feature) => feature.properties.name)")
        marks = driver.execute_script("return window.map.queryRenderedFeatures({layers: ['stations']}).length")
        if not {"Bedford Av", "Lorimer St", "Marcy Av"} <= set(stations) or marks < 3:
            fail(f"Williamsburg's stations at z15.5: {marks} marks, names {sorted(set(stations))}")
        print(f"maplibre_test: {marks} station marks, names drawn: {', '.join(sorted(set(stations)))}")
        if token:
            draw(driver, base + "/maplibre.html#token=" + token)
            shown = driver.execute_script("return window.map.querySourceFeatures('friends').length")
            if shown < 1:
                fail("the friends source shows no pins")
            print(f"maplibre_test: {shown} friends and groups shown")
    finally:
        driver.quit()
    raster = Image.open(raster_path).convert("RGB")
    if raster.size != (WIDTH, HEIGHT):
        fail(f"the raster frame is {raster.size}, expected {(WIDTH, HEIGHT)}")
    sampled = agreed = 0
    counts = {name: 0 for name in classes}
    for y in range(STEP // 2, HEIGHT, STEP):
        for x in range(STEP // 2, WIDTH, STEP):
            expected = classify(raster.getpixel((x, y)), classes)
            if expected is None:
                continue
            sampled += 1
            counts[expected] += 1
            agreed += classify(picture.getpixel((x, y)), classes) == expected
    if min(counts.values()) == 0:
        fail(f"the frame does not show every class: {counts}")
    share = agreed / sampled
    print(f"maplibre_test: {agreed} of {sampled} sampled water/land/park points agree ({share:.1%}); sampled {counts}")
    if share < GOAL:
        fail(f"agreement {share:.1%} is under {GOAL:.0%}")


if __name__ == "__main__":
    main()
