"""The archive's chart of running totals in a real browser at 360 px and at 1366 px: every
label (the players' names and totals at the lines' ends, the values of the y axis, the
deal numbers) lies inside the drawing, and the drawing inside its box and the window,
both for the sheet of a real evening and for hard cases drawn by the page's own chart
module (long names, five-digit totals, equal totals, a line at the very top)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import NewPerson, off_the_loop
from tests.browser.test_axe_browser import play_into_the_second_deal
from tests.support import LiveServer
from tests.table_client import COOKIE

pytestmark = pytest.mark.live_server

SIZES: dict[str, ViewportSize] = {
    "360x740": {"width": 360, "height": 740},
    "1366x768": {"width": 1366, "height": 768},
}

#: Where each text of the chart's drawing lies, and the drawing, its box and the window.
GEOMETRY = """(box) => {
  const svg = box.querySelector("svg.chart-svg");
  const rect = (node) => {
    const r = node.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  return {
    svg: rect(svg),
    box: rect(box),
    window: document.documentElement.clientWidth,
    texts: [...svg.querySelectorAll("text")].map((t) => ({text: t.textContent, ...rect(t)})),
  };
}"""


def outside(geometry: dict[str, Any]) -> list[str]:
    """The labels (and the drawing) that do not lie inside where they belong."""
    svg, box = geometry["svg"], geometry["box"]
    wrong = []
    for text in geometry["texts"]:
        inside = (
            text["left"] >= svg["left"] - 0.5
            and text["right"] <= svg["right"] + 0.5
            and text["top"] >= svg["top"] - 0.5
            and text["bottom"] <= svg["bottom"] + 0.5
        )
        if not inside:
            wrong.append(f"{text['text']!r} at {text} outside the drawing {svg}")
    if svg["right"] > box["right"] + 0.5 or svg["left"] < box["left"] - 0.5:
        wrong.append(f"the drawing {svg} outside its box {box}")
    if svg["right"] > geometry["window"] + 0.5:
        wrong.append(f"the drawing {svg} outside the window ({geometry['window']} px)")
    return wrong


HARD_CASES: dict[str, dict[str, Any]] = {
    "long names and five-digit totals": {
        "labels": [str(i) for i in range(41)],
        "players": {
            "Maximiliane Oberhuber": [0, *range(300, 12_300 + 1, 300)],
            "Bartholomäus": [0, *range(-300, -12_300 - 1, -300)],
            "Kunigunde von Hohenstein": [0] * 41,
        },
    },
    "equal totals at the top and the bottom": {
        "labels": ["0", "1", "2", "3"],
        "players": {
            "Anna": [0, 40, 80, 120],
            "Bernd": [0, 40, 80, 120],
            "Catrin": [0, -60, -100, -120],
            "Dora": [0, -60, -100, -120],
            "Emil": [0, 20, 20, 120],
        },
    },
}


def draw(page: Page, series: dict[str, Any]) -> dict[str, Any]:
    """Draw ``series`` with the page's chart module into a new box in the page's main."""
    page.evaluate(
        """async (series) => {
            const {renderChart} = await import("/static/js/chart.js");
            const box = document.createElement("div");
            box.id = "test-chart";
            box.className = "chart";
            document.querySelector("main").append(box);
            renderChart(box, series, {title: "Test"});
        }""",
        series,
    )
    box = page.locator("#test-chart")
    expect(box.locator("svg.chart-svg")).to_be_visible()
    geometry: dict[str, Any] = box.evaluate(GEOMETRY)
    return geometry


@pytest.fixture(scope="module")
def evening(module_server: LiveServer) -> tuple[int, list[str]]:
    """A Dreierles match with its first deal played: its id and the players' cookies."""
    _room, match, _token, cookies = off_the_loop(
        asyncio.run, play_into_the_second_deal(module_server.base_url, seed=7)
    )
    return match, cookies


@pytest.mark.parametrize("size", SIZES)
def test_the_labels_of_a_real_evenings_chart_are_in_view(
    new_person: NewPerson, module_server: LiveServer, evening: tuple[int, list[str]], size: str
) -> None:
    match, cookies = evening
    page = new_person(viewport=SIZES[size])
    base = module_server.base_url
    page.context.add_cookies([{"name": COOKIE, "value": cookies[0], "url": base}])
    page.goto(f"{base}/archive/matches/{match}")
    chart = page.locator("#chart")
    expect(chart.locator("svg.chart-svg .chart-end")).to_have_count(3)
    chart.scroll_into_view_if_needed()
    geometry = chart.evaluate(GEOMETRY)
    assert {t["text"].split(" ")[0] for t in geometry["texts"]} >= {"Anna", "Bernd", "Catrin"}
    assert outside(geometry) == []
    for case, series in HARD_CASES.items():
        geometry = draw(page, series)
        assert outside(geometry) == [], case
        page.evaluate("document.getElementById('test-chart').remove()")


def test_the_check_finds_a_label_outside_the_drawing(
    new_person: NewPerson, module_server: LiveServer, evening: tuple[int, list[str]]
) -> None:
    """The geometry check can fail: a label moved past the drawing's right edge is named."""
    match, cookies = evening
    page = new_person(viewport=SIZES["360x740"])
    base = module_server.base_url
    page.context.add_cookies([{"name": COOKIE, "value": cookies[0], "url": base}])
    page.goto(f"{base}/archive/matches/{match}")
    chart = page.locator("#chart")
    expect(chart.locator("svg.chart-svg .chart-end")).to_have_count(3)
    chart.evaluate("(box) => box.querySelector('.chart-end').setAttribute('x', 10000)")
    wrong = outside(chart.evaluate(GEOMETRY))
    assert len(wrong) == 1 and "outside the drawing" in wrong[0], wrong
