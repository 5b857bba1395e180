"""Notes tools: the user's notes, stored as VJOURNAL in CalDAV notes folders on Radicale.

A note's title is the SUMMARY, its body the DESCRIPTION and its tags the CATEGORIES.
"""

from __future__ import annotations

from typing import Annotated, Any

import icalendar
from pydantic import Field

from stageclaw.tools import dav, paging
from stageclaw.tools.base import ToolContext, tool

APP = dav.NOTES

Uid = Annotated[str, Field(description="the note's uid, as notes_list or notes_search return it")]
_TAGS = "tags (labels) of the note, e.g. ['work', 'orbitals']"


def _set_tags(comp: icalendar.Component, tags: list[str]) -> None:
    comp.pop("CATEGORIES", None)
    clean = sorted({tag.strip() for tag in tags if tag.strip()})
    if clean:
        comp.add("CATEGORIES", clean)


def _page(
    tool: str, args: dict[str, Any], notes: list[dict[str, Any]], limit: int | None, cursor: str | None
) -> dict[str, Any]:
    """One page of notes, by folder, then title, then uid."""
    pager: paging.Pager[dict[str, Any]] = paging.Pager(tool, args, limit, cursor, default=20, noun="notes")
    chosen = pager.window(notes, lambda note: (note["folder"], note["title"].casefold(), note["uid"]))
    shown, fields = pager.finish(chosen)
    return {"notes": shown, **fields}


@tool("notes", returns="{notes: [NOTE + {folder}]}")
def notes_list(
    ctx: ToolContext,
    folder: Annotated[str | None, Field(description="only this notes folder; every folder when omitted")] = None,
    limit: paging.limit(20, 200) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """The user's notes, each with uid, title, body, tags and folder, by folder and title. Changes nothing.

    Returns {notes, total, next_cursor}.
    """
    notes = [item.state(ctx.tz) for item in dav.session(ctx).all_items(APP, folder)]
    return _page("notes_list", {"folder": folder}, notes, limit, cursor)


@tool("notes", returns="{notes: [NOTE + {folder}]}")
def notes_search(
    ctx: ToolContext,
    query: Annotated[str, Field(min_length=1, description="text to look for, e.g. 'Orbitals'")],
    limit: paging.limit(20, 200) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """Notes whose title, body or a tag contains the text (case-insensitive), in every folder. Changes nothing.

    Returns {notes, total, next_cursor}, by folder and title.
    """
    needle = query.casefold()
    found = [
        note
        for note in (item.state(ctx.tz) for item in dav.session(ctx).all_items(APP))
        # Radicale's own text-match is case-sensitive, so the search runs here.
        if any(needle in text.casefold() for text in (note["title"], note["body"], *note["tags"]))
    ]
    return _page("notes_search", {"query": query}, found, limit, cursor)


@tool("notes", returns="NOTE + {folder}")
def notes_read(ctx: ToolContext, uid: Uid) -> dict[str, Any]:
    """One note by uid: uid, title, body, tags and folder. Changes nothing."""
    return dav.session(ctx).find(APP, uid).state(ctx.tz)


@tool("notes", returns="{uid, note: NOTE + {folder}}")
def notes_create(
    ctx: ToolContext,
    title: Annotated[str, Field(description="the note's title")],
    body: Annotated[str, Field(description="the note's text")],
    folder: Annotated[
        str | None,
        Field(description="the notes folder to put it in; 'Notes' when omitted (made if the user has none)"),
    ] = None,
    tags: Annotated[list[str] | None, Field(description=_TAGS)] = None,
) -> dict[str, Any]:
    """Write a new note; returns its new uid and the stored note. Side effects: the new note; with no folder
    named and no 'Notes' folder, one is made."""
    session = dav.session(ctx)
    comp = session.new_component(APP)
    dav.set_text(comp, "SUMMARY", title)
    dav.set_text(comp, "DESCRIPTION", body)
    _set_tags(comp, tags or [])
    item = session.create(APP, session.target(APP, folder), comp)
    return {"uid": item.uid, "note": item.state(ctx.tz)}


@tool("notes", returns="{note: NOTE + {folder}}")
def notes_update(
    ctx: ToolContext,
    uid: Uid,
    title: Annotated[str | None, Field(description="the new title")] = None,
    body: Annotated[str | None, Field(description="the new text; replaces the whole body")] = None,
    tags: Annotated[list[str] | None, Field(description=_TAGS + "; replaces all tags, [] removes them")] = None,
) -> dict[str, Any]:
    """Change a note: only the fields you give change. Returns the updated note.

    To add to a note, read it first and give the whole new body. Side effects: the changed fields only.
    """
    session = dav.session(ctx)
    item = session.find(APP, uid)
    with session.edit(item) as comp:
        if title is not None:
            dav.set_text(comp, "SUMMARY", title)
        if body is not None:
            dav.set_text(comp, "DESCRIPTION", body)
        if tags is not None:
            _set_tags(comp, tags)
    return {"note": item.state(ctx.tz)}


@tool("notes", returns="{deleted, folder}")
def notes_delete(ctx: ToolContext, uid: Uid) -> dict[str, Any]:
    """Delete a note by uid. Side effects: the deletion, which cannot be undone."""
    return dav.session(ctx).delete(APP, uid)
