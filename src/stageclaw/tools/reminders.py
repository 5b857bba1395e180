"""Reminders tools: the user's to-dos, in CalDAV reminder lists (VTODO collections) on Radicale."""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import Annotated, Any

import icalendar
from pydantic import Field

from stageclaw.tools import dav, paging
from stageclaw.tools.base import ToolContext, tool
from stageclaw.tools.timeparse import parse_when

APP = dav.REMINDERS

Uid = Annotated[str, Field(description="the reminder's uid, as reminders_list returns it")]
_DUE = (
    "when it is due, ISO 8601: a date (2026-03-12) or a date-time (2026-03-12T17:00 in the user's timezone, "
    "or with an offset)"
)
_PRIORITY = "1 = highest to 9 = lowest, as in iCalendar (1-4 high, 5 medium, 6-9 low); 0 = no priority"
_NOTES = "free-text notes on the reminder"
Priority = Annotated[int | None, Field(ge=0, le=9, description=_PRIORITY)]


def _set_due(comp: icalendar.Component, due: str, tz: tzinfo) -> None:
    value = dav.localize(parse_when(due, tz, "due"), tz) if due else None
    comp.pop("DUE", None)
    if value is not None:
        comp.add("DUE", value)


def _set_priority(comp: icalendar.Component, priority: int) -> None:
    comp.pop("PRIORITY", None)
    comp.add("PRIORITY", priority)


def _order(todo: dict[str, Any]) -> tuple[Any, ...]:
    # Open before done, soonest due first, undated last. Due values are ISO text in the
    # user's timezone, so text order is time order (a date sorts before times that day).
    return (todo["completed"], todo["due"] is None, todo["due"] or "", todo["title"].casefold(), todo["uid"])


@tool("reminders", returns="{lists: [{name, open, completed}]}")
def reminders_list_lists(
    ctx: ToolContext,
    limit: paging.limit(100, 500) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """The user's reminder lists by name, each with how many of its reminders are open and completed.

    Returns {lists: [{name, open, completed}], total, next_cursor}; pass a name as `list` to the
    other reminders tools. Changes nothing.
    """
    session = dav.session(ctx)
    pager: paging.Pager[dav.Collection] = paging.Pager(
        "reminders_list_lists", {}, limit, cursor, default=100, noun="lists"
    )
    out = []
    for coll in pager.window(session.collections(APP), lambda c: (c.name.casefold(), c.name)):
        done = [item.state(ctx.tz)["completed"] for item in session.items(APP, coll)]
        out.append({"name": coll.name, "open": done.count(False), "completed": done.count(True)})
    lists, fields = pager.finish(out)
    return {"lists": lists, **fields}


@tool("reminders", returns="{reminders: [TODO + {list}]}")
def reminders_list(
    ctx: ToolContext,
    list: Annotated[str | None, Field(description="only this reminder list; every list when omitted")] = None,
    include_completed: Annotated[bool, Field(description="also list completed reminders")] = False,
    limit: paging.limit(50, 500) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """The user's reminders (to-dos): open ones first, soonest due first. Changes nothing.

    Returns {reminders, total, next_cursor}. Each has uid, title, notes, due, priority (1 highest
    .. 9 lowest, 0 or null = none), completed, completed_at and list. Completed reminders are left
    out unless include_completed is true. reminders_list_lists names the lists.
    """
    pager: paging.Pager[dict[str, Any]] = paging.Pager(
        "reminders_list",
        {"list": list, "include_completed": include_completed},
        limit,
        cursor,
        default=50,
        noun="reminders",
    )
    todos = [item.state(ctx.tz) for item in dav.session(ctx).all_items(APP, list)]
    chosen = pager.window([t for t in todos if include_completed or not t["completed"]], _order)
    reminders, fields = pager.finish(chosen)
    return {"reminders": reminders, **fields}


@tool("reminders", returns="{uid, reminder: TODO + {list}}")
def reminders_create(
    ctx: ToolContext,
    title: Annotated[str, Field(description="what to do, e.g. 'Book dentist'")],
    list: Annotated[
        str | None,
        Field(
            description="the reminder list to add it to; when omitted, the first list (one named 'Reminders' "
            "is made if the user has none)"
        ),
    ] = None,
    due: Annotated[str | None, Field(description=_DUE)] = None,
    notes: Annotated[str | None, Field(description=_NOTES)] = None,
    priority: Priority = None,
) -> dict[str, Any]:
    """Add a reminder (a to-do); returns its new uid and the stored reminder. Side effects: the new reminder;
    with no list named and none existing, a list called 'Reminders' is made."""
    session = dav.session(ctx)
    comp = session.new_component(APP)
    dav.set_text(comp, "SUMMARY", title)
    dav.set_text(comp, "DESCRIPTION", notes or "")
    _set_due(comp, due or "", ctx.tz)
    if priority is not None:
        _set_priority(comp, priority)
    comp.add("STATUS", "NEEDS-ACTION")
    item = session.create(APP, session.target(APP, list), comp)
    return {"uid": item.uid, "reminder": item.state(ctx.tz)}


@tool("reminders", returns="{reminder: TODO + {list}}")
def reminders_update(
    ctx: ToolContext,
    uid: Uid,
    title: Annotated[str | None, Field(description="the new title")] = None,
    due: Annotated[str | None, Field(description=_DUE + "; '' removes the due date")] = None,
    notes: Annotated[str | None, Field(description=_NOTES + "; '' removes them")] = None,
    priority: Priority = None,
    list: Annotated[str | None, Field(description="move the reminder to this list (its uid stays the same)")] = None,
) -> dict[str, Any]:
    """Change a reminder: only the fields you give change. Returns the updated reminder.

    To tick a reminder off use reminders_complete. Side effects: the changed fields only.
    """
    session = dav.session(ctx)
    item = session.find(APP, uid)
    target = session.collection(APP, list) if list is not None else None
    with session.edit(item, move_to=target) as comp:
        if title is not None:
            dav.set_text(comp, "SUMMARY", title)
        if due is not None:
            _set_due(comp, due, ctx.tz)
        if notes is not None:
            dav.set_text(comp, "DESCRIPTION", notes)
        if priority is not None:
            _set_priority(comp, priority)
    return {"reminder": item.state(ctx.tz)}


@tool("reminders", returns="{reminder: TODO + {list}}")
def reminders_complete(ctx: ToolContext, uid: Uid) -> dict[str, Any]:
    """Mark a reminder as done, now. Returns the updated reminder; an already completed one stays as it was.

    Side effects: the reminder is completed (with the time), not deleted.
    """
    session = dav.session(ctx)
    item = session.find(APP, uid)
    if item.state(ctx.tz)["completed"]:
        return {"reminder": item.state(ctx.tz)}
    with session.edit(item) as comp:
        for name in ("STATUS", "COMPLETED", "PERCENT-COMPLETE"):
            comp.pop(name, None)
        comp.add("STATUS", "COMPLETED")
        comp.add("COMPLETED", ctx.now().astimezone(UTC))  # iCalendar wants COMPLETED in UTC
        comp.add("PERCENT-COMPLETE", 100)
    return {"reminder": item.state(ctx.tz)}


@tool("reminders", returns="{deleted, list}")
def reminders_delete(ctx: ToolContext, uid: Uid) -> dict[str, Any]:
    """Delete a reminder by uid (to tick it off instead, use reminders_complete). Side effects: the deletion,
    which cannot be undone."""
    return dav.session(ctx).delete(APP, uid)
