"""Schemathesis hooks for `make test-api-fuzz` (loaded through SCHEMATHESIS_HOOKS).

`before_call`: user A never deletes their own account. Every request is sent with A's
token, and `DELETE /users/{A's id}` would end the run's usefulness after a few seconds
(the token stops working for everything else; the Rust API tests cover self-deletion).
Such a request is sent for user B's id instead, which turns it into an authorization
test that `peer_account_untouchable` judges: A must never get a 2xx on B's account.

`foreign_object_is_404`: the API's ownership contract (README, DESIGN §3): another
user's object answers 404, exactly as if it did not exist, and cannot be changed.

Every request of the run is sent as user A (alice). When A reads one object by its id
(a GET with a path parameter answering 2xx), the object exists and is A's, unless it is
public (a global category, `isGlobal: true`), or it is a user account (`/users/{id}`,
where another user may get 403 or 404). Then, once per object, user B (bob, token in
SCHEMATHESIS_PEER_TOKEN):
  1. GETs it and must get 404;
  2. DELETEs it and must get 404;
  3. and A must still be able to GET it.
A wrong answer is reported as a failure of this check on A's operation, with the status
B got. The built-in `object_level_authorization` check (enabled in schemathesis.toml)
covers any object-returning read generically; this one pins our exact status codes and
also covers deletion.
"""

from __future__ import annotations

import os
import re
import threading
import uuid

import requests
import schemathesis

PEER_TOKEN = os.environ.get("SCHEMATHESIS_PEER_TOKEN", "")
USER_ID = os.environ.get("SCHEMATHESIS_USER_ID", "")
PEER_ID = os.environ.get("SCHEMATHESIS_PEER_ID", "")
USER_PASSWORD = os.environ.get("SCHEMATHESIS_USER_PASSWORD", "")
_seen: set[str] = set()
_lock = threading.Lock()
_USER_PATH = re.compile(r"^/users/[^/]+(/.*)?$")


def _first_time(url: str) -> bool:
    with _lock:
        if url in _seen:
            return False
        _seen.add(url)
        return True


@schemathesis.check
def foreign_object_is_404(ctx, response, case):
    if not PEER_TOKEN or case.method.upper() != "GET" or not case.path_parameters:
        return None
    if not 200 <= response.status_code < 300:
        return None
    path = case.formatted_path
    if path.startswith("/users/me") or _USER_PATH.match(path):
        return None
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and body.get("isGlobal") is True:
        return None
    url = response.request.url
    if not _first_time(url):
        return None

    owner_headers = {k: v for k, v in response.request.headers.items() if k.lower() == "authorization"}
    peer_headers = {"Authorization": f"Bearer {PEER_TOKEN}"}
    timeout = 10

    if isinstance(body, list):
        # A path parameter that selects within the caller's own data (`/api/budgets/{month}`),
        # not an object: the peer gets their own list, which must not be the owner's.
        got = requests.get(url, headers=peer_headers, timeout=timeout)
        if body and got.status_code == 200 and got.json() == body:
            raise AssertionError(f"Another user's GET {path} answered the owner's list.\nBody: {got.text[:300]}")
        return None

    got = requests.get(url, headers=peer_headers, timeout=timeout)
    if got.status_code != 404:
        raise AssertionError(
            f"Another user's GET {path} answered {got.status_code}, expected 404 "
            f"(the object is user A's: A's GET answered {response.status_code}).\n"
            f"Body: {got.text[:300]}"
        )
    deleted = requests.delete(url, headers=peer_headers, timeout=timeout)
    if deleted.status_code != 404:
        raise AssertionError(
            f"Another user's DELETE {path} answered {deleted.status_code}, expected 404.\n"
            f"Body: {deleted.text[:300]}"
        )
    again = requests.get(url, headers=owner_headers, timeout=timeout)
    if not 200 <= again.status_code < 300:
        raise AssertionError(
            f"After another user's DELETE {path} (answered 404), the owner's GET answered "
            f"{again.status_code}: the object is gone.\nBody: {again.text[:300]}"
        )
    return None


_USER_ITEM = "/users/{id}"


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    _consistent_positive_data(case)
    if case.path == "/api/transactions/{id}" and case.path_parameters:
        # Stateful runs link POST /api/transactions/batch to this operation with the id
        # `batch`, which is not an integer (the schema's id): that request is 405 by design.
        # Send an integer id that names no transaction instead.
        if not str(case.path_parameters.get("id", "1")).isdigit():
            case.path_parameters["id"] = 9007199254740991
            # The link's body was made for the batch: a valid transaction body instead,
            # so the answer is the 404 of an id that names no transaction.
            if case.method.upper() == "PUT":
                case.body = {"amount": "1.00", "categoryId": 4, "date": "2026-11-03"}
    # A well-formed Idempotency-Key is fresh for every case: a key one case used (for a
    # create, update or delete) is rightly 422 when another case reuses it.
    for name in list(case.headers or {}):
        value = case.headers[name]
        if name.lower() == "idempotency-key" and isinstance(value, str) and 0 < len(value) <= 255 \
                and all(33 <= ord(c) <= 126 for c in value):
            case.headers[name] = uuid.uuid4().hex
    if not (USER_ID and PEER_ID) or case.method.upper() != "DELETE" or case.path != _USER_ITEM:
        return None
    params = case.path_parameters or {}
    if str(params.get("id")) == USER_ID:
        params["id"] = type(params["id"])(PEER_ID) if isinstance(params["id"], (int, str)) else PEER_ID
        case.path_parameters = params
    return None


# Positive cases must be valid for the server's *state*, which a schema cannot say: the
# spec answers 400 for a category that does not exist, an amount finer than the wallet's
# currency, a repeated password that differs, a cursor or ETag the server never issued.
# `_consistent_positive_data` makes schema-valid data also state-valid (existing global
# category, no foreign tag/provider ids, EUR cents, matching confirmation, no forged
# cursor/ETag/idempotency key reuse), so `positive_data_acceptance` tests what it means
# to: that valid requests are accepted. Negative cases are never touched; the rules
# themselves are covered by the Rust API tests.
_GLOBAL_CATEGORIES = range(1, 13)


def _is_positive(case) -> bool:
    meta = getattr(case, "meta", None)
    try:
        return bool(meta.generation.mode.is_positive)
    except AttributeError:
        return False


def _cents(value):
    """A positive amount with at most 2 decimals (the wallet stays in EUR)."""
    from decimal import Decimal, InvalidOperation, ROUND_HALF_UP

    try:
        amount = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError):
        return "1.00"
    if amount <= 0 or amount >= Decimal("10000000000000"):
        return "1.00"
    return str(amount)


def _as_valid_transaction(body):
    """Makes a transaction body valid in place: EUR cents, a global category, no references."""
    amount = body.get("amount")
    body["amount"] = _cents(amount.get("amount") if isinstance(amount, dict) else amount)
    body.pop("currency", None)
    if body.get("categoryId") not in _GLOBAL_CATEGORIES:
        body["categoryId"] = 4
    body.pop("providerId", None)
    body.pop("tagIds", None)
    if isinstance(body.get("splits"), list):
        # Parts that add up to the amount, in the transaction's (DEBIT) category: the sum
        # and the categories' types are rules across members that a schema cannot say.
        from decimal import Decimal

        total = max(Decimal(body["amount"]), Decimal("0.02"))
        body["amount"] = str(total)
        first = {"amount": str(total - Decimal("0.01")), "categoryId": body["categoryId"]}
        second = {"amount": "0.01", "categoryId": body["categoryId"]}
        for part, given in zip((first, second), body["splits"]):
            if isinstance(given, dict) and isinstance(given.get("note"), str):
                part["note"] = given["note"][:1000]
        body["splits"] = [first, second]


def _consistent_positive_data(case) -> None:
    if not _is_positive(case):
        return
    method, path = case.method.upper(), case.path
    body = case.body if isinstance(case.body, dict) else None
    if path in ("/auth/register", "/users/{id}") and body is not None and "password" in body:
        # The common-password rule cannot be a schema; a generated "000000000000000" is common.
        if not isinstance(body["password"], str) or len(set(body["password"])) < 6:
            body["password"] = "correct horse battery staple " + uuid.uuid4().hex[:8]
        if path == "/auth/register":
            body["confirmPassword"] = body["password"]
    if path == "/users/{id}" and method == "PUT" and body is not None and USER_PASSWORD:
        # Changing one's own e-mail or password needs the current password, which a schema
        # cannot know: give A's real one, and keep it A's (a changed password would make
        # every later positive case a wrong guess, and wrong guesses are throttled).
        body.pop("password", None)
        if "email" in body:
            body["currentPassword"] = USER_PASSWORD
    elif path == "/api/wallet" and method == "PUT" and body is not None:
        body["currency"] = "EUR"
        if "initialBalance" in body:
            body["initialBalance"] = _cents(body["initialBalance"]).lstrip("-")
    elif path in ("/api/transactions", "/api/transactions/{id}") and method in ("POST", "PUT") and body is not None:
        _as_valid_transaction(body)
    elif path == "/api/budgets/{month}/{categoryId}" and method == "PUT" and body is not None:
        # A visible DEBIT category, EUR cents.
        (case.path_parameters or {})["categoryId"] = 4
        body["amount"] = _cents(body.get("amount"))
    if path == "/api/insights/monthly" and method == "GET" and case.query and "from" in case.query:
        # `from` <= `to` within 36 months is a rule across two parameters.
        case.query["to"] = case.query["from"]
    if path == "/api/imports" and method == "POST":
        # A CSV needs its header row, which a `string` body schema cannot say.
        text = case.body.decode("utf-8", "replace") if isinstance(case.body, bytes) else case.body
        if not isinstance(text, str) or not text.lower().startswith("date"):
            case.body = "date,amount,category,note\n2026-01-02,-1.00,Groceries,fuzz\n"
        if case.query and "defaultCategoryId" in case.query:
            case.query["defaultCategoryId"] = 4
        if case.query:
            # The body above is a plain comma-separated CSV: every reading override (format,
            # encoding, dateFormat, decimal, delimiter, skipRows, invert, col.<field>) is a
            # claim about a file the generator never saw; let the server detect them.
            for name in list(case.query):
                if name not in ("dryRun", "defaultCategoryId"):
                    case.query.pop(name, None)
    paged = ("/api/transactions", "/api/sync", "/api/export", "/api/rules", "/api/categories", "/api/tags", "/api/providers")
    if path in paged and method == "GET" and case.query:
        case.query.pop("cursor", None)
    if path in ("/api/rules", "/api/rules/{id}") and method in ("POST", "PUT") and body is not None:
        # Which op suits which field, and a value of the op's kind, are rules across members
        # a schema does not say: a rule that holds them, keeping the generated name.
        name = body.get("name")
        body.clear()
        body.update({
            "name": name if isinstance(name, str) and name.strip() else "fuzz rule",
            "conditions": [{"field": "note", "op": "contains", "value": "fuzz"}],
            "actions": {"note": "fuzz"},
        })
    if path in ("/api/recurring", "/api/recurring/{id}") and method in ("POST", "PUT") and body is not None:
        # An RRULE's grammar, a start the rule can reach and visible references are rules a
        # schema cannot say: a valid monthly schedule.
        body.clear()
        body.update({"amount": "10.00", "categoryId": 4, "start": "2026-01-15",
                     "rrule": "FREQ=MONTHLY", "weekend": "keep", "backfill": False})
    if path == "/api/recurring/{id}/occurrences/{date}" and method == "PUT" and body is not None:
        body.clear()
        body["skip"] = True
    if path in ("/api/recurring/{id}/occurrences", "/api/forecast") and method == "GET" and case.query:
        # Windows are bounded (two years) across two parameters: a window of one day, and a
        # forecast to a month ahead.
        import datetime
        today = datetime.date.today()
        if "from" in case.query or "to" in case.query:
            case.query["from"] = today.isoformat()
            case.query["to"] = today.isoformat()
        if path == "/api/forecast":
            case.query.pop("from", None)
            case.query["to"] = (today + datetime.timedelta(days=30)).isoformat()
    if path == "/api/recurring" and method == "GET" and case.query:
        case.query.pop("cursor", None)
    if path == "/api/rules/apply" and method == "POST" and body is not None:
        body.pop("cursor", None)
    if path == "/api/rules/test" and method == "POST" and body is not None:
        for text in ("payee", "note"):
            if body.get(text) is not None and not isinstance(body.get(text), str):
                body.pop(text)
    if path in ("/api/providers", "/api/providers/{id}") and method in ("POST", "PUT") and isinstance(body, dict):
        # A provider's default category must be one the caller sees: a global one.
        if isinstance(body.get("defaultCategoryId"), int):
            body["defaultCategoryId"] = 4
    if path == "/api/transactions/batch" and method == "POST" and body is not None:
        # Each body as a valid transaction body (as for POST /api/transactions); keys
        # fresh, so a positive case is never a reuse of another case's key.
        for op in body.get("operations") or []:
            if not isinstance(op, dict):
                continue
            inner = op.get("body")
            if isinstance(inner, dict):
                _as_valid_transaction(inner)
            if op.get("idempotencyKey") is not None:
                op["idempotencyKey"] = uuid.uuid4().hex
    if case.headers:
        for name in list(case.headers):
            if name.lower() == "if-match":
                del case.headers[name]
            elif name.lower() == "idempotency-key":
                case.headers[name] = uuid.uuid4().hex


@schemathesis.check
def peer_account_untouchable(ctx, response, case):
    if not PEER_ID or not 200 <= response.status_code < 300:
        return None
    path = case.formatted_path
    if path == f"/users/{PEER_ID}" or path.startswith(f"/users/{PEER_ID}/"):
        raise AssertionError(
            f"User A's {case.method.upper()} {path} on user B's account answered {response.status_code}; "
            "only the account itself or an admin may read or change it."
        )
    return None
