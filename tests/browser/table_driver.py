"""Playing at the table through the browser, as a person would: read the turn banner,
press one of the offered buttons or tap a highlighted card, wait for the table to move on.

Only what a person sees is used: the turn text, enabled buttons and the cards marked
playable (``aria-disabled="false"``).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from playwright.sync_api import Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

YOUR_TURN = re.compile(r"^(Du bist am Zug|Your turn)")


@dataclass
class Person:
    """One browser at the table."""

    name: str
    page: Page

    def my_turn(self) -> bool:
        """Whether the turn banner says it is this person's turn."""
        return bool(YOUR_TURN.match(self.page.locator("#turn").inner_text().strip()))

    def options(self) -> list[str]:
        """What this person may do now: the enabled buttons' texts and the playable cards
        (``card:<name>``)."""
        buttons = self.page.locator("#actions button:enabled").evaluate_all(
            "nodes => nodes.map(n => n.textContent.trim())"  # folded groups included
        )
        cards = self.page.locator('#hand button[aria-disabled="false"]').evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('aria-label'))"
        )
        return [*buttons, *(f"card:{c}" for c in cards)]

    def choose(self, option: str) -> None:
        """Press a button or tap a card by what it shows."""
        if option.startswith("card:"):
            label = option.removeprefix("card:")
            playable = '#hand button[aria-disabled="false"]'
            # Cards overlap: tap the visible corner, as a finger would.
            card = self.page.locator(f'{playable}[aria-label="{label}"]').first
            card.click(position={"x": 12, "y": 16})
        else:
            button = self.page.locator("#actions button:enabled", has_text=option).first
            if not button.is_visible():  # a folded group (Solo, Hochzeit): open it first
                button.locator("xpath=ancestor::details/summary").click()
            button.click()

    def close_result(self) -> None:
        """Dismiss the result panel if it is open."""
        dialog = self.page.locator("#result-dialog")
        if dialog.is_visible():
            try:
                dialog.locator("#result-close").click(timeout=5_000)
            except PlaywrightTimeoutError:
                # the next deal began meanwhile (the others' "Weiter"): the table closed it
                if dialog.is_visible():
                    raise


def register_by_api(page: Page, base_url: str, name: str) -> int:
    """Register ``name`` in ``page``'s browser context (shares its cookies); the user id."""
    login = f"{re.sub(r'[^a-z0-9]', '', name.lower())[:20]}-{random.randrange(10**6)}"
    body = {"login": login, "password": "Ober-sticht", "display_name": name}
    response = page.request.post(f"{base_url}/api/register", data=body)
    assert response.status == 201, response.text()
    user_id: int = response.json()["id"]
    return user_id


def version(page: Page) -> int:
    """The table version the page has rendered (``data-version``; -1 before the first)."""
    return int(page.locator("#table").get_attribute("data-version") or -1)


def trick_cards(person: Person) -> int:
    """How many cards ``person`` sees in the trick being played."""
    return person.page.locator("#trick:not(.collected) .card").count()


def move(person: Person, option: str) -> None:
    """``person`` chooses ``option`` and waits until the table has moved on."""
    before = version(person.page)
    person.choose(option)
    # A function, not an expression: under the pages' CSP a string would need eval.
    person.page.wait_for_function(
        "before => Number(document.getElementById('table').dataset.version) > before",
        arg=before,
        timeout=10_000,
    )


def press(person: Person, label: str) -> None:
    """``person`` presses the button labelled exactly ``label`` (opening its folded group
    first) and waits until the table has moved on."""
    exactly = re.compile(f"^{re.escape(label)}$")  # "Zweier", not "Farbenzweier"
    button = person.page.locator("#actions button:enabled").filter(has_text=exactly)
    if not button.is_visible():
        button.locator("xpath=ancestor::details/summary").click()
    before = version(person.page)
    button.click()
    person.page.wait_for_function(
        "before => Number(document.getElementById('table').dataset.version) > before",
        arg=before,
        timeout=10_000,
    )


def next_mover(people: list[Person]) -> Person | None:
    """The person whose turn it is and who has something to do, if any yet."""
    return next((p for p in people if p.my_turn() and p.options()), None)


def wait_for_turn(people: list[Person], timeout: float = 10.0) -> Person:
    """The person whose turn it is (waits until somebody has something to do)."""
    deadline = time.monotonic() + timeout
    while (mover := next_mover(people)) is None:
        assert time.monotonic() < deadline, "nobody's turn"
        time.sleep(0.05)
    return mover


def play_until(
    people: list[Person],
    done: Callable[[], bool],
    rng: random.Random,
    prefer: Sequence[str] = (),
    timeout: float = 180.0,
) -> int:
    """Let whoever's turn it is pick an option (the first of ``prefer`` that is offered,
    else a random one) until ``done()``; return the number of moves made."""
    moves = 0
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the table did not finish in time"
        mover = next_mover(people)
        if mover is None:
            time.sleep(0.05)
            continue
        options = mover.options()
        wanted = [o for o in prefer if o in options]
        move(mover, wanted[0] if wanted else rng.choice(options))
        moves += 1
    return moves


# ------------------------------------------------------------------ what a person sees


def hand_boxes(page: Page) -> list[dict[str, float]]:
    """The boxes of the cards in the hand (viewport coordinates)."""
    boxes: list[dict[str, float]] = page.locator("#hand button").evaluate_all(
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return {x: r.left, y: r.top, right: r.right, bottom: r.bottom}; })"
    )
    return boxes


def hand_outside_viewport(page: Page) -> list[dict[str, float]]:
    """The hand's cards that do not lie wholly inside the viewport (should be none)."""
    size = page.viewport_size
    assert size is not None
    return [
        box
        for box in hand_boxes(page)
        if box["x"] < -0.5
        or box["y"] < -0.5
        or box["right"] > size["width"] + 0.5
        or box["bottom"] > size["height"] + 0.5
    ]


def trick_boxes(page: Page, selector: str = "#trick") -> list[dict[str, float]]:
    """The boxes of the cards lying in a trick."""
    boxes: list[dict[str, float]] = page.locator(f"{selector} .card").evaluate_all(
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return {x: r.left, y: r.top, right: r.right, bottom: r.bottom}; })"
    )
    return boxes


def worst_overlap(boxes: list[dict[str, float]]) -> float:
    """The largest share of one card's area that another card covers (0 = none)."""
    worst = 0.0
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            width = min(a["right"], b["right"]) - max(a["x"], b["x"])
            height = min(a["bottom"], b["bottom"]) - max(a["y"], b["y"])
            if width <= 0 or height <= 0:
                continue
            area = min(
                (a["right"] - a["x"]) * (a["bottom"] - a["y"]),
                (b["right"] - b["x"]) * (b["bottom"] - b["y"]),
            )
            worst = max(worst, width * height / area)
    return worst


def resize(page: Page, size: ViewportSize) -> None:
    """Give ``page`` the viewport ``size`` and wait until the page has laid itself out
    again (its resize handlers run before the next frames)."""
    page.set_viewport_size(size)
    page.evaluate(
        "() => new Promise(r => { requestAnimationFrame(() => requestAnimationFrame(r));"
        " setTimeout(r, 500); })"
    )


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The box of the first element ``selector`` matches (viewport coordinates)."""
    found: dict[str, float] = page.locator(selector).first.evaluate(
        "n => { const r = n.getBoundingClientRect();"
        " return {x: r.left, y: r.top, right: r.right, bottom: r.bottom,"
        " width: r.width, height: r.height}; }"
    )
    return found


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 0.5) -> bool:
    """Whether the box ``inner`` lies wholly inside ``outer``."""
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["right"] <= outer["right"] + slack
        and inner["bottom"] <= outer["bottom"] + slack
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether the boxes ``a`` and ``b`` share any area."""
    wide = min(a["right"], b["right"]) - max(a["x"], b["x"])
    high = min(a["bottom"], b["bottom"]) - max(a["y"], b["y"])
    return wide > 0 and high > 0


def screen_box(page: Page) -> dict[str, float]:
    """The viewport as a box (without a scrollbar)."""
    size: dict[str, float] = page.evaluate(
        "() => ({x: 0, y: 0, right: document.documentElement.clientWidth,"
        " bottom: window.innerHeight})"
    )
    return size


#: The action buttons (outside a folded group) that a person cannot see whole: cut by the
#: screen's edge (the lower edge too when ``vertical``) or by a box that clips or scrolls.
_ACTIONS_OUT_OF_SIGHT = """vertical => {
  const out = [];
  const width = document.documentElement.clientWidth, height = window.innerHeight;
  for (const button of document.querySelectorAll('#actions button')) {
    if (button.closest('details:not([open])')) continue;
    const r = button.getBoundingClientRect();
    let seen = r.width > 0 && r.left >= -0.5 && r.right <= width + 0.5
      && (!vertical || (r.top >= -0.5 && r.bottom <= height + 0.5));
    const top = document.documentElement;
    for (let p = button.parentElement; seen && p && p !== top; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const q = p.getBoundingClientRect();
      seen = r.left >= q.left - 0.5 && r.right <= q.right + 0.5
        && r.top >= q.top - 0.5 && r.bottom <= q.bottom + 0.5;
    }
    if (!seen) out.push(button.textContent.trim());
  }
  return out;
}"""


def actions_out_of_sight(page: Page, vertical: bool = True) -> list[str]:
    """The offered buttons that are not wholly in sight (should be none)."""
    hidden: list[str] = page.evaluate(_ACTIONS_OUT_OF_SIGHT, vertical)
    return hidden


def dialog_problems(page: Page, selector: str) -> list[str]:
    """What keeps the open panel ``selector`` from lying whole in the middle of the
    screen with its heading and its buttons in sight (should be nothing)."""
    screen = screen_box(page)
    dialog = box_of(page, selector)
    problems = []
    if not inside(dialog, screen):
        problems.append(f"the panel {dialog} leaves the screen {screen}")
    if abs(dialog["x"] - (screen["right"] - dialog["right"])) > 2:
        problems.append(f"the panel {dialog} is not in the middle")
    for part in (f"{selector} h2", f'{selector} form[method="dialog"] button'):
        shown = box_of(page, part)
        if not (inside(shown, dialog) and inside(shown, screen)):
            problems.append(f"{part} {shown} is not in sight")
    return problems
