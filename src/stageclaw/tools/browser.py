"""The browser: one headless Chromium per episode, confined to the episode's own web apps.

Playwright drives Debian's chromium (never a browser of `playwright install`). Its sync API is
thread-affine, while the registry may call tools from any thread (MCP uses worker threads), so
every browser runs in a thread of its own and tool calls are handed to it.

Confinement, in three layers: a tool refuses any address outside the episode's prefix
`http://127.0.0.1:PORT/e/<token>/`; every request the page makes goes through playwright's
router, which aborts anything else before a connection is attempted; and Chromium sends all
traffic but that to the web apps' port to a proxy that is a closed loopback port, so whatever
escaped the router (a redirect, which the router does not see) could not connect anywhere.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import queue
import re
import shutil
import signal
import socket
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import Field

from stageclaw.tools.base import ToolContext, ToolError, tool

ACTION_TIMEOUT_MS = 15_000
TEXT_CAP = 24_000
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-breakpad",
    "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider",
    "--dns-prefetch-disable",
]
# The page as an agent reads it: text in reading order, every link and button numbered `[n]`, every
# form field numbered `{n: ...}` with its label and value; the numbers are kept in `data-sc-ref`
# attributes, so a later click or fill finds the same element. Called with a number, it describes
# only that field.
PAGE_JS = Path(__file__).with_name("page.js").read_text(encoding="utf-8")
INSTALL_HINT = (
    "Chromium is not installed: run `sudo apt-get install chromium` (scripts/install does it). stageclaw uses"
    " Debian's chromium; `playwright install` is not needed"
)


def chromium_path() -> str | None:
    """Debian's chromium binary (the real one, not the /usr/bin shell wrapper), or $STAGECLAW_CHROMIUM."""
    chosen = os.environ.get("STAGECLAW_CHROMIUM")
    if chosen:
        return chosen if os.access(chosen, os.X_OK) else None
    if os.access("/usr/lib/chromium/chromium", os.X_OK):
        return "/usr/lib/chromium/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Scope:
    """The only addresses a browser may load: the episode's web apps under their secret prefix."""

    def __init__(self, web_url: str) -> None:
        parts = urlsplit(web_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.host, self.port, self.prefix = parts.hostname, parts.port, parts.path.rstrip("/")

    def inside(self, url: str) -> bool:
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return False
        return (
            parts.scheme == "http"
            and parts.hostname == self.host
            and port == self.port
            and not parts.username
            and (parts.path == self.prefix or parts.path.startswith(self.prefix + "/"))
        )

    def resolve(self, address: str) -> str:
        """An absolute URL for what an agent typed: `/travel/`, `travel/bookings` or a full URL."""
        text = address.strip() or "/"
        parts = urlsplit(text)
        if parts.scheme or parts.netloc:
            url = text
        else:
            path = text if text.startswith("/") else "/" + text
            inside = path == self.prefix or path.startswith(self.prefix + "/")
            url = self.origin + (path if inside else self.prefix + path)
        if not self.inside(url):
            raise ToolError(
                f"{address!r} is outside the user's web apps; the browser only opens them. Give a path such as '/'"
                " (the start page listing the apps) or '/travel/'"
            )
        return url

    def show(self, url: str) -> str:
        """A URL as the agent sees it: the path under the apps' root, e.g. `/travel/bookings`."""
        if self.inside(url):
            return url[len(self.origin + self.prefix) :] or "/"
        return url


class _DriverGone(logging.Filter):
    """Drops asyncio's report of Playwright futures that failed because its driver died unseen.

    A Ctrl-C at the terminal reaches the driver (a node process in stageclaw's process group) as well;
    the episode is being stopped anyway, and the run prints its own account of the interruption.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return "Connection closed while reading from the driver" not in record.getMessage()


logging.getLogger("asyncio").addFilter(_DriverGone())


def _leftovers(marker: str) -> list[int]:
    """Processes whose command line names `marker` (our browser's profile folder)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


_SOCKET_IN_TEMP = "/org.chromium.Chromium.XXXXXX/SingletonSocket"


class Browser:
    """One Chromium with one page, owned by a thread of its own; `run` hands it a job."""

    def __init__(self, web_url: str, scratch: Path, tz: str, shots: Path | None, temp: Path | None = None) -> None:
        """`scratch` holds the profile; `temp`, when its path is short enough, Chromium's temporary files
        (its singleton socket, whose whole path must fit in 107 bytes), so that removing it (the pool's
        folder, when the pool stops or is reaped) removes them."""
        self.scope = Scope(web_url)
        self.shots = shots
        self.blocked: list[str] = []  # every request the router refused
        self.clickables: list[tuple[int, str]] = []
        # A browser restarted within an episode (after a crash) numbers on, never over, its screenshots.
        self._count = len(list(shots.glob("browser-*.png"))) if shots is not None and shots.is_dir() else 0
        scratch.mkdir(parents=True, exist_ok=True)
        self.profile = Path(tempfile.mkdtemp(prefix="browser-", dir=scratch))
        self._temp = temp if temp is not None and len(bytes(temp)) + len(_SOCKET_IN_TEMP) <= 107 else None
        # Bound, never listening: a connection to it is refused at once, on this machine.
        self._sink = socket.socket()
        self._sink.bind(("127.0.0.1", 0))
        self._jobs: queue.Queue[tuple[Callable[[], Any], concurrent.futures.Future[Any]] | None] = queue.Queue()
        self._started: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._main, args=(tz,), name="stageclaw-browser", daemon=True)
        self._thread.start()
        try:
            self._started.result(timeout=120)
        except BaseException:
            self.close()
            raise

    # -- the browser thread ----------------------------------------------------------------------

    def _main(self, tz: str) -> None:
        try:
            self._launch(tz)
        except BaseException as exc:
            self._started.set_exception(exc)
            self._shutdown()
            return
        self._started.set_result(None)
        while (job := self._jobs.get()) is not None:
            func, future = job
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(func())
                except BaseException as exc:
                    future.set_exception(exc)
        self._shutdown()

    def _launch(self, tz: str) -> None:
        from playwright.sync_api import sync_playwright

        executable = chromium_path()
        if executable is None:
            raise ToolError(INSTALL_HINT, "internal")
        self._pw = sync_playwright().start()
        profile = str(self.profile)
        self._context = self._pw.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=[
                *LAUNCH_ARGS,
                f"--proxy-server=http://127.0.0.1:{self._sink.getsockname()[1]}",
                # In order: loopback addresses go through the proxy too, except the web apps' own port.
                f"--proxy-bypass-list=<-loopback>;{self.scope.host}:{self.scope.port}",
            ],
            # Chromium's crash handler keeps its files under XDG_CONFIG_HOME (in the profile), and Chromium its own
            # under TMPDIR: all ours to clean up, even after a Ctrl-C that killed Chromium or a stop that could not
            # wait for this browser.
            env={**os.environ, "XDG_CONFIG_HOME": profile, "XDG_CACHE_HOME": profile, **self._temp_env()},
            service_workers="block",
            accept_downloads=False,
            timezone_id=tz,
            locale="en-GB",
            viewport={"width": 1280, "height": 900},
        )
        self._context.route("**/*", self._route)
        self._context.set_default_timeout(ACTION_TIMEOUT_MS)
        self.page = self._context.pages[0] if self._context.pages else self._context.new_page()

    def _temp_env(self) -> dict[str, str]:
        if self._temp is None:
            return {}
        self._temp.mkdir(parents=True, exist_ok=True)
        return {"TMPDIR": str(self._temp)}

    def _route(self, route: Any) -> None:
        url = route.request.url
        if self.scope.inside(url):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort("blockedbyclient")

    def _shutdown(self) -> None:
        for close in (lambda: self._context.close(), lambda: self._pw.stop()):
            try:
                close()
            except Exception:
                pass  # already gone: the browser crashed or never started

    # -- called from any thread --------------------------------------------------------------------

    def run(self, func: Callable[[], Any]) -> Any:
        """Run `func` on the browser's thread and return its result (or raise its exception)."""
        if not self._thread.is_alive():
            raise ToolError("the browser has stopped; call the tool again to start a new one", "internal")
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._jobs.put((func, future))
        try:
            return future.result(timeout=ACTION_TIMEOUT_MS / 1000 * 4)
        except concurrent.futures.TimeoutError:
            raise ToolError("the browser did not answer in time", "internal") from None

    def close(self) -> None:
        """Stop Chromium and playwright's driver, and remove the profile; nothing is left running."""
        self._jobs.put(None)
        self._thread.join(30)
        for pid in _leftovers(str(self.profile)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._sink.close()
        # Chromium keeps its singleton socket in a folder of its own under TMPDIR, linked from the profile; a
        # Chromium that was killed (a Ctrl-C reached it) did not remove it. (In `temp`, the pool removes it too.)
        for link in (self.profile / "SingletonSocket", self.profile / "SingletonCookie"):
            if link.is_symlink():
                folder = Path(os.readlink(link)).parent
                if folder.name.startswith("org.chromium.Chromium."):
                    shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(self.profile, ignore_errors=True)

    # -- on the browser thread, through `run` -------------------------------------------------------

    def view(self, status: int | None = None) -> dict[str, Any]:
        """The current page for the agent: title, url, text with numbered links and fields."""
        url = self.page.url
        if url == "about:blank":
            self.clickables = []
            out: dict[str, Any] = {
                "title": "",
                "url": url,
                "text": "(no page open yet: use browser_open, e.g. browser_open(url='/') for the start page)",
            }
            return self.shot(out)
        read = self.page.evaluate(PAGE_JS, None)
        self.clickables = [(ref, text) for ref, text in read["clickables"]]
        text = read["text"]
        out = {"title": read["title"], "url": self.scope.show(url), "text": text[:TEXT_CAP]}
        if status is not None and status >= 400:
            out["status"] = status
        if len(text) > TEXT_CAP:
            out["truncated"] = True
            out["note"] = f"the page has {len(text)} characters of text; this is the first {TEXT_CAP}"
        return self.shot(out)

    def shot(self, out: dict[str, Any]) -> dict[str, Any]:
        """`out` with the file name of a screenshot of the page, saved when the episode has an output folder."""
        if self.shots is not None:
            self._count += 1
            name = f"browser-{self._count:03d}.png"
            self.shots.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(self.shots / name), full_page=True)
            out["screenshot"] = f"{self.shots.name}/{name}"
        return out

    def element(self, ref: int) -> Any:
        """The element numbered `ref` by the last view (a handle: the page is static until the next action)."""
        found = self.page.query_selector(f'[data-sc-ref="{ref}"]')
        if found is None:
            raise ToolError(f"there is no [{ref}] or {{{ref}: ...}} on this page; browser_read shows the numbers")
        return found

    def describe(self, ref: int) -> str:
        return str(self.page.evaluate(PAGE_JS, ref))


def _browser(ctx: ToolContext) -> Browser:
    episode = ctx.episode
    web_url = episode.web_url
    if web_url is None:
        raise ToolError("the user has no web apps in this task, so there is nothing the browser could open")
    shots = ctx.out_dir / "screenshots" if ctx.out_dir is not None else None
    return ctx.client(
        "browser",
        lambda: Browser(web_url, episode.pool.root / "browsers", episode.world.timezone, shots, episode.pool.root),
        Browser.close,
    )


def _act(ctx: ToolContext, func: Callable[[Browser], dict[str, Any]]) -> dict[str, Any]:
    """Run an action on the episode's browser; a browser that died is dropped, so the next call starts anew."""
    try:
        from playwright.sync_api import Error as PlaywrightError  # 0.1 s to import: only once the browser is used
    except ModuleNotFoundError:
        raise ToolError("playwright is not installed: run `pip install playwright`", "internal") from None
    browser = _browser(ctx)
    try:
        return browser.run(lambda: func(browser))
    except PlaywrightError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "closed" in first.lower() or "crash" in first.lower():
            ctx.drop("browser")
            raise ToolError(
                f"the browser stopped ({first}); call the tool again to start a new one", "internal"
            ) from None
        raise ToolError(_explain(first)) from None


def _explain(message: str) -> str:
    message = re.sub(r"^\w+\.\w+: ", "", message)
    if "ERR_BLOCKED_BY_CLIENT" in message:
        return "that page is outside the user's web apps and was not loaded"
    if "Timeout" in message:
        return f"the page did not respond in time ({message})"
    return message


FORMATS = {
    "date": "write it as YYYY-MM-DD, e.g. 2026-03-16",
    "time": "write it as HH:MM on the 24-hour clock, e.g. 09:30",
    "datetime-local": "write it as YYYY-MM-DDTHH:MM, e.g. 2026-03-16T09:30",
    "month": "write it as YYYY-MM",
    "week": "write it as YYYY-Www, e.g. 2026-W12",
    "number": "write digits with a dot for decimals, e.g. 84.50",
}
RefArg = Annotated[int, Field(ge=1, description="The number of a link/button [n] or field {n: ...} from the page.")]


@tool("web", returns="PAGE: {title, url, text, status?, truncated?, note?, screenshot?}")
def browser_open(
    ctx: ToolContext,
    url: Annotated[
        str,
        Field(description="A path of the user's web apps such as '/', '/travel/' or '/expenses/new'."),
    ],
) -> dict[str, Any]:
    """Open a page of the user's web apps in the browser. Changes nothing in the apps.

    The apps (a travel site, an expense portal, the company intranet, as the task provides) live
    under one root: '/' is a start page that lists them, and each app has its own path such as
    '/travel/'. Only these apps can be opened; no other website is reachable.

    Returns the page: {title, url, text}. In `text`, links and buttons are numbered like
    `[3] Book hotel` (click them with browser_click) and form fields like
    `{5: input name=guest label="Guest" value=""}` (fill them with browser_fill or browser_select).
    A screenshot is saved with each call.
    """

    def go(browser: Browser) -> dict[str, Any]:
        from playwright.sync_api import Error as PlaywrightError

        target = browser.scope.resolve(url)
        response = None
        for attempt in range(3):
            try:
                response = browser.page.goto(target, wait_until="load")
                break
            except PlaywrightError as exc:
                # After a page failed to load, Chromium's error page may still be arriving and cut this one off.
                if "interrupted by another navigation" not in str(exc) or attempt == 2:
                    raise
                browser.page.wait_for_load_state("load")
                if browser.page.url == target:
                    break  # what cut in was Chromium going to the same page: it is open
        return browser.view(response.status if response is not None else None)

    return _act(ctx, go)


@tool("web", returns="PAGE")
def browser_read(ctx: ToolContext) -> dict[str, Any]:
    """Read the page the browser shows now, with the current values of its form fields. Changes nothing.

    Returns the page: {title, url, text}. In `text`, links and buttons are numbered like
    `[3] Book hotel` (click them with browser_click) and form fields like
    `{5: input name=guest label="Guest" value=""}` (fill them with browser_fill or browser_select).
    A screenshot is saved with each call.
    """
    return _act(ctx, lambda browser: browser.view())


@tool("web", returns="PAGE (the page that follows)")
def browser_click(
    ctx: ToolContext,
    ref: Annotated[int | None, Field(ge=1, description="The number [n] of the link or button to click.")] = None,
    text: Annotated[
        str | None,
        Field(description="Or the visible text of the link or button, e.g. 'Book hotel' (used when no ref is given)."),
    ] = None,
) -> dict[str, Any]:
    """Click a link or button (or tick a checkbox) and return the page that follows.

    Side effects: whatever the control does in the app, as for a person clicking it: a 'Book' or
    'Submit' button books or submits.

    Give its number `ref` from the page text, or its visible `text`: an exact match (ignoring case)
    wins, else a link or button containing the text; if several match, their numbers are listed.

    Returns the page: {title, url, text}. In `text`, links and buttons are numbered like
    `[3] Book hotel` (click them with browser_click) and form fields like
    `{5: input name=guest label="Guest" value=""}` (fill them with browser_fill or browser_select).
    A screenshot is saved with each call.
    """
    if ref is None and not (text or "").strip():
        raise ToolError("give `ref` (the number of a link or button) or its `text`", "invalid_arguments")

    def click(browser: Browser) -> dict[str, Any]:
        target = ref if ref is not None else _by_text(browser, text or "")
        element = browser.element(target)
        kind = element.evaluate("e => e.tagName + ':' + (e.getAttribute('type') || '').toLowerCase()")
        if kind.startswith("SELECT"):
            raise ToolError(f"{{{target}: ...}} is a list: choose an option with browser_select")
        if kind.startswith("TEXTAREA") or (
            kind.startswith("INPUT:") and kind.split(":")[1] not in ("checkbox", "radio", "submit", "button", "image")
        ):
            raise ToolError(f"{{{target}: ...}} is a text field: type into it with browser_fill")
        element.click()
        browser.page.wait_for_load_state("load")
        return browser.view()

    return _act(ctx, click)


def _by_text(browser: Browser, text: str) -> int:
    wanted = " ".join(text.split()).casefold()
    exact = [(r, t) for r, t in browser.clickables if t.casefold() == wanted]
    found = exact or [(r, t) for r, t in browser.clickables if wanted in t.casefold()]
    if len(found) == 1:
        return found[0][0]
    if not found:
        raise ToolError(f"no link or button on this page says {text!r}; browser_read shows what there is")
    listed = ", ".join(f"[{r}] {t}" for r, t in found[:10])
    raise ToolError(f"{len(found)} links or buttons match {text!r}: {listed}; click one by its number (ref)")


@tool("web", returns="{field, screenshot?}")
def browser_fill(
    ctx: ToolContext,
    ref: RefArg,
    value: Annotated[
        str,
        Field(description="The new content of the field. Dates are YYYY-MM-DD, times HH:MM (24-hour)."),
    ],
) -> dict[str, Any]:
    """Type into a text, number, date or time field of the page, replacing what it held. Changes nothing.

    Returns {field}: the field as the page now shows it. Nothing is sent until a button such as
    'Submit' is clicked with browser_click.
    """

    def fill(browser: Browser) -> dict[str, Any]:
        element = browser.element(ref)
        kind = element.evaluate("e => e.tagName + ':' + (e.getAttribute('type') || 'text').toLowerCase()")
        if kind.startswith("SELECT"):
            raise ToolError(f"{{{ref}: ...}} is a list: choose an option with browser_select")
        if not (kind.startswith("INPUT") or kind.startswith("TEXTAREA")) or kind.split(":")[1] in (
            "checkbox",
            "radio",
            "submit",
            "button",
            "image",
        ):
            raise ToolError(f"[{ref}] cannot be typed into; click buttons, links and checkboxes with browser_click")
        element.fill(value)
        # The browser drops a value its field cannot hold (a date typed as 10/03) without a word.
        kept = element.input_value()
        kind_of_input = kind.split(":")[1]
        if kind_of_input in FORMATS and kept != value.strip():
            raise ToolError(f"{value!r} is not a valid {kind_of_input} for {{{ref}: ...}}: {FORMATS[kind_of_input]}")
        return browser.shot({"field": browser.describe(ref)})

    return _act(ctx, fill)


@tool("web", returns="{field, screenshot?}")
def browser_select(
    ctx: ToolContext,
    ref: RefArg,
    option: Annotated[str, Field(description="The option to choose: its text as shown, e.g. 'Business (€389.00)'.")],
) -> dict[str, Any]:
    """Choose an option of a drop-down list `{n: select ...}`; returns {field} as the page now shows it.

    Changes nothing until a button such as 'Submit' is clicked with browser_click.
    """

    def select(browser: Browser) -> dict[str, Any]:
        element = browser.element(ref)
        if not element.evaluate("e => e.tagName === 'SELECT'"):
            raise ToolError(f"{ref} is not a drop-down list; type into text fields with browser_fill")
        options: list[list[str]] = element.evaluate(
            "e => Array.from(e.options).map(o => [o.value, o.textContent.replace(/\\s+/g, ' ').trim()])"
        )
        wanted = " ".join(option.split()).casefold()
        match = next((v for v, t in options if t.casefold() == wanted), None)
        match = match if match is not None else next((v for v, _ in options if v.casefold() == wanted), None)
        if match is None:
            found = [v for v, t in options if wanted in t.casefold()]
            if len(found) != 1:
                shown = ", ".join(repr(t) for _, t in options)
                raise ToolError(f"{{{ref}: select}} has no option {option!r}; its options are: {shown}")
            match = found[0]
        element.select_option(value=match)
        return browser.shot({"field": browser.describe(ref)})

    return _act(ctx, select)


@tool("web", returns="PAGE")
def browser_back(ctx: ToolContext) -> dict[str, Any]:
    """Go back to the previous page, like a browser's back button. Changes nothing.

    Returns the page: {title, url, text}. In `text`, links and buttons are numbered like
    `[3] Book hotel` (click them with browser_click) and form fields like
    `{5: input name=guest label="Guest" value=""}` (fill them with browser_fill or browser_select).
    A screenshot is saved with each call.
    """

    def back(browser: Browser) -> dict[str, Any]:
        before = browser.page.url
        if browser.page.go_back(wait_until="load") is None and browser.page.url == before:
            raise ToolError("there is no previous page to go back to")
        return browser.view()

    return _act(ctx, back)
