"""The browser tools on real Chromium over the real web apps: booking, confinement, one browser per episode."""

from __future__ import annotations

import os
import re
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from stageclaw.tools.audit import AuditLog, read
from stageclaw.tools.browser import Browser
from stageclaw.tools.registry import Registry
from tests.conftest import changes, fails
from tests.test_web_apps import web_world


def ref_of(page: dict[str, Any], pattern: str) -> int:
    """The number of the first link, button or field whose text in the page matches `pattern`."""
    found = re.search(pattern, page["text"])
    assert found, (pattern, page["text"])
    return int(found.group(1))


def browser_processes(browser: Browser) -> list[int]:
    out = []
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and str(browser.profile).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                out.append(int(pid))
        except OSError:
            continue
    return out


def children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return out


def refused(browser: Browser, url: str) -> str:
    """Why the page could not load `url`, asked behind the tools' back (on the browser's thread)."""
    for _ in range(3):
        try:
            browser.page.goto(url)
        except PlaywrightError as exc:
            if "interrupted by another navigation" not in str(exc):  # the last error page still arriving
                return str(exc)
            browser.page.wait_for_load_state()
    raise AssertionError(f"{url} loaded")


@pytest.fixture
def web_reg(make_episode, tmp_path):
    ep = make_episode(web_world())
    with Registry(ep, audit=AuditLog(tmp_path / "episode" / "audit.jsonl")) as registry:
        yield registry


def test_a_booking_made_in_the_browser_shows_up_in_the_next_snapshot(web_reg, tmp_path):
    s0 = web_reg.episode.snapshot()
    start = web_reg.call("browser_open", {"url": "/"})
    assert start["url"] == "/" and "Skyway Travel" in start["text"] and "Expensely" in start["text"]
    home = web_reg.call("browser_click", {"text": "Skyway Travel"})
    assert home["url"] == "/travel/" and home["title"] == "Search · Skyway Travel"
    city = web_reg.call("browser_select", {"ref": ref_of(home, r"\{(\d+): select name=city "), "option": "munich"})
    assert 'selected="Munich"' in city["field"]
    web_reg.call(
        "browser_fill", {"ref": ref_of(home, r"\{(\d+): input type=date name=check_in "), "value": "2026-03-16"}
    )
    out = web_reg.call(
        "browser_fill", {"ref": ref_of(home, r"\{(\d+): input type=date name=check_out "), "value": "2026-03-18"}
    )
    assert out["field"].endswith('label="Check-out" value="2026-03-18"}')
    results = web_reg.call("browser_click", {"text": "Search hotels"})
    assert "Parkhotel Riem | Messestadt Riem | ★★★★ | €142.00 | €284.00" in results["text"]
    hotel = web_reg.call("browser_click", {"text": "Parkhotel Riem"})
    assert hotel["url"] == "/travel/hotels/h-riem?check_in=2026-03-16&check_out=2026-03-18"
    assert 'name=guest label="Guest (full name)" value="Lena Vogel" required}' in hotel["text"]
    notes = ref_of(hotel, r"\{(\d+): textarea name=notes ")
    web_reg.call("browser_fill", {"ref": notes, "value": "Arriving around 20:30"})
    done = web_reg.call("browser_click", {"ref": ref_of(hotel, r"\[(\d+)\] Book hotel")})
    ref = re.search(r"Your booking reference is (\w+)\.", done["text"]).group(1)
    assert done["url"] == f"/travel/bookings/{ref}?booked=1"

    s1 = web_reg.episode.snapshot()
    assert changes(s0, s1) == [("added", f"web/travel/bookings/{ref}")]
    booking = next(b for b in s1["web"]["travel"]["bookings"] if b["id"] == ref)
    assert (booking["item"], booking["check_in"], booking["check_out"], booking["total"]) == (
        "h-riem",
        "2026-03-16",
        "2026-03-18",
        284.0,
    )
    assert booking["notes"] == "Arriving around 20:30"

    cancelled = web_reg.call("browser_click", {"text": "Cancel booking"})
    assert f"Booking {ref} has been cancelled." in cancelled["text"]
    assert changes(s1, web_reg.episode.snapshot()) == [("modified", f"web/travel/bookings/{ref}#status")]

    # Every call left a screenshot next to the audit log, named in its result.
    entries = read(tmp_path / "episode" / "audit.jsonl")
    shots = [e["result"]["screenshot"] for e in entries if e["ok"]]
    assert len(shots) == len(entries) == 10 and len(set(shots)) == 10
    for name in shots:
        assert (tmp_path / "episode" / name).read_bytes().startswith(b"\x89PNG")


def test_expense_report_through_the_browser(web_reg):
    s0 = web_reg.episode.snapshot()
    form = web_reg.call("browser_open", {"url": "expenses/new"})
    assert form["title"] == "New expense · Expensely"
    for name, value in (("date", "2026-03-05"), ("merchant", "Taxi Hansa"), ("amount", "31.20"), ("receipt", "t.pdf")):
        web_reg.call(
            "browser_fill", {"ref": ref_of(form, rf"\{{(\d+): input (?:type=\w+ )?name={name} "), "value": value}
        )
    web_reg.call("browser_select", {"ref": ref_of(form, r"\{(\d+): select name=category "), "option": "Transport"})
    bad = web_reg.invoke("browser_select", {"ref": ref_of(form, r"\{(\d+): select name=currency "), "option": "Euro"})
    assert not bad["ok"] and "'EUR'" in bad["error"] and "'CNY'" in bad["error"]
    read_back = web_reg.call("browser_read", {})
    assert 'name=merchant label="Merchant" value="Taxi Hansa"' in read_back["text"]
    assert 'name=category label="Category" selected="Transport"' in read_back["text"]
    ambiguous = fails(web_reg, "browser_click", text="expense").message
    assert "4 links or buttons match 'expense'" in ambiguous and "[3] New expense" in ambiguous
    submitted = web_reg.call("browser_click", {"text": "Submit for approval"})
    assert "Expense report EXP-1003 was submitted for approval." in submitted["text"]
    state = web_reg.episode.snapshot()
    assert changes(s0, state) == [("added", "web/expenses/reports/EXP-1003")]
    report = next(r for r in state["web"]["expenses"]["reports"] if r["id"] == "EXP-1003")
    assert (report["merchant"], report["category"], report["amount"], report["status"]) == (
        "Taxi Hansa",
        "Transport",
        31.2,
        "submitted",
    )
    back = web_reg.call("browser_back", {})
    assert back["url"] == "/expenses/new"


def test_wrong_uses_are_tool_errors_that_say_what_to_do(web_reg):
    page = web_reg.call("browser_open", {"url": "/intranet/rooms/atlas?date=2026-03-10"})
    title = ref_of(page, r"\{(\d+): input name=title ")
    assert "browser_fill" in fails(web_reg, "browser_click", ref=title).message
    assert "not a drop-down list" in fails(web_reg, "browser_select", ref=title, option="x").message
    button = ref_of(page, r"\[(\d+)\] Reserve room")
    assert "cannot be typed into" in fails(web_reg, "browser_fill", ref=button, value="x").message
    assert "there is no [999]" in fails(web_reg, "browser_fill", ref=999, value="x").message
    assert "no link or button on this page says 'Teleport'" in fails(web_reg, "browser_click", text="Teleport").message
    assert "give `ref`" in fails(web_reg, "browser_click").message
    bad_date = fails(web_reg, "browser_fill", ref=ref_of(page, r"\{(\d+): input type=date name=date "), value="10/03")
    assert "'10/03' is not a valid date" in bad_date.message and "YYYY-MM-DD" in bad_date.message
    clash = web_reg.call("browser_click", {"ref": button})
    assert "Please correct the following:" in clash["text"] and "Enter a title for the meeting." in clash["text"]
    missing = web_reg.call("browser_open", {"url": "/travel/bookings/NOPE"})
    assert missing["status"] == 404 and "There is no such booking" in missing["text"]


def test_the_browser_cannot_reach_anything_but_the_episodes_apps(make_episode, pool):
    mine, other = make_episode(web_world()), make_episode(web_world())
    # Listeners on loopback addresses prove that nothing even tried to connect to them.
    traps = []
    for host in ("127.0.0.1", "127.0.0.2"):
        trap = socket.socket()
        trap.bind((host, 0))
        trap.listen(8)
        trap.setblocking(False)
        traps.append(trap)
    targets = [
        f"{other.endpoints.web_url}/travel/",  # another episode's apps, same server
        f"{pool.web().url}/e/",  # the server outside any episode
        pool.radicale.url + "/",
        f"http://127.0.0.1:{pool.dovecot.port}/",
        f"http://127.0.0.1:{pool.smtp.port}/",
        *(f"http://{t.getsockname()[0]}:{t.getsockname()[1]}/" for t in traps),
        f"http://localhost:{pool.web().port}{mine.endpoints.web_url.split(str(pool.web().port))[1]}/",
        "http://192.0.2.1/",  # TEST-NET-1: must be refused before any packet leaves
        "https://example.com/",
        "file:///etc/passwd",
        "data:text/html,<h1>hi</h1>",
        "javascript:alert(1)",
        f"http://user@127.0.0.1:{pool.web().port}{mine.endpoints.web_url.split(str(pool.web().port))[1]}/",
    ]
    with Registry(mine) as reg:
        assert reg.call("browser_open", {"url": "/travel/"})["title"] == "Search · Skyway Travel"
        for url in targets:
            assert "outside the user's web apps" in fails(reg, "browser_open", url=url).message, url
        browser: Browser = reg.ctx._clients["browser"]
        # Behind the tools, the router aborts every request outside the prefix, whoever makes it.
        for url in targets[:8]:
            assert "ERR_BLOCKED_BY_CLIENT" in browser.run(lambda url=url: refused(browser, url))
        assert reg.call("browser_open", {"url": "/travel/"})["url"] == "/travel/"
        fetched = browser.run(
            lambda: browser.page.evaluate(
                "url => fetch(url).then(() => 'reached', e => 'refused: ' + e)", "http://192.0.2.1/x"
            )
        )
        assert fetched.startswith("refused")
        assert browser.blocked == [*targets[:8], "http://192.0.2.1/x"]
        assert reg.call("browser_read", {})["url"] == "/travel/"
    for trap in traps:
        with pytest.raises(BlockingIOError):
            trap.accept()
        trap.close()


def test_a_world_without_web_apps_has_no_browser(reg):
    assert "no web apps" in fails(reg, "browser_open", url="/").message
    assert "browser" not in reg.ctx._clients


def test_one_browser_per_episode_closed_with_the_context(make_episode):
    ep = make_episode(web_world())
    before = children(os.getpid())
    reg = Registry(ep)
    reg.call("browser_open", {"url": "/"})
    browser: Browser = reg.ctx._clients["browser"]
    # Calls from other threads (as MCP makes them) reach the same browser, on its own thread.
    with ThreadPoolExecutor(2) as pool:
        pages = list(pool.map(lambda url: reg.call("browser_open", {"url": url}), ["/travel/", "/expenses/"]))
    assert {p["url"] for p in pages} == {"/travel/", "/expenses/"}
    assert reg.ctx._clients["browser"] is browser
    chromium = browser_processes(browser)
    assert chromium, "the browser's processes carry its profile folder"
    argvs = [Path(f"/proc/{pid}/cmdline").read_text().split("\0") for pid in chromium]
    mains = [argv for argv in argvs if argv[0].endswith("/chromium") and not any(a.startswith("--type=") for a in argv)]
    assert len(mains) == 1, "one Chromium per episode"
    reg.close()
    assert "browser" not in reg.ctx._clients
    assert not browser_processes(browser) and not browser.profile.exists()
    deadline = time.monotonic() + 5
    while children(os.getpid()) - before and time.monotonic() < deadline:
        time.sleep(0.05)  # playwright's driver exits once its pipe closes
    assert not children(os.getpid()) - before, "playwright's driver is gone"
    # A new registry starts a new browser for the same episode.
    with Registry(ep) as again:
        assert again.call("browser_read", {})["url"] == "about:blank"
        assert again.ctx._clients["browser"] is not browser


def test_without_chromium_the_error_says_what_to_install(make_episode, monkeypatch):
    monkeypatch.setenv("STAGECLAW_CHROMIUM", "/nonexistent/chromium")
    with Registry(make_episode(web_world())) as reg:
        error = fails(reg, "browser_open", url="/")
        assert "browser" not in reg.ctx._clients
    assert error.kind == "internal" and "run `sudo apt-get install chromium`" in error.message
