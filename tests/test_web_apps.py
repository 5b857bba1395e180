"""The web apps on the pool's real HTTP server: seeding, round trip, forms, diffs, isolation, reset."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest

from stageclaw.errors import WorldError
from stageclaw.world import dumps, normalize
from stageclaw.world.model import parse_world
from tests.conftest import changes

WEB_WORLD: dict[str, Any] = {
    "now": "2026-03-09T09:30:00+01:00",
    "timezone": "Europe/Berlin",
    "user": {"name": "Lena Vogel", "email": "lena.vogel@northwind.example"},
    "web": {
        "travel": {
            "flights": [
                {
                    "id": "LH2058-0316",
                    "airline": "Lufthansa",
                    "number": "LH 2058",
                    "origin": "Hamburg (HAM)",
                    "destination": "Munich (MUC)",
                    "depart": "2026-03-16T18:00:00",
                    "arrive": "2026-03-16T19:10:00",
                    "price": 129,
                    "business_price": "389.00",
                    "currency": "EUR",
                },
                {
                    "id": "EW7041-0305",
                    "airline": "Eurowings",
                    "number": "EW 7041",
                    "origin": "Hamburg (HAM)",
                    "destination": "Munich (MUC)",
                    "depart": "2026-03-05T07:05:00",
                    "arrive": "2026-03-05T08:20:00",
                    "price": 89,
                    "currency": "EUR",
                },
            ],
            "hotels": [
                {
                    "id": "h-riem",
                    "name": "Parkhotel Riem",
                    "city": "Munich",
                    "area": "Messestadt Riem",
                    "stars": 4,
                    "price": 142,
                    "currency": "EUR",
                },
                {"id": "h-mitte", "name": "Hotel Spreebogen", "city": "Berlin", "price": 129.5, "currency": "EUR"},
            ],
            "bookings": [
                {
                    "id": "T4KM8Q",
                    "kind": "flight",
                    "item": "LH2058-0316",
                    "traveller": "Lena Vogel",
                    "cabin": "business",
                    "booked_at": "2026-03-06T15:55:00",
                },
                {
                    "id": "P8WB3D",
                    "kind": "hotel",
                    "item": "h-mitte",
                    "traveller": "Lena Vogel",
                    "check_in": "2026-04-02",
                    "check_out": "2026-04-04",
                    "notes": "Late arrival, 23:00",
                },
            ],
        },
        "expenses": {
            "reports": [
                {
                    "id": "EXP-0901",
                    "date": "2026-02-20",
                    "merchant": "DB Fernverkehr",
                    "category": "Travel",
                    "amount": 89.9,
                    "currency": "EUR",
                    "receipt": "db-0220.pdf",
                    "status": "approved",
                    "submitted_at": "2026-02-21T10:00:00+01:00",
                },
                {
                    "id": "EXP-0902",
                    "date": "2026-03-02",
                    "merchant": "Café Luise",
                    "category": "Meals",
                    "amount": "23.40",
                    "currency": "EUR",
                    "status": "draft",
                },
            ],
            "policy": "Meals up to €60 a day.\n\nA receipt for every expense.",
        },
        "intranet": {
            "rooms": [
                {"id": "atlas", "name": "Atlas", "floor": "3", "capacity": 8, "equipment": ["Screen"]},
                {"id": "bora", "name": "Bora", "floor": "2", "capacity": 4},
            ],
            "people": [
                {
                    "id": "p-anna",
                    "name": "Anna Berger",
                    "title": "Travel coordinator",
                    "department": "Operations",
                    "email": "anna.berger@northwind.example",
                    "phone": "+49 40 1234-17",
                }
            ],
            "announcements": [{"id": "a-1", "title": "Office closed Friday", "date": "2026-03-05"}],
            "reservations": [
                {
                    "id": "RES-0001",
                    "room": "atlas",
                    "title": "Design review",
                    "start": "2026-03-10T14:00:00",
                    "end": "2026-03-10T15:00:00",
                    "organizer": "Tom Berg <Tom.Berg@northwind.example>",
                }
            ],
        },
    },
}


def web_world() -> dict[str, Any]:
    return copy.deepcopy(WEB_WORLD)


def get(ep: Any, path: str) -> httpx.Response:
    return httpx.get(ep.endpoints.web_url + path, follow_redirects=True)


def post(ep: Any, path: str, form: dict[str, str]) -> httpx.Response:
    return httpx.post(ep.endpoints.web_url + path, data=form)


def test_snapshot_of_built_world_equals_normalized_world(make_episode, tmp_path):
    ep = make_episode(web_world())
    state = ep.snapshot()
    assert dumps(state) == dumps(normalize(parse_world(web_world()), tmp_path))
    travel = {b["id"]: b for b in state["web"]["travel"]["bookings"]}
    assert travel["T4KM8Q"]["total"] == 389.0 and travel["T4KM8Q"]["check_in"] is None
    assert travel["P8WB3D"]["total"] == 259.0 and travel["P8WB3D"]["cabin"] is None
    assert travel["T4KM8Q"]["booked_at"] == "2026-03-06T15:55:00+01:00"
    assert [r["id"] for r in state["web"]["expenses"]["reports"]] == ["EXP-0901", "EXP-0902"]
    [res] = state["web"]["intranet"]["reservations"]
    assert res["organizer"] == "tom.berg@northwind.example" and res["start"] == "2026-03-10T14:00:00+01:00"
    assert set(state["web"]) == {"travel", "expenses", "intranet"}
    assert set(state["web"]["travel"]) == {"bookings"}  # the catalogue is seed-only


def test_worlds_without_web_apps_have_an_empty_web_state(episode):
    assert episode.snapshot()["web"] == {} and episode.endpoints.web_url is None


def test_only_the_apps_in_world_yaml_exist(make_episode):
    world = web_world()
    world["web"] = {"expenses": {}}
    ep = make_episode(world)
    assert ep.snapshot()["web"] == {"expenses": {"reports": []}}
    assert get(ep, "/expenses/").status_code == 200
    assert get(ep, "/travel/").status_code == 404
    assert "Expensely" in get(ep, "/").text and "Skyway" not in get(ep, "/").text


def test_every_page_renders(make_episode):
    ep = make_episode(web_world())
    pages = [
        "/",
        "/travel/",
        "/travel/flights?origin=Hamburg&destination=Munich&date=2026-03-16",
        "/travel/flights/LH2058-0316",
        "/travel/hotels?city=Munich&check_in=2026-03-16&check_out=2026-03-18",
        "/travel/hotels/h-riem?check_in=2026-03-16&check_out=2026-03-18",
        "/travel/bookings",
        "/travel/bookings/T4KM8Q",
        "/travel/bookings/P8WB3D",
        "/expenses/",
        "/expenses/new",
        "/expenses/EXP-0901",
        "/expenses/EXP-0902/edit",
        "/expenses/policy",
        "/intranet/",
        "/intranet/directory?q=travel",
        "/intranet/people/p-anna",
        "/intranet/rooms",
        "/intranet/rooms/atlas?date=2026-03-10",
        "/intranet/reservations",
        "/intranet/reservations/RES-0001",
    ]
    for path in pages:
        res = get(ep, path)
        assert res.status_code == 200, (path, res.status_code, res.text[-500:])
        assert "<title>" in res.text and "Lena Vogel" in res.text, path
    flights = get(ep, "/travel/flights?origin=Hamburg&destination=Munich").text
    assert "LH 2058" in flights and "EW 7041" not in flights  # the 5 March flight has left
    assert "Anna Berger" in get(ep, "/intranet/directory?q=operations").text
    assert "Design review" in get(ep, "/intranet/rooms/atlas?date=2026-03-10").text
    assert "€259.00" in get(ep, "/travel/bookings").text
    for path in ("/travel/bookings/NOPE", "/expenses/EXP-404", "/intranet/people/nobody", "/intranet/nowhere"):
        assert get(ep, path).status_code == 404, path


def test_booking_and_cancelling_show_up_in_the_diff(make_episode):
    ep = make_episode(web_world())
    s0 = ep.snapshot()
    res = post(
        ep,
        "/travel/hotels/h-riem/book",
        {"check_in": "2026-03-16", "check_out": "2026-03-18", "guest": "Lena Vogel", "notes": "Quiet room"},
    )
    assert res.status_code == 303
    ref = res.headers["location"].split("/travel/bookings/")[1].split("?")[0]
    assert f"Your booking reference is {ref}" in get(ep, f"/travel/bookings/{ref}?booked=1").text
    s1 = ep.snapshot()
    assert changes(s0, s1) == [("added", f"web/travel/bookings/{ref}")]
    booking = next(b for b in s1["web"]["travel"]["bookings"] if b["id"] == ref)
    assert booking | {"booked_at": None} == {
        "id": ref,
        "kind": "hotel",
        "item": "h-riem",
        "traveller": "Lena Vogel",
        "cabin": None,
        "check_in": "2026-03-16",
        "check_out": "2026-03-18",
        "total": 284.0,
        "currency": "EUR",
        "notes": "Quiet room",
        "status": "confirmed",
        "booked_at": None,
    }
    assert booking["booked_at"].startswith("2026-03-09T09:3")
    assert post(ep, "/travel/bookings/P8WB3D/cancel", {}).status_code == 303
    assert changes(s1, ep.snapshot()) == [("modified", "web/travel/bookings/P8WB3D#status")]
    again = post(ep, "/travel/bookings/P8WB3D/cancel", {})
    assert again.status_code == 422 and "already cancelled" in again.text


def test_flight_booking_takes_the_cabin_price(make_episode):
    ep = make_episode(web_world())
    form = {"traveller": "Lena Vogel", "cabin": "business", "notes": ""}
    ref = post(ep, "/travel/flights/LH2058-0316/book", form).headers["location"].split("/")[-1].split("?")[0]
    booking = next(b for b in ep.snapshot()["web"]["travel"]["bookings"] if b["id"] == ref)
    assert (booking["kind"], booking["cabin"], booking["total"]) == ("flight", "business", 389.0)
    gone = post(ep, "/travel/flights/EW7041-0305/book", {"traveller": "Lena Vogel", "cabin": "economy"})
    assert gone.status_code == 422 and "already left" in gone.text


def test_forms_show_errors_and_change_nothing(make_episode):
    ep = make_episode(web_world())
    s0 = ep.snapshot()
    bad_stay = post(
        ep, "/travel/hotels/h-riem/book", {"check_in": "2026-03-18", "check_out": "2026-03-16", "guest": ""}
    )
    assert bad_stay.status_code == 422
    assert "check-out date must be after" in bad_stay.text and "guest&#39;s full name" in bad_stay.text
    past = get(ep, "/travel/hotels?city=Munich&check_in=2026-03-01&check_out=2026-03-02")
    assert past.status_code == 422 and "is in the past" in past.text
    no_receipt = post(
        ep,
        "/expenses/new",
        {"date": "2026-03-05", "merchant": "Taxi Hansa", "category": "Transport", "amount": "31,20", "currency": "EUR"},
    )
    assert no_receipt.status_code == 422 and "receipt reference is required" in no_receipt.text
    assert 'value="31,20"' in no_receipt.text  # what the user typed stays in the form
    future = post(
        ep,
        "/expenses/new",
        {"date": "2026-04-01", "merchant": "X", "category": "Nope", "amount": "abc", "currency": "XYZ"},
    )
    assert future.status_code == 422
    for message in ("in the future", "Choose a category", "is not valid", "Choose a currency"):
        assert message in future.text, message
    clash = post(ep, "/intranet/rooms/atlas/reserve", {"date": "2026-03-10", "start": "14:30", "end": "15:30"})
    assert clash.status_code == 422 and "already reserved 14:00-15:00 (Design review)" in clash.text
    assert "Enter a title" in clash.text
    late = post(
        ep, "/intranet/rooms/atlas/reserve", {"date": "2026-03-10", "start": "20:00", "end": "22:00", "title": "x"}
    )
    assert late.status_code == 422 and "between 07:00 and 21:00" in late.text
    foreign = post(ep, "/intranet/reservations/RES-0001/cancel", {})
    assert foreign.status_code == 422 and "only its organizer (tom.berg@northwind.example)" in foreign.text
    approved = post(ep, "/expenses/EXP-0901/withdraw", {})
    assert approved.status_code == 422 and "is approved" in approved.text
    assert dumps(ep.snapshot()) == dumps(s0)


def test_expense_reports_draft_submit_edit_withdraw(make_episode):
    ep = make_episode(web_world())
    s0 = ep.snapshot()
    form = {
        "date": "2026-03-05",
        "merchant": "Taxi Hansa",
        "category": "Transport",
        "amount": "31,20",
        "currency": "EUR",
        "description": "Airport to office",
        "receipt": "",
        "action": "draft",
    }
    res = post(ep, "/expenses/new", form)
    assert res.status_code == 303 and res.headers["location"].endswith("/expenses/EXP-1003?saved=draft")
    s1 = ep.snapshot()
    [(op, path)] = changes(s0, s1)
    assert (op, path) == ("added", "web/expenses/reports/EXP-1003")
    draft = next(r for r in s1["web"]["expenses"]["reports"] if r["id"] == "EXP-1003")
    assert (draft["amount"], draft["status"], draft["submitted_at"]) == (31.2, "draft", None)
    assert post(ep, "/expenses/EXP-1003/submit", {}).status_code == 422  # no receipt yet
    res = post(ep, "/expenses/EXP-1003/edit", {**form, "receipt": "taxi-0305.pdf", "action": "submit"})
    assert res.headers["location"].endswith("saved=submitted")
    s2 = ep.snapshot()
    assert set(changes(s1, s2)) == {
        ("modified", "web/expenses/reports/EXP-1003#receipt"),
        ("modified", "web/expenses/reports/EXP-1003#status"),
        ("modified", "web/expenses/reports/EXP-1003#submitted_at"),
    }
    assert post(ep, "/expenses/EXP-1003/edit", {**form, "amount": "1,031.20", "receipt": "t.pdf"}).status_code == 303
    assert next(r for r in ep.snapshot()["web"]["expenses"]["reports"] if r["id"] == "EXP-1003")["amount"] == 1031.2
    assert post(ep, "/expenses/EXP-1003/withdraw", {}).status_code == 303
    assert post(ep, "/expenses/EXP-0902/delete", {}).status_code == 303
    final = {r["id"]: r for r in ep.snapshot()["web"]["expenses"]["reports"]}
    assert final["EXP-1003"]["status"] == "withdrawn" and "EXP-0902" not in final


def test_room_reservation_and_cancellation(make_episode):
    ep = make_episode(web_world())
    s0 = ep.snapshot()
    res = post(
        ep, "/intranet/rooms/atlas/reserve", {"date": "2026-03-10", "start": "15:00", "end": "16:00", "title": "Sync"}
    )
    assert res.status_code == 303
    res_id = res.headers["location"].split("/")[-1].split("?")[0]
    s1 = ep.snapshot()
    assert changes(s0, s1) == [("added", f"web/intranet/reservations/{res_id}")]
    mine = next(r for r in s1["web"]["intranet"]["reservations"] if r["id"] == res_id)
    assert mine == {
        "id": res_id,
        "room": "atlas",
        "title": "Sync",
        "start": "2026-03-10T15:00:00+01:00",
        "end": "2026-03-10T16:00:00+01:00",
        "organizer": "lena.vogel@northwind.example",
        "status": "confirmed",
    }
    assert "Sync" in get(ep, "/intranet/reservations").text
    assert post(ep, f"/intranet/reservations/{res_id}/cancel", {}).status_code == 303
    assert changes(s1, ep.snapshot()) == [("modified", f"web/intranet/reservations/{res_id}#status")]


def test_episodes_cannot_see_each_others_apps(make_episode, pool):
    a, b = make_episode(web_world()), make_episode(web_world())
    assert a.endpoints.web_url != b.endpoints.web_url
    sb = dumps(b.snapshot())
    ref = (
        post(a, "/travel/hotels/h-riem/book", {"check_in": "2026-03-16", "check_out": "2026-03-18", "guest": "A"})
        .headers["location"]
        .split("/")[-1]
        .split("?")[0]
    )
    assert get(a, f"/travel/bookings/{ref}").status_code == 200
    assert get(b, f"/travel/bookings/{ref}").status_code == 404
    assert ref not in get(b, "/travel/bookings").text
    assert dumps(b.snapshot()) == sb
    root = pool.web().url
    for path in ("/", "/travel/", "/e/", "/e/not-a-token/travel/", f"/e/{a.web_token}x/travel/"):
        assert httpx.get(root + path).status_code == 404, path
    # A dot segment cannot climb from one episode's prefix into another's.
    escape = f"{a.endpoints.web_url}/%2e%2e/{b.web_token}/travel/bookings/{ref}"
    assert httpx.get(escape).status_code == 404
    url = a.endpoints.web_url
    a.close()
    assert httpx.get(url + "/travel/").status_code == 404


def test_reset_restores_the_seeded_apps(make_episode):
    ep = make_episode(web_world())
    s0 = dumps(ep.snapshot())
    post(ep, "/travel/bookings/T4KM8Q/cancel", {})
    post(ep, "/expenses/EXP-0902/delete", {})
    assert dumps(ep.snapshot()) != s0
    ep.reset()
    assert dumps(ep.snapshot()) == s0
    assert get(ep, "/expenses/EXP-0902").status_code == 200


@pytest.mark.parametrize(
    ("web", "expected"),
    [
        ({"shop": {}}, "web.shop: unknown key"),
        (
            {
                "travel": {
                    "hotels": [{"id": "h", "name": "H", "city": "C", "price": 1, "currency": "EUR"}],
                    "bookings": [{"id": "B", "kind": "hotel", "item": "h", "traveller": "T"}],
                }
            },
            "a hotel booking has check_in and check_out",
        ),
        (
            {"travel": {"bookings": [{"id": "B", "kind": "flight", "item": "LX1", "traveller": "T"}]}},
            "booking B: no flight with id 'LX1'",
        ),
        (
            {"travel": {"hotels": [{"id": "h", "name": "H", "city": "C", "price": 12.345, "currency": "EUR"}]}},
            "web.travel.hotels[0].price: bad amount 12.345",
        ),
        (
            {"travel": {"hotels": [{"id": "h", "name": "H", "city": "C", "price": 1, "currency": "euro"}]}},
            "currency 'euro' must be an ISO 4217 code",
        ),
        (
            {
                "expenses": {
                    "reports": [
                        {
                            "id": "E",
                            "date": "2026-03-01",
                            "merchant": "M",
                            "category": "Fun",
                            "amount": 1,
                            "currency": "EUR",
                        }
                    ]
                }
            },
            "category 'Fun' is not one of Travel",
        ),
        (
            {
                "intranet": {
                    "reservations": [
                        {"id": "R", "room": "x", "title": "t", "start": "2026-03-10T10:00", "end": "2026-03-10T11:00"}
                    ]
                }
            },
            "reservation R: no room with id 'x'",
        ),
        (
            {
                "expenses": {
                    "reports": [
                        {
                            "id": "E",
                            "date": "2026-03-01",
                            "merchant": "M",
                            "category": "Meals",
                            "amount": 1,
                            "currency": "EUR",
                        }
                    ]
                    * 2
                }
            },
            "reports: id 'E' is used twice",
        ),
    ],
)
def test_bad_web_seeds_are_clear_errors(web, expected):
    world = {**web_world(), "web": web}
    with pytest.raises(WorldError) as info:
        parse_world(world, "world.yaml")
    assert expected in str(info.value), str(info.value)
