#!/usr/bin/env python3
"""Checks a mail perfbot wrote as a reader's mail program would take it.

usage: tests/check-mail.py FILE.eml [MESSAGE-ID]

Parses FILE with the standard library's email package (policy.default)
and checks: From, To, Subject, Message-ID and Date are there and parse;
with MESSAGE-ID, In-Reply-To and References are exactly it (without, they
are absent); the body is text/plain in UTF-8 and no line of it passes 72
columns; no header line passes 78 columns unless it is one word. Exits 1
with a line per failure, 0 when all hold.
"""
import email
import email.policy
import email.utils
import sys


def check(path, expected_id):
    failures = []
    with open(path, "rb") as f:
        raw = f.read()
    msg = email.message_from_bytes(raw, policy=email.policy.default)

    for name in ("From", "To", "Subject", "Message-ID", "Date"):
        if msg[name] is None:
            failures.append(f"no {name} header")
    for name in ("From", "To", "Cc"):
        value = msg[name]
        if value is None:
            continue
        if value.defects:
            failures.append(f"{name}: {value.defects}")
        for addr in value.addresses:
            if "@" not in addr.addr_spec:
                failures.append(f"{name}: '{addr}' has no address")
    if msg["Date"] is not None and msg["Date"].datetime is None:
        failures.append(f"Date '{msg['Date']}' does not parse")
    if msg["Message-ID"] is not None:
        mid = str(msg["Message-ID"])
        if not (mid.startswith("<") and mid.endswith(">") and "@" in mid):
            failures.append(f"Message-ID '{mid}' is not <left@right>")
    for name in ("In-Reply-To", "References"):
        got = msg[name]
        if expected_id is None and got is not None:
            failures.append(f"{name} '{got}', expected none")
        elif expected_id is not None and str(got) != expected_id:
            failures.append(f"{name} '{got}', expected '{expected_id}'")
    if msg.get_content_type() != "text/plain":
        failures.append(f"content type {msg.get_content_type()}, not text/plain")
    if (msg.get_content_charset() or "").lower() != "utf-8":
        failures.append(f"charset {msg.get_content_charset()}, not utf-8")

    head = raw.split(b"\n\n", 1)[0].decode("ascii", "replace")
    for line in head.split("\n"):
        if len(line) > 78 and " " in line.strip():
            failures.append(f"header line of {len(line)} columns: {line[:40]}...")
        if len(line) > 998:
            failures.append(f"header line of {len(line)} characters")
    try:
        body = msg.get_content()
    except (LookupError, UnicodeDecodeError) as e:
        failures.append(f"the body does not decode: {e}")
        body = ""
    for number, line in enumerate(body.split("\n"), 1):
        if len(line) > 72:
            failures.append(f"body line {number} has {len(line)} columns: {line[:40]}...")
    return failures


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: check-mail.py FILE.eml [MESSAGE-ID]", file=sys.stderr)
        return 2
    try:
        failures = check(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
    except OSError as e:
        failures = [str(e)]
    for failure in failures:
        print(f"check-mail: {sys.argv[1]}: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
