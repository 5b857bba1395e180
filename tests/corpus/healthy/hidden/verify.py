"""Checks for the corpus' healthy task: one new reminder, due 24 March, about the invoice."""


def check_reminder_added(initial, final, trace):
    before = {t["uid"] for t in initial["reminders"].get("Inbox", [])}
    new = [t for t in final["reminders"].get("Inbox", []) if t["uid"] not in before]
    if len(new) != 1:
        return False, f"{len(new)} new reminders in Inbox"
    todo = new[0]
    if not (todo.get("due") or "").startswith("2026-03-24"):
        return False, f"due {todo.get('due')}"
    if "invoice" not in todo["title"].lower() or todo["completed"]:
        return False, f"title {todo['title']!r}, completed {todo['completed']}"
    return True, "reminder due 2026-03-24"
