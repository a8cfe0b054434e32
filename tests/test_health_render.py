"""The site-health page in a real browser (Chromium through Playwright, as the crawl renders): its
table and plots are laid out with a size and drawn, and a screenshot of it is not blank.

NEWSCRAWL_HEALTH_SCREENSHOT=docs/site-health.png also saves the screenshot of the page's top (the
picture in docs/operations.md).
"""
from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from healthruns import write_history
from newscrawl.health.__main__ import main
from newscrawl.render.plan import DEFAULT_BROWSER_PATH

# Skipped without Chromium, failed instead with NEWSCRAWL_REQUIRE_CHROMIUM=1 (CI sets it; conftest.py).
pytestmark = pytest.mark.needs_browser
VIEWPORT = {"width": 1100, "height": 620}

# Distinct colours and the share of pixels that are not the page's white, counted by the browser
# itself from a PNG (no image library needed).
COUNT_PIXELS = """async (png) => {
    const image = new Image();
    image.src = "data:image/png;base64," + png;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    const colours = new Set();
    let inked = 0;
    for (let i = 0; i < data.length; i += 4) {
        colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        if (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200) inked++;
    }
    return {colours: colours.size, inked: inked / (data.length / 4)};
}"""

# Every polyline of an SVG with its drawn length and its first and last point (y grows downwards).
LINES = """svg => [...svg.querySelectorAll("polyline")].map(line => {
    const length = line.getTotalLength();
    const first = line.getPointAtLength(0), last = line.getPointAtLength(length);
    return {length, firstY: first.y, lastY: last.y};
})"""


@pytest.fixture
def report(tmp_path) -> Path:
    write_history(tmp_path / "output")
    out = tmp_path / "site-health.html"
    assert main([str(tmp_path / "output"), "-o", str(out)]) == 0
    return out


def _box(locator) -> dict:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not laid out"
    return box


def test_table_and_plots_render_in_chromium(report):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=DEFAULT_BROWSER_PATH)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(report.as_uri())
            rows = page.locator("#attention tbody tr")
            assert [rows.nth(i).get_attribute("data-site") for i in range(rows.count())] == [
                "silent-daily", "error-burst", "drop-burst", "redesigned", "robots-closed"]
            for i in range(rows.count()):
                assert _box(rows.nth(i))["height"] >= 24
                sparks = rows.nth(i).locator("svg.spark")
                assert sparks.count() == 3
                for j in range(3):
                    box = _box(sparks.nth(j))
                    assert box["width"] >= 100 and box["height"] >= 20
            # The error burst is drawn: its errors line ends far above where it starts.
            burst = page.locator('tr[data-site="error-burst"] svg.spark').nth(2)
            (line,) = burst.evaluate(LINES)
            assert line["length"] > 50 and line["firstY"] - line["lastY"] > 10
            charts = page.locator("#totals svg.chart")
            assert charts.count() == 5
            for i in range(charts.count()):
                box = _box(charts.nth(i))
                assert box["width"] >= 400 and box["height"] >= 150
                assert [line["length"] > 100 for line in charts.nth(i).evaluate(LINES)] == [True]
            shot = page.screenshot()
            pixels = page.evaluate(COUNT_PIXELS, base64.b64encode(shot).decode("ascii"))
            assert pixels["colours"] >= 20 and pixels["inked"] > 0.02, pixels
            table = page.evaluate(COUNT_PIXELS, base64.b64encode(page.locator("#attention").screenshot())
                                  .decode("ascii"))
            assert table["colours"] >= 10 and table["inked"] > 0.02, table
            if os.environ.get("NEWSCRAWL_HEALTH_SCREENSHOT"):
                Path(os.environ["NEWSCRAWL_HEALTH_SCREENSHOT"]).write_bytes(shot)
        finally:
            browser.close()
