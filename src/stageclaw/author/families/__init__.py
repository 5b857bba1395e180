"""The scenario families, one module per family; importing this package registers them."""

from stageclaw.author.families import (
    action_items,
    appointment_booking,
    bill_triage,
    document_request,
    expense_report,
    invoice_filing,
    meeting_move,
    travel_booking,
    trip_itinerary,
)

__all__ = [
    "action_items",
    "appointment_booking",
    "bill_triage",
    "document_request",
    "expense_report",
    "invoice_filing",
    "meeting_move",
    "travel_booking",
    "trip_itinerary",
]
