"""Debian's chromium, headless, through its chromedriver (Selenium), for the web page's
tests and bench, and a module's table and browser for the tests that play an evening in
order. A machine without chromium fails the tests that need it, with what to install:
`./dev test` installs both on Debian."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from .conftest import PASSWORD
from .running_table import RunningTable

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


def table_and_browser(name: str, settings: str, **browser_options: Any) -> tuple[Any, Any]:
    """A module's two fixtures, `table, browser = table_and_browser(...)`: one simulated
    table serving its page (with `settings`, in a folder named `name`), which must stop
    without a traceback and without the password in its log, and one chromium on its page
    (`browser_options` as `chromium` takes them), both kept for the module's tests."""

    @pytest.fixture(scope="module")
    def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningTable]:
        running = RunningTable(tmp_path_factory.mktemp(name), settings=settings)
        yield running
        assert PASSWORD not in running.stop_without_fault()

    @pytest.fixture(scope="module")
    def browser(table: RunningTable) -> Iterator[WebDriver]:
        driver = chromium(**browser_options)
        driver.get(table.url)
        yield driver
        driver.quit()

    return table, browser
