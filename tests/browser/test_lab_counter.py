"""Infrastructure check: a trivial anywidget counter in a live JupyterLab, clicked by chromium.

It proves the fixtures (server, browser, notebook, run-all, kernel access, artifacts) without any
cardwidgets code: ``.e2e-counter-kernel`` is written only by the kernel, so the DOM alone shows
that every click went through Python and back.
"""

import pytest
try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .lab import COUNTER_CODE

pytestmark = pytest.mark.e2e


def test_counter_round_trip(lab_page):
    nb = lab_page.open_notebook("counter.ipynb", [COUNTER_CODE])  # returns after the cells ran
    assert nb.errors() == []
    button = lab_page.page.locator(".e2e-counter .e2e-counter-button")
    button.wait_for(state="visible", timeout=60_000)
    for i in (1, 2, 3):
        button.click()
        expect(lab_page.page.locator(".e2e-counter-value")).to_have_text(str(i))
        expect(lab_page.page.locator(".e2e-counter-kernel")).to_have_text(str(i))
    assert nb.json("counter.seen") == [1, 2, 3]
    assert nb.json("[counter.value, counter.kernel_value]") == [3, 3]
    assert nb.errors() == []
    lab_page.screenshot(lab_page.page.locator(".e2e-counter"), "counter.png")
    assert lab_page.page_errors == []
