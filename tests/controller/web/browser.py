"""Debian's chromium, headless, through its chromedriver (Selenium), for the web page's
tests and bench. A machine without them fails the tests that need them, with what to
install: `./dev test` installs both on Debian."""

from __future__ import annotations

import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PHONE = (390, 844)  # a phone's viewport, in CSS pixels


def chromium(width: int = 1000, height: int = 1400) -> webdriver.Chrome:
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
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))
