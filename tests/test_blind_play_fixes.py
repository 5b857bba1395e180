"""Correct answers that blind players gave and the checks rejected (tasks/stage40/PLAYTESTS.md, 2026-12-02):
each is written here as the player wrote it, and passes; the near miss beside it still fails."""

from __future__ import annotations

import re
from datetime import time

from stageclaw.author import verifylib as v
from stageclaw.author.content.places import zone_pattern
from stageclaw.author.content.text import time_regex


def test_a_time_range_with_its_half_of_the_day_written_once_at_its_end():
    # leave-cover: "Friday, May 15, 2:30-3:15pm" was read as 02:30
    times = [c for *_, c in v._clock_times("- Friday, May 15, 2:30-3:15pm (Room 1.07)")]
    assert times == ["14:30", "15:15"]
    assert [c for *_, c in v._clock_times("11:30 to 12:30pm")] == ["11:30", "12:30"]  # the start stays before the end
    assert [c for *_, c in v._clock_times("14:30-15:30, and 9:30 on Monday")] == ["14:30", "15:30", "09:30"]
    four = time_regex(time(16, 0))
    assert re.search(four, "Tuesday, May 12, 4:00-4:30pm, Zoom", re.IGNORECASE)
    assert not re.search(four, "Tuesday, May 12, 4:00-4:30am", re.IGNORECASE)


def _sent(to: list[str], cc: list[str], body: str = "I'd love to go ahead with your quote.") -> dict:
    return {"mail": {"outbox": [{"to": to, "cc": cc, "subject": "Re: Photographer", "body": body}]}}


def test_a_booking_copied_to_the_suppliers_own_other_address_is_to_them_alone():
    # event-planning: the acceptance went to the studio's address, the photographer's personal one in copy
    args = {"to": ["gosia@candidcrow.co.uk"], "label": "Candid Crow", "says": {"an acceptance": r"go ahead"}}
    also = {**args, "also": ["gosia@icloud.com"]}
    assert v.one_message(_sent(["gosia@candidcrow.co.uk"], ["gosia@icloud.com"]), **also)[0]
    assert not v.one_message(_sent(["gosia@candidcrow.co.uk"], ["someone@else.com"]), **also)[0]
    assert not v.one_message(_sent(["gosia@icloud.com"], []), **also)[0]  # not to the studio at all
    assert not v.one_message(_sent(["gosia@candidcrow.co.uk"], ["gosia@icloud.com"]), **args)[0]


def test_an_items_line_may_show_in_brackets_how_its_date_came_about():
    # action-items: the note's line gives the right reminder day and, in brackets, the arithmetic behind it
    stated = {"dated": {"deposit": {"pattern": r"deposit", "dates": ["2026-10-30", "2026-11-02"]}}}
    line = (
        "- Pay the stand deposit – reminder Fri 30 October 2026 (deadline Mon 2 Nov = 21 days before the fair; "
        "2 days before = Sat 31 Oct, moved to the Friday)"
    )
    assert v._stray(line, stated) == []
    wrong = "- Pay the stand deposit – reminder Sat 31 October 2026 (deadline Mon 2 Nov)"
    assert v._stray(wrong, stated) == ["the date 10-31 (month-day) for deposit"]
    hidden = "- Pay the stand deposit (30 Oct) – reminder 31 October"  # the right day only in brackets
    assert v._stray(hidden, stated) == ["the date 10-31 (month-day) for deposit"]


def test_the_year_of_a_written_out_day_is_that_days_not_the_tax_years():
    # tax-pack: "Alder Bank $19.36 (corrected 1099-INT of February 12 2026)" in the mail about the 2025 pack
    said = "Here is my summary for 2025. Alder Bank $19.36 (corrected 1099-INT of February 12 2026); 3rd Jan. 2026"
    assert v._stray(said, {"years": [2025]}) == []
    assert v._stray("Here is my summary for 2026 (sent 12 February 2026)", {"years": [2025]}) == ["the year 2026"]


def test_a_checklist_line_may_say_in_brackets_what_it_replaced():
    # room-booking: "Got Juniper ... for Monday 13 July, 17:30-18:30 (Beacon placeholder cancelled)"
    entry = {
        "label": "the room",
        "pattern": r"Juniper|Beacon",
        "says": r"^(?=.*Juniper)(?=.*17:30)",
        "not_says": "Beacon",
    }
    note = {"uid": "n1", "title": "Club", "body": ""}

    def line(text: str) -> dict:
        return {"notes": {"Notes": [{**note, "body": f"- {text}\n"}]}}

    args = {"uid": "n1", "folder": "Notes", "label": "the note", "entries": [entry]}
    assert v.checklist(line("Got Juniper for 13 July, 17:30-18:30 (Beacon placeholder cancelled)"), **args)[0]
    assert not v.checklist(line("Got Beacon for 13 July, 17:30 (Juniper asked)"), **args)[0]
    assert not v.checklist(line("Got Juniper and Beacon for 13 July, 17:30"), **args)[0]


def test_a_row_naming_the_place_before_the_day_binds_the_times_after_the_comma():
    # find-a-slot: "- Matthew (Denver): Tuesday 18 August, 08:00–09:00" gave Denver no time
    places = {"Denver": {"pattern": "Denver", "start": "08:00", "end": "09:00"}}
    row = "- Matthew (Denver): Tuesday 18 August, 08:00–09:00\n- Nanda: Tuesday, 11:00"
    assert v._bound_times(row, places, "Denver", "Stockholm") == {"Denver": [("08:00", "start"), ("09:00", "end")]}
    args = {"to": {"m@x.org": "Denver"}, "here": "Stockholm", "places": places, "day": r"\bTue", "need": "own"}
    sent = {"mail": {"outbox": [{"to": ["m@x.org"], "subject": "Slot", "body": row}]}}
    assert v.told_times(sent, **args)[0]
    sent["mail"]["outbox"][0]["body"] = row.replace("08:00–09:00", "09:00–10:00")
    assert not v.told_times(sent, **args)[0]


def test_the_users_own_reminder_ticked_off_beside_an_open_replacement_is_as_good_as_replaced():
    # rsvp-coordination: "Fredrik: how many are coming" ticked off, a new one for the right day added
    mine = {"uid": "r-mine", "title": "Fredrik: how many are coming", "due": "2026-04-06"}
    s0 = {"reminders": {"Reminders": [mine]}}
    args = {
        "pattern": "how many|numbers",
        "lst": "Reminders",
        "due": "2026-04-02",
        "label": "numbers",
        "stale": "r-mine",
    }
    new = {"uid": "r-new", "title": "Send the final numbers", "due": "2026-04-02"}
    ticked = {**mine, "completed": True}
    assert not v.one_reminder(s0, {"reminders": {"Reminders": [ticked, new]}}, **args)[0]  # ticked: "it's done"
    args["tick_ok"] = True  # where the job did what the user's reminder asked for, in part
    assert v.one_reminder(s0, {"reminders": {"Reminders": [ticked, new]}}, **args)[0]
    assert not v.one_reminder(s0, {"reminders": {"Reminders": [ticked]}}, **args)[0]  # ticked, nothing open
    assert not v.one_reminder(s0, {"reminders": {"Reminders": [mine, new]}}, **args)[0]  # left beside the new one


def test_a_line_may_say_unbracketed_where_its_day_moved_from():
    # appointment-booking: "- Wednesday 29 July, 11:15: GP blood test (Sharma Medical Practice), moved from
    # Thursday 6 August" in the schedule sent to the partner
    stated = {"dated": {"blood test": {"pattern": r"blood", "dates": ["2026-07-29"]}}}
    for line in (
        "- Wednesday 29 July, 11:15: GP blood test (Sharma Medical Practice), moved from Thursday 6 August",
        "The blood test was moved from 6 August to 29 July, 11:15.",
        "Blood test on 29 July instead of 6 August.",
    ):
        assert v._stray(line, stated) == [], line
    assert v._stray("- Thursday 6 August, 11:15: GP blood test", stated) == [
        "the date 08-06 (month-day) for blood test"
    ]
    # the history clause ends at its comma: a wrong day after it is still a claim
    assert v._stray("Blood test moved from 6 August, now 30 July", stated) == [
        "the date 07-30 (month-day) for blood test"
    ]


def test_a_confirmation_may_give_the_other_appointments_of_the_plan():
    # appointment-booking seed 1: the physio's rule ties the assessment (Tue 18 Aug, 13:15) to the blood test
    # (Wed 29 Jul, 11:15), and the player's confirmation said so
    from stageclaw.author.family import generate

    checks = {c.id: c for c in generate("appointment-booking", 1).checks}
    physio = checks["confirmed_physio"].args
    assert checks["booked_physio"].args["start"] == "2026-08-18T13:15:00+05:30"
    assert checks["booked_gp"].args["start"] == "2026-07-29T11:15:00+05:30"

    def sent(body: str) -> dict:
        return {"mail": {"outbox": [{"to": [physio["to"]], "cc": [], "subject": "Re: Assessment", "body": body}]}}

    told = "Tuesday 18 August, 13:15 suits me. My blood test with my GP is on Wednesday 29 July."
    assert v.message_says(sent(told), **physio)[0]
    assert not v.message_says(sent(told.replace("29 July", "30 July")), **physio)[0]  # not a day of the plan
    assert not v.message_says(sent(told.replace("29 July", "29 July at 11:15")), **physio)[0]  # another visit's hour
    assert not v.message_says(sent(told.replace("18 August", "17 August").replace("Tuesday", "Monday")), **physio)[0]


def test_a_colleague_of_the_account_team_may_hear_that_she_is_not_needed():
    # leave-cover seed 1: "In the end Thomas and Aishu are covering my client calls between them, so there's
    # nothing you need to take on. Good luck with the onboarding in Lyon." to the colleague who takes no call
    from stageclaw.author.family import generate

    args = {c.id: c for c in generate("leave-cover", 1).checks}["only_those_concerned"].args
    body = (
        "Hi Valentina,\n\nThanks for offering to help while I'm on leave (Tuesday, May 12 to Friday, May 22). In the "
        "end Thomas and Aishu are covering my client calls between them, so there's nothing you need to take on. "
        "Good luck with the onboarding in Lyon.\n\nMany thanks,\nRebecca\n"
    )

    def sent(to: str) -> dict:
        return {
            "mail": {
                "outbox": [{"to": [to], "cc": [], "subject": "Client call cover while I'm on leave", "body": body}]
            }
        }

    assert v.audience(sent("valentina_rojas@ironbark-health.com"), **args)[0]
    assert not v.audience(sent("wei.cao@ironbark-health.com"), **args)[0]  # not on the account team


def test_the_cover_may_be_handed_the_users_to_do_with_its_day():
    # handover seed 1: the forward of Driftwood Media's thread to Oliver also asked him to "send Ifeoma the agenda
    # for that call the day before (Tue 28 Oct)", the user's own reminder handed on
    from stageclaw.author.family import generate

    checks = {c.id: c for c in generate("handover", 1).checks}
    args = checks["forwarded_driftwood_media"].args
    assert "2025-10-28" in args["dates"]
    assert "2025-10-30" not in args["dates"]  # a day in the leave that is nothing to this client


def test_a_time_in_a_one_zone_country_may_be_named_by_the_country_or_its_zone():
    # meeting-move (round 8): "15:00 India time (IST), which is 10:30 ... for me in Lagos (WAT)"
    india = zone_pattern("Asia/Kolkata", "Kolkata", "Bengaluru")
    places = {
        "Kolkata": {"pattern": india, "start": "15:00", "end": "16:30"},
        "Lagos": {"pattern": zone_pattern("Africa/Lagos", "Lagos"), "start": "10:30", "end": "12:00"},
    }
    args = {"to": {"vikram@ironbark.in": "Kolkata"}, "here": "Lagos", "places": places, "day": r"2 June"}

    def told(body: str) -> bool:
        state = {"mail": {"outbox": [{"to": ["vikram@ironbark.in"], "subject": "Re: call", "body": body}]}}
        return v.told_times(state, **args, need="both", dates=["2026-06-02"])[0]

    said = (
        "I have moved the call to Tuesday 2 June at {} India time (IST), which is {} on Tuesday 2 June for me in Lagos."
    )
    assert told(said.format("15:00", "10:30"))
    assert not told(said.format("16:00", "10:30"))  # a wrong time for India is still wrong
    assert not told("Moved to Tuesday 2 June at 15:00, which is 10:30 for me in Lagos.")  # no place for 15:00
    assert not re.search(india, "the first list of what I must assist with", re.IGNORECASE)


def test_the_group_may_be_told_with_a_members_own_other_address_copied():
    # course-plan (round 8): Raj asked to be written to at a personal address; the player wrote to the
    # contacts' addresses and copied that one, as meeting-move already allows
    group = ["galli@bigpond.com", "nair.rajesh@outlook.com", "rebecca@gmail.com"]
    args = {"to": group, "label": "the study group", "subject": "deadline", "also": ["raj@outlook.com"]}

    def sent(*messages: list[str]) -> dict:
        return {"mail": {"outbox": [{"to": to, "subject": "UX205 deadline moved", "body": "."} for to in messages]}}

    assert v.sent_once(sent([*group, "raj@outlook.com"]), **args)[0]
    assert not v.sent_once(sent(["galli@bigpond.com", "raj@outlook.com", "rebecca@gmail.com"]), **args)[0]  # it alone
    assert not v.sent_once(sent([*group, "someone@else.com"]), **args)[0]
    assert not v.sent_once(sent([*group, "raj@outlook.com"]), **{k: a for k, a in args.items() if k != "also"})[0]


def test_a_note_line_may_say_in_a_clause_of_its_own_what_was_called_off():
    # room-booking (round 8): "Booked Beacon ... 17:30-18:30 (RES-1009); Harbour placeholder cancelled."
    entry = {"label": "the room held", "pattern": r"Beacon|Harbour", "says": r"^(?=.*Beacon)(?=.*17:30)"}
    entry["not_says"] = r"Harbour|12:30"

    def note(line: str) -> bool:
        state = {"notes": {"Notes": [{"uid": "n-club", "title": "Book club", "body": f"Snacks\n{line}"}]}}
        return v.checklist(state, uid="n-club", folder="Notes", label="the note", entries=[entry])[0]

    assert note("Booked Beacon on Tuesday 6 October, 17:30-18:30 (RES-1009); Harbour placeholder cancelled.")
    assert note("Beacon, 17:30; released the Harbour hold")
    assert not note("Booked Beacon on Tuesday 6 October, 17:30-18:30; Harbour 12:30 kept as a backup")
    assert not note("Booked Harbour at 12:30; Beacon cancelled")


def test_an_acceptance_may_say_whom_the_user_would_love_to_have():
    # event-planning: "I'd love you to photograph our Design team offsite on Tuesday 3 November 2026" was read as
    # no acceptance
    from stageclaw.author.families.event_planning import ACCEPT

    args = {"to": ["nick@lensworks.co.uk"], "label": "Lensworks", "says": {"an acceptance": ACCEPT}}
    said = "I'd love you to photograph our Design team offsite on Tuesday 3 November 2026, 09:30 to 12:30."
    assert v.one_message(_sent(["nick@lensworks.co.uk"], [], said), **args)[0]
    assert not v.one_message(_sent(["nick@lensworks.co.uk"], [], "You could photograph it on 3 November."), **args)[0]


def test_a_summary_may_keep_the_old_dates_as_history_and_give_where_the_prep_moved():
    # action-items: "now Mon 23 - Wed 25 November 2026 (was 14-16 October)" and "my 'Prep for the fair' block
    # moved with the fair: now Wed 18 November" were read as wrong dates
    from stageclaw.author import generate

    draft = generate("action-items", 1)
    stated = next(c.args for c in draft.checks if c.id == "summary_note")["stated"]
    said = (
        "- The fair has moved: it is now Mon 23 - Wed 25 November 2026 (was 14-16 October).\n"
        "My 'Prep for the fair' block moved with the fair: now Wed 18 November, 14:00-16:00."
    )
    assert v._stray(said, stated) == []
    assert v._stray("- The fair is on 14-16 October.", stated) == [
        "the date 10-14 (month-day)",
        "the date 10-16 (month-day)",
    ]


def test_a_claim_mail_may_give_what_each_category_comes_to():
    # expense-report: "Meals: A$215.09", "Taxis: A$139.13" beside the total were read as wrong amounts
    from stageclaw.author import generate

    draft = generate("expense-report", 1)
    stated = next(c.args for c in draft.checks if c.id == "total_in_mail")["stated"]
    assert v._stray("Total: A$1,054.86\n- Meals: A$215.09\n- Taxis: A$139.13", stated) == []
    assert v._stray("- Meals: A$215.19", stated) == ["the amount 215.19"]


def test_the_quarters_bills_may_be_filed_in_its_folder_the_usual_way():
    # bills-split: the contents insurance PDF saved to Flat/Bills/2026 Q1 and the corrected electricity bill put
    # over the estimate there were counted as collateral damage
    from stageclaw.author import generate
    from stageclaw.grade.collateral import allowed

    allow = generate("bills-split", 1).allow
    folder = "files/Flat/Bills/2026 Q1"
    assert allowed({"op": "added", "path": f"{folder}/Contents insurance 2026-01 to 2026-03.pdf"}, allow)
    assert allowed({"op": "modified", "path": f"{folder}/Electricity 2026-01 to 2026-03.pdf#sha256"}, allow)
    assert not allowed({"op": "modified", "path": "files/Flat/Bills/2025 Q4/Gas 2025-10 to 2025-12.pdf#sha256"}, allow)
    assert not allowed({"op": "removed", "path": f"{folder}/Gas 2026-01 to 2026-03.pdf"}, allow)


def test_a_mail_to_a_colleague_may_say_which_of_their_days_away_it_kept_clear_of():
    # leave-cover seed 1: "I've checked the Team calendar and kept clear of your time off on May 21–22" to Aishu
    from stageclaw.author.family import generate

    args = {c.id: c for c in generate("leave-cover", 1).checks}["dates_told"].args
    body = (
        "Hi Aishu,\n\nThanks for offering to help while I'm on leave (May 12–22). I've checked the Team calendar and "
        "kept clear of your time off on May {away}. Here are the calls I'd like you to take (times are Mountain "
        "Time):\n\n- Meridian Studio: Weekly check-in, Tuesday, May 12, 2:00–2:30 PM\n"
        "- Meridian Studio: Weekly check-in, Tuesday, May 19, 2:00–2:30 PM\n\nThanks a lot,\nRebecca\n"
    )

    def sent(away: str) -> dict:
        mail = {"to": ["aishwarya@ironbark-health.com"], "cc": [], "subject": "Your client calls", "body": body}
        return {"mail": {"outbox": [{**mail, "body": body.format(away=away)}]}}

    assert v.dates_told(sent("21–22"), **args)[0]
    assert not v.dates_told(sent("14–15"), **args)[0]  # not her days away


def test_a_claim_mail_to_the_manager_may_give_what_each_category_comes_to():
    # expense-claim seed 1 (round 10): "Ryde rides ... $104.40" and "Meals (two capped at the $40 Seattle meal
    # rate): $118.37" beside the total $823.49
    from stageclaw.author.family import generate

    args = {c.id: c for c in generate("expense-claim", 1).checks}["message_right"].args
    body = (
        "Hi Margaret,\n\nMy Seattle trip expenses are all in on Expensely. The total awaiting your approval is "
        "$823.49:\n\n- Brightlane House Hotel, 3 nights: $417.00\n- Summit Airlines, return flight: $183.72\n"
        "- Ryde rides: ${rides}\n- Meals (two capped at the $40 Seattle meal rate): $118.37\n\nThanks,\nLi"
    )

    def sent(rides: str) -> dict:
        to = ["margaret@alder-health.com", "iyer.priyanka@alder-health.com"]  # the manager, and who approves now
        mail = {"to": to, "cc": [], "subject": "Seattle expenses", "in_reply_to": None}
        return {"mail": {"outbox": [{**mail, "body": body.format(rides=rides)}]}}

    assert v.message_says(sent("104.40"), **args)[0]
    assert not v.message_says(sent("104.60"), **args)[0]  # not what the rides come to
