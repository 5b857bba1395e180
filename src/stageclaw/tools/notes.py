"""Notes tools: the user's notes, stored as VJOURNAL in CalDAV notes folders on Radicale.

A note's title is the SUMMARY, its body the DESCRIPTION and its tags the CATEGORIES.
"""

from __future__ import annotations

from typing import Annotated, Any

import icalendar
from pydantic import Field

from stageclaw.tools import dav
from stageclaw.tools.base import ToolContext, tool

APP = dav.NOTES

Uid = Annotated[str, Field(description="the note's uid, as notes_list or notes_search return it")]
_TAGS = "tags (labels) of the note, e.g. ['work', 'orbitals']"


def _set_tags(comp: icalendar.Component, tags: list[str]) -> None:
    comp.pop("CATEGORIES", None)
    clean = sorted({tag.strip() for tag in tags if tag.strip()})
    if clean:
        comp.add("CATEGORIES", clean)


def _sorted(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(notes, key=lambda note: (note["folder"], note["title"].casefold(), note["uid"]))


@tool("notes", returns="{notes: [NOTE + {folder}]}")
def notes_list(
    ctx: ToolContext,
    folder: Annotated[str | None, Field(description="only this notes folder; every folder when omitted")] = None,
) -> dict[str, Any]:
    """The user's notes, each with uid, title, body, tags and folder. Changes nothing."""
    return {"notes": _sorted([item.state(ctx.tz) for item in dav.session(ctx).all_items(APP, folder)])}


@tool("notes", returns="{notes: [NOTE + {folder}]}")
def notes_search(
    ctx: ToolContext,
    query: Annotated[str, Field(min_length=1, description="text to look for, e.g. 'Orbitals'")],
) -> dict[str, Any]:
    """Notes whose title, body or a tag contains the text (case-insensitive), in every folder."""
    needle = query.casefold()
    found = [
        note
        for note in (item.state(ctx.tz) for item in dav.session(ctx).all_items(APP))
        # Radicale's own text-match is case-sensitive, so the search runs here.
        if any(needle in text.casefold() for text in (note["title"], note["body"], *note["tags"]))
    ]
    return {"notes": _sorted(found)}


@tool("notes", returns="NOTE + {folder}")
def notes_read(ctx: ToolContext, uid: Uid) -> dict[str, Any]:
    """One note by uid: uid, title, body, tags and folder."""
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
    """Write a new note; returns its new uid and the stored note."""
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

    To add to a note, read it first and give the whole new body.
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
    """Delete a note by uid."""
    return dav.session(ctx).delete(APP, uid)
