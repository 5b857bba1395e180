"""entity_alignment: one person under different names across apps.

The address book knows someone by their full given name and one address; in the mail they
sign with the name everyone calls them by and write from another address. Stage 2 detects the
operator by two identities with the same family name, so the alias keeps it.
"""

from __future__ import annotations

from stageclaw.author.content.people import PERSONAL_DOMAINS, People, Person
from stageclaw.author.draft import TaskDraft

NAME = "entity_alignment"

REASONS = (
    "I'm travelling and locked out of my work mail, so I'm writing from my personal address.",
    "Our IT team is migrating the mail server this week; please use this address for now.",
    "I'm on my phone and only have my personal account here.",
)


def short_name(person: Person) -> str:
    """The name they go by: a short form of the given name, or an adopted English name."""
    short = person.culture.short.get(person.given)
    if short is None:
        raise ValueError(f"{person.name} has no short name; make them with People.person(short_name=True)")
    return short


def alias(draft: TaskDraft, people: People, person: Person, *, where: list[str], domain: str | None = None) -> Person:
    """`person` writing under their short name from a new address (personal, or at `domain`).

    `where` names the items that show each identity (the contact, the message)."""
    rng = people.rng
    given = short_name(person)
    new_domain = domain or rng.choice([d for d in PERSONAL_DOMAINS[person.region.key] if d != person.email])
    address = people.email(given, person.family, new_domain)
    other = person.known_as(given, address)
    draft.record(
        NAME,
        {
            "person": person.name,
            "names": [person.name, f"{given} {person.family}"],
            "addresses": [person.email, address],
            "items": where,
        },
    )
    return other
