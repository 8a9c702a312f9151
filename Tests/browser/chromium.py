"""The headless Chromium every browser test drives: one way to start it (chromedriver from Debian, WebGL through
SwiftShader where the page needs it, device scale 1)."""

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start(width, webgl=True, performance_log=False):
    """A Chromium `width` px wide and 1000 px tall; with `webgl`, drawing WebGL on SwiftShader, else without a GPU."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    graphics = ("--use-angle=swiftshader", "--enable-unsafe-swiftshader") if webgl else ("--disable-gpu",)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *graphics,
                     f"--window-size={width},1000", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    if performance_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
