"""Debian's chromium, headless, through its chromedriver (Selenium), for the web page's
tests and bench. A machine without them fails the tests that need them, with what to
install: `./dev test` installs both on Debian."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

PHONE = (390, 844)  # a phone's viewport, in CSS pixels
WAIT = 30.0  # seconds: only a limit for a page that never changes
SHOTS = os.environ.get("WEB_SCREENSHOTS")
A11Y = (Path(__file__).parent / "a11y.js").read_text()  # contrast and labels: a list of faults


def chromium(
    width: int = 1000, height: int = 1400, languages: str = "en-US,en"
) -> webdriver.Chrome:
    """Chromium, its window `width` x `height`, its reader's `languages` (Accept-Language)."""
    browser = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        raise RuntimeError(
            "chromium and chromium-driver are not installed: ./dev test installs them on Debian"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (
        "--headless=new",
        "--no-sandbox",  # as root in a container; the page is our own
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": languages})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


def until(browser: WebDriver, condition: Callable[[WebDriver], object], what: str) -> object:
    return WebDriverWait(browser, WAIT, poll_frequency=0.05).until(condition, what)


def js(browser: WebDriver, script: str) -> object:
    return browser.execute_script(script)


def shoot(browser: WebDriver, name: str, element: str | None = None) -> None:
    """A screenshot for docs/web.md, with WEB_SCREENSHOTS set: the page from its top, or
    one of its parts."""
    if not SHOTS:
        return
    if element is None:
        browser.execute_script("window.scrollTo(0, 0)")
        browser.save_screenshot(str(Path(SHOTS) / name))
    else:
        browser.find_element(By.ID, element).screenshot(str(Path(SHOTS) / name))


@contextlib.contextmanager
def on_a_phone(browser: WebDriver) -> Iterator[int]:
    """The browser as a phone's, inside; the viewport's width."""
    width, height = PHONE
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
    )
    try:
        yield width
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
