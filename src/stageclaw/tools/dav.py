"""CalDAV plumbing shared by the calendar, reminders and notes tools.

The three apps live on one Radicale account, each calendar, reminder list and notes folder
its own collection with a display name and a supported component set (VEVENT, VTODO,
VJOURNAL). `Dav` is the one client an episode keeps for them: it lists the collections of
one app, finds an item by uid, creates, edits, moves and deletes items, and turns every
server failure into a `ToolError` an agent can act on. Radicale accepts any component in
any collection, so keeping each app to its own component type is enforced here.
"""

from __future__ import annotations

import contextlib
import functools
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import quote, unquote, urlparse

import caldav
import icalendar
import niquests
from caldav.collection import CalendarSet
from caldav.lib import error as dav_error

from stageclaw.tools.base import ToolContext, ToolError
from stageclaw.world import davstore, ical, seeding, vtimezone
from stageclaw.world import state as world_state

CLIENT_KEY = "caldav"
TIMEOUT_S = 30
_DAV = "DAV:"
_CALDAV = "urn:ietf:params:xml:ns:caldav"
_CALENDAR_RESOURCE = f"{{{_CALDAV}}}calendar"
_COMPONENT_SET = f"{{{_CALDAV}}}supported-calendar-component-set"


@dataclass(frozen=True)
class App:
    """How one app names its collections and items, in results and in messages."""

    kind: str  # the State JSON key: calendar, reminders, notes
    field: str  # the key naming an item's collection in results: calendar, list, folder
    collection: str  # a collection, in messages
    collections: str
    item: str
    list_tool: str
    objclass: type[caldav.CalendarObjectResource]
    default: str | None = None  # the collection to use (and create) when the agent names none
    default_first: bool = False  # prefer the first existing collection over `default`

    @property
    def component(self) -> str:
        return ical.COMPONENT_OF_KIND[self.kind]


CALENDAR = App(
    kind="calendar",
    field="calendar",
    collection="calendar",
    collections="calendars",
    item="event",
    list_tool="calendar_list_events",
    objclass=caldav.Event,
)
REMINDERS = App(
    kind="reminders",
    field="list",
    collection="reminder list",
    collections="lists",
    item="reminder",
    list_tool="reminders_list",
    objclass=caldav.Todo,
    default="Reminders",
    default_first=True,
)
NOTES = App(
    kind="notes",
    field="folder",
    collection="notes folder",
    collections="folders",
    item="note",
    list_tool="notes_list",
    objclass=caldav.Journal,
    default="Notes",
)
APPS = {app.component: app for app in (CALENDAR, REMINDERS, NOTES)}


@dataclass(frozen=True)
class Collection:
    name: str
    components: tuple[str, ...]
    calendar: caldav.Calendar


@dataclass
class Item:
    """One stored event, to-do or note, with the collection it was found in.

    A listed item is the text the server sent; it becomes a caldav object (`obj`) only for an edit:
    making one for each item of a large calendar costs more than the request. Its State JSON is
    parsed once per distinct text (`world.state`), and so is its calendar for reading (`parse`).
    """

    app: App
    collection: Collection
    url: str  # as the server names it: an href, or a full URL
    text: str = ""
    loaded: caldav.CalendarObjectResource | None = None

    @classmethod
    def of(cls, app: App, collection: Collection, obj: caldav.CalendarObjectResource) -> Item:
        return cls(app, collection, str(obj.url), loaded=obj)

    @property
    def obj(self) -> caldav.CalendarObjectResource:
        if self.loaded is None:
            calendar = self.collection.calendar
            url = calendar.client.url.join(self.url)  # the href the server gave, made absolute only now
            self.loaded = self.app.objclass(client=calendar.client, url=url, data=self.text, parent=calendar)
        return self.loaded

    @property
    def data(self) -> str:
        return str(self.loaded.data) if self.loaded is not None else self.text

    @property
    def component(self) -> icalendar.Component:
        """The master component (not a RECURRENCE-ID override); edits to it are saved by `Dav.edit`."""
        for comp in self.obj.icalendar_instance.subcomponents:
            if comp.name == self.app.component and "RECURRENCE-ID" not in comp:
                return comp
        raise ToolError(f"the stored {self.app.item} has no {self.app.component} component", "internal")

    @property
    def uid(self) -> str:
        return str(self.component["UID"])

    def state(self, tz: tzinfo) -> dict[str, Any]:
        """The State JSON item (with its overrides) plus the name of its collection."""
        for name, item in world_state.calendar_object(self.data.encode(), tz):
            if name == self.app.component:
                return {**item, self.app.field: self.collection.name}
        raise ToolError(f"the stored {self.app.item} has no {self.app.component} component", "internal")


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> icalendar.Calendar:
    """A stored resource parsed, for reading only (shared by every caller with the same text)."""
    return icalendar.Calendar.from_ical(text)


def localize(value: date | datetime, tz: tzinfo) -> date | datetime:
    """A datetime in the task's timezone (stored with its TZID, as seeds are); dates stay dates.

    A naive datetime (a floating time in a stored item) is a wall-clock time in the task's timezone.
    """
    if not isinstance(value, datetime):
        return value
    return value.replace(tzinfo=tz) if value.tzinfo is None else value.astimezone(tz)


def set_text(comp: icalendar.Component, name: str, value: str) -> None:
    """Replace a TEXT property; an empty value removes it (the State JSON reads both as "")."""
    comp.pop(name, None)
    if value:
        comp.add(name, value)


def _stamp(comp: icalendar.Component, now: datetime, *names: str) -> None:
    for name in names:
        comp.pop(name, None)
        comp.add(name, now.astimezone(UTC))


def _ics(cal: icalendar.Calendar) -> str:
    """A self-contained resource: every TZID used has its VTIMEZONE, written as clients write them
    (`world.vtimezone`), since the server reads the item's times through it."""
    for tzid in sorted(cal.get_missing_tzids()):
        try:
            cal.add_component(icalendar.Timezone.from_ical(vtimezone.vtimezone(tzid)))
        except (ValueError, KeyError):  # not an IANA name: let icalendar describe it
            pass
    cal.add_missing_timezones()
    return cal.to_ical().decode()


P = ParamSpec("P")
R = TypeVar("R")


def _server_call(method: Callable[Concatenate[Dav, P], R]) -> Callable[Concatenate[Dav, P], R]:
    """Turn the server's refusals and a dead connection into ToolErrors; never let them escape raw."""

    @functools.wraps(method)
    def call(self: Dav, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except dav_error.DAVError as exc:
            if exc.status == 404:
                self.forget_collections()  # a collection may have gone; look again next time
            raise _refusal(exc) from None
        except niquests.exceptions.Timeout:
            raise ToolError(
                f"the calendar server did not answer within {TIMEOUT_S} s; check whether the change was made "
                "before trying again",
                "internal",
            ) from None
        except OSError as exc:  # niquests' connection errors are OSErrors
            raise ToolError(
                f"could not reach the calendar server ({type(exc).__name__}); try again", "internal"
            ) from None

    return call


def _refusal(exc: dav_error.DAVError) -> ToolError:
    status = exc.status
    if status == 401:
        return ToolError("the calendar server did not accept this account's login", "internal")
    if status == 403:
        return ToolError("the calendar server refused this (403 Forbidden): this account may not do that here")
    if status == 404:
        return ToolError("not found on the calendar server (404): it was deleted or moved meanwhile; list again")
    if status in (409, 412):
        return ToolError(f"the item changed on the calendar server meanwhile ({status}); read it again and retry")
    if status == 507:
        return ToolError("the calendar server is out of storage space (507 Insufficient Storage)")
    if status is not None and status >= 500:
        return ToolError(f"the calendar server failed ({status}); nothing was changed, try again", "internal")
    reason = " ".join(str(exc.reason).split())[:200]
    return ToolError(f"the calendar server refused this ({status or 'no status'}): {reason}")


class Dav:
    """One episode's CalDAV client and its cached list of collections."""

    def __init__(self, ctx: ToolContext) -> None:
        endpoints = ctx.episode.endpoints
        self.ctx = ctx
        self.home = endpoints.caldav_url
        self.client = caldav.DAVClient(
            url=self.home,
            username=endpoints.login,
            password=endpoints.password,
            auth_type="basic",
            require_tls=False,
            timeout=TIMEOUT_S,
        )
        self._collections: list[Collection] | None = None
        self._dirnames: set[str] = set()

    def close(self) -> None:
        self.client.close()

    def forget_collections(self) -> None:
        self._collections = None

    @_server_call
    def _all_collections(self) -> list[Collection]:
        # Radicale's calendar home is the principal URL itself, so one PROPFIND finds every
        # collection with its name and component set: no principal discovery, no per-calendar requests.
        if self._collections is None:
            response = self.client.propfind(self.home, props=self.client.CALENDAR_LIST_PROPS, depth=1)
            if response.status >= 400:
                raise dav_error.error_from_response(dav_error.PropfindError, response)
            found, dirnames = [], set()
            for result in response.results or []:
                url = self.client.url.join(result.href)
                dirname = unquote(urlparse(str(url)).path.rstrip("/").rsplit("/", 1)[-1])
                dirnames.add(dirname)
                props = result.properties
                resource_types = props.get("{DAV:}resourcetype") or []
                if _CALENDAR_RESOURCE not in resource_types:
                    continue
                # Like the snapshot reader: a collection that declares no component set is a calendar.
                components = tuple(props.get(_COMPONENT_SET) or ()) or ("VEVENT",)
                name = props.get("{DAV:}displayname") or dirname
                found.append(Collection(name, components, caldav.Calendar(client=self.client, url=url, name=name)))
            self._collections = sorted(found, key=lambda c: c.name.casefold())
            self._dirnames = dirnames
        return self._collections

    def collections(self, app: App) -> list[Collection]:
        """The app's collections, by name: only those that hold its component type."""
        return [c for c in self._all_collections() if app.component in c.components]

    def collection(self, app: App, name: str) -> Collection:
        """The app's collection called `name` (exactly, else the one matching it case-insensitively)."""
        mine = self.collections(app)
        folded = name.casefold()
        for matches in ([c for c in mine if c.name == name], [c for c in mine if c.name.casefold() == folded]):
            if len(matches) == 1:
                return matches[0]
        names = ", ".join(c.name for c in mine) or "(none)"
        message = f"no {app.collection} named {name!r}; {app.collections} are: {names}"
        other = next((c for c in self._all_collections() if c.name.casefold() == folded and c not in mine), None)
        if other is not None:
            owner = APPS.get(other.components[0])
            if owner is not None:
                message += f" ({other.name!r} is a {owner.collection}, which holds only {owner.item}s)"
        raise ToolError(message)

    def target(self, app: App, name: str | None) -> Collection:
        """Where a new item goes: the named collection, or the app's default one, created if missing."""
        if name is not None:
            return self.collection(app, name)
        mine = self.collections(app)
        if app.default_first and mine:
            return mine[0]
        assert app.default is not None, f"{app.kind} has no default {app.collection}"
        existing = [c for c in mine if c.name == app.default]
        return existing[0] if existing else self._make_collection(app, app.default)

    @_server_call
    def _make_collection(self, app: App, name: str) -> Collection:
        self._all_collections()
        dirname = seeding.collection_dirname(app.kind, name, set(self._dirnames))
        CalendarSet(client=self.client, url=self.home).make_calendar(
            name=name, cal_id=dirname, supported_calendar_component_set=[app.component]
        )
        self.forget_collections()
        return self.collection(app, name)

    @_server_call
    def items(
        self, app: App, coll: Collection, start: datetime | None = None, end: datetime | None = None
    ) -> list[Item]:
        """Every item of the app's type in `coll`; with a range, those the server finds overlapping it.

        One calendar-query REPORT whose answer is read here: the server filters by time range with
        the ranges it keeps per item, and sends each item's text.
        """
        response = self.client.report(str(coll.calendar.url), _query(app.component, start, end), depth=1)
        if response.status >= 400:
            raise dav_error.error_from_response(dav_error.ReportError, response)
        found = []
        for node in response.tree.iter(f"{{{_DAV}}}response") if response.tree is not None else ():
            href = node.findtext(f"{{{_DAV}}}href")
            text = node.findtext(f".//{{{_CALDAV}}}calendar-data")
            if href and text:
                found.append(Item(app, coll, href, text))
        return found

    def all_items(self, app: App, name: str | None = None) -> list[Item]:
        """The items of every collection of the app, or of the one called `name`."""
        colls = [self.collection(app, name)] if name is not None else self.collections(app)
        return [item for coll in colls for item in self.items(app, coll)]

    @_server_call
    def find(self, app: App, uid: str) -> Item:
        """The app's item with this uid, in whichever of its collections it is.

        Every writer of these collections names an item's resource after its uid (seeding as
        `davstore.item_filename`, caldav as the quoted uid), so the item is one GET away; a search
        by UID would make the server parse every item of a large calendar.
        """
        names = dict.fromkeys([davstore.item_filename(uid, ".ics"), quote(uid.replace("/", "%2F"), safe="") + ".ics"])
        for coll in self.collections(app):
            for name in names:
                obj = app.objclass(client=self.client, url=coll.calendar.url.join(name), parent=coll.calendar)
                try:
                    obj.load()
                except dav_error.NotFoundError:
                    continue
                if any(c.name == app.component and str(c.get("UID")) == uid for c in obj.icalendar_instance.walk()):
                    return Item.of(app, coll, obj)
        raise ToolError(f"no {app.item} with uid {uid!r}; use {app.list_tool} to find uids")

    def new_component(self, app: App) -> icalendar.Component:
        """A fresh component with a new uid, stamped with the episode clock."""
        comp = icalendar.Component.get_component_class(app.component)()
        comp.add("UID", str(uuid.uuid4()))
        _stamp(comp, self.ctx.now(), "DTSTAMP", "CREATED", "LAST-MODIFIED")
        return comp

    @_server_call
    def create(self, app: App, coll: Collection, comp: icalendar.Component) -> Item:
        cal = icalendar.Calendar()
        cal.add("PRODID", ical.PRODID)
        cal.add("VERSION", "2.0")
        cal.add_component(comp)
        obj = coll.calendar.add_object(app.objclass, ical=_ics(cal))
        return Item.of(app, coll, obj)

    @contextlib.contextmanager
    def edit(self, item: Item, move_to: Collection | None = None) -> Iterator[icalendar.Component]:
        """Change the item's master component in the block; it is saved (and moved) when the block ends.

        A ToolError raised in the block (a bad argument) leaves the stored item untouched.
        """
        comp = item.component
        yield comp
        _stamp(comp, self.ctx.now(), "DTSTAMP", "LAST-MODIFIED")
        self._save(item, move_to)

    @_server_call
    def _save(self, item: Item, move_to: Collection | None) -> None:
        data = _ics(item.obj.icalendar_instance)  # also adds any missing VTIMEZONE to what save() sends
        if move_to is None or move_to.calendar.url == item.collection.calendar.url:
            item.obj.save()
            return
        # Create in the new collection first: if that fails, nothing is lost.
        moved = move_to.calendar.add_object(item.app.objclass, ical=data, no_overwrite=True)
        item.obj.delete()
        item.loaded, item.collection, item.url = moved, move_to, str(moved.url)

    @_server_call
    def delete(self, app: App, uid: str) -> dict[str, Any]:
        """Delete the app's item with this uid; the result names what went where."""
        item = self.find(app, uid)
        item.obj.delete()
        return {"deleted": uid, app.field: item.collection.name}


def _query(component: str, start: datetime | None, end: datetime | None) -> str:
    """A calendar-query for the items of one component type, overlapping [start, end) when given."""
    span = ""
    if start is not None or end is not None:
        bounds = {"start": start, "end": end}
        attrs = " ".join(f'{k}="{v.astimezone(UTC):%Y%m%dT%H%M%SZ}"' for k, v in bounds.items() if v is not None)
        span = f"<C:time-range {attrs}/>"
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        f'<C:calendar-query xmlns:D="{_DAV}" xmlns:C="{_CALDAV}">'
        "<D:prop><D:getetag/><C:calendar-data/></D:prop>"
        f'<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="{component}">{span}'
        "</C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"
    )


def session(ctx: ToolContext) -> Dav:
    """The episode's CalDAV client, opened on first use and kept across calls."""
    dav: Dav = ctx.client(CLIENT_KEY, lambda: Dav(ctx), Dav.close)
    return dav
