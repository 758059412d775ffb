#!/usr/bin/env python3
"""Posts each bank file of a directory to BASE_URL and compares with its expected.json
(run by scripts/check-bank-files.sh, which says what is checked)."""

import json
import os
import random
import sys
import urllib.error
import urllib.request
from decimal import Decimal
from pathlib import Path

BASE = os.environ["BASE_URL"].rstrip("/")


def call(method, path, token=None, body=None, content_type="application/json"):
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", content_type)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            raw = r.read()
            return r.status, json.loads(raw, parse_float=Decimal) if raw else None
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw, parse_float=Decimal)
        except ValueError:
            return e.code, raw.decode(errors="replace")


def user(currency):
    email = f"bankfiles-{random.getrandbits(48):x}@example.com"
    password = "correct horse battery staple bank files"
    body = {"firstname": "Bank", "lastname": "Files", "email": email,
            "password": password, "confirmPassword": password}
    status, answer = call("POST", "/auth/register", body=body)
    assert status == 201, f"register: {status} {answer}"
    status, answer = call("POST", "/auth/login", body={"email": email, "password": password})
    assert status == 200, f"login: {status} {answer}"
    token = answer["token"]
    wallet = {"name": "Main", "initialBalance": 0, "currency": currency}
    status, answer = call("PUT", "/api/wallet", token, wallet)
    assert status == 200, f"wallet: {status} {answer}"
    return token


def stored(token):
    """The wallet's transaction count and balance (its initial balance is 0: the signed
    sum), and the dates of its transactions."""
    status, wallet = call("GET", "/api/wallet", token)
    assert status == 200, f"wallet: {status} {wallet}"
    status, page = call("GET", "/api/transactions?limit=200", token)
    assert status == 200, f"list: {status} {page}"
    balance = wallet["amountBalance"]  # Money: {"amount", "currency"}
    amount = balance["amount"] if isinstance(balance, dict) else balance
    return wallet["transactionCount"], Decimal(str(amount)), page


def check(directory, name, want):
    token = user(want.get("currency", "EUR"))
    query = f"?dateFormat={want['dateFormat']}" if "dateFormat" in want else ""
    body = (directory / name).read_bytes()
    status, answer = call("POST", "/api/imports" + query, token, body, "application/octet-stream")
    if want.get("expected_refusal"):
        count, _, _ = stored(token)
        ok = 400 <= status < 500 and count == 0
        return ok, f"{status} ({(answer or {}).get('detail', '') if isinstance(answer, dict) else answer})"[:160]
    if status not in (200, 201, 202):
        return False, f"{status}: {answer}"[:300]
    count, balance, rows = stored(token)
    got = {
        "count": count,
        "sum": balance,
        "first": min((t["date"][:10] for t in rows), default=None),
        "last": max((t["date"][:10] for t in rows), default=None),
    }
    again, second = call("POST", "/api/imports" + query, token, body, "application/octet-stream")
    created_again = stored(token)[0] - count
    wants = [want] + [dict(want, **a) for a in want.get("accept", [])]
    fits = any(
        got["count"] == w["count"] and got["sum"] == Decimal(w["sum"])
        and got["first"] == w.get("first", got["first"]) and got["last"] == w.get("last", got["last"])
        for w in wants
    )
    text = want.get("text")
    _, providers = call("GET", "/api/providers?limit=200", token)
    names = json.dumps(providers, ensure_ascii=False, default=str)
    if text and text not in names and not any(text in json.dumps(t, ensure_ascii=False, default=str) for t in rows):
        fits = False
        got["text"] = f"{text!r} not found"
    ok = fits and created_again == 0
    return ok, (f"{got['count']} rows, sum {got['sum']}, {got['first']}..{got['last']}"
                f"{', ' + got['text'] if 'text' in got else ''}; again: {again}, {created_again} created"
                f" (want {want['count']}, {want['sum']}, {want.get('first')}..{want.get('last')})")


def main():
    directory = Path(sys.argv[1])
    expected = json.loads((directory / "expected.json").read_text())
    failed = 0
    for name, want in expected.items():
        if name.startswith("_") or not (directory / name).exists():
            continue
        try:
            ok, what = check(directory, name, want)
        except Exception as e:  # a broken answer is this file's failure, not the run's
            ok, what = False, f"error: {e}"
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {what}", flush=True)
    total = sum(1 for n in expected if not n.startswith("_"))
    print(f"{total - failed} of {total} files as expected")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
