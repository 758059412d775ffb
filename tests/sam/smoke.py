"""Smoke suite of `make test-sam`: the deployed binaries behind `sam local start-api`.

BASE_URL is the SAM CLI's API Gateway emulation (scripts/sam-local.sh test starts it).
Every function of template.yaml is called at least once (auth, users, categories, tags,
providers, transactions, wallet, insights, imports, sync, rules, docs). Python's standard library only.
Prints one line
per check and ends with `sam smoke: N passed, N failed`; exits 1 when any check failed.
"""

import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

BASE = os.environ["BASE_URL"].rstrip("/")
DOC_PATH = os.environ.get("DOC_PATH", "/swagger-ui")
# A cold start under arm64 emulation takes seconds; SAM's own function timeout applies too.
TIMEOUT = float(os.environ.get("SAM_SMOKE_TIMEOUT", "60"))
PASSWORD = "correct horse battery staple"

passed = failed = 0
functions_seen = set()


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def call(method, path, token=None, body=None, function=None, headers=None, raw=None):
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None and raw is None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for k, v in (headers or {}).items():
        request.add_header(k, v)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as r:
            response = Response(r.status, r.headers, r.read())
    except urllib.error.HTTPError as e:
        response = Response(e.code, e.headers, e.read())
    elapsed = time.monotonic() - started
    if function and response.status < 500:
        functions_seen.add(function)
    response.elapsed = elapsed
    return response


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name} {detail}".rstrip())
    return condition


def expect(name, response, status):
    body = response.body[:300].decode("utf-8", "replace")
    return check(
        f"{name} -> {status} ({response.elapsed:.1f} s)",
        response.status == status,
        f"(got {response.status}: {body})",
    )


def main():
    tag = f"{int(time.time())}-{random.randrange(1 << 30)}"

    # docs: the Swagger UI page and the OpenAPI document.
    r = call("GET", DOC_PATH, function="docs")  # urllib follows its redirect, as a browser does
    if expect(f"GET {DOC_PATH} (redirects followed)", r, 200):
        check("the docs page is Swagger UI", b"swagger" in r.body.lower())
    r = call("GET", "/api-docs/openapi.json", function="docs")
    if expect("GET /api-docs/openapi.json", r, 200):
        doc = r.json()
        check(
            "the OpenAPI document lists /api/transactions",
            str(doc.get("openapi", "")).startswith("3") and "/api/transactions" in doc.get("paths", {}),
        )

    # No token: 403 (the functions check tokens, not API Gateway).
    expect("GET /api/transactions without a token", call("GET", "/api/transactions", function="transactions"), 403)

    # auth: register and log in two users.
    users = {}
    for name in ("ann", "bob"):
        email = f"{name}-{tag}@example.com"
        r = call(
            "POST",
            "/auth/register",
            body={"firstname": name.title(), "lastname": "Sam", "email": email, "password": PASSWORD, "confirmPassword": PASSWORD},
            function="auth",
        )
        if not expect(f"POST /auth/register ({name})", r, 201):
            break
        user_id = r.json()["id"]
        check(f"register answers Location /users/{{id}} ({name})", r.headers.get("Location") == f"/users/{user_id}")
        r = call("POST", "/auth/login", body={"email": email, "password": PASSWORD}, function="auth")
        if not expect(f"POST /auth/login ({name})", r, 200):
            break
        users[name] = {"id": user_id, "email": email, "token": r.json()["token"]}
    if len(users) < 2:
        return
    ann, bob = users["ann"]["token"], users["bob"]["token"]

    # users
    r = call("GET", "/users/me", token=ann, function="users")
    if expect("GET /users/me", r, 200):
        check("/users/me is the caller", r.json().get("email") == users["ann"]["email"])

    # categories: the global ones are seeded by the functions themselves at cold start.
    r = call("GET", "/api/categories", token=ann, function="categories")
    if expect("GET /api/categories", r, 200):
        names = {c.get("id"): c.get("categoryName") for c in r.json()}
        check("the global categories are seeded (1 Salary)", names.get(1) == "Salary", f"(got {names})")
    r = call("POST", "/api/categories", token=ann, body={"categoryName": "Side job", "type": "CREDIT"}, function="categories")
    expect("POST /api/categories", r, 201)
    category_id = r.json()["id"] if r.status == 201 else 1

    # tags, providers
    r = call("POST", "/api/tags", token=ann, body={"tagName": "weekly"}, function="tags")
    expect("POST /api/tags", r, 201)
    tag_ids = [r.json()["id"]] if r.status == 201 else []
    r = call("POST", "/api/providers", token=ann, body={"providerName": "ACME"}, function="providers")
    expect("POST /api/providers", r, 201)
    provider = {"providerId": r.json()["id"]} if r.status == 201 else {}

    # transactions: create, get, update, list, another user's (404), delete.
    body = {"amount": "2500.00", "categoryId": category_id, "date": "2026-11-01", "note": "November pay", "tagIds": tag_ids, **provider}
    r = call("POST", "/api/transactions", token=ann, body=body, function="transactions")
    if not expect("POST /api/transactions", r, 201):
        return
    tx = r.json()
    path = f"/api/transactions/{tx['id']}"
    check("create answers its Location", r.headers.get("Location") == path)
    r = call("GET", path, token=ann, function="transactions")
    if expect(f"GET {path}", r, 200):
        check("the transaction reads back", r.json()["amount"]["amount"] in ("2500.00", 2500.00))
    etag = r.headers.get("ETag", "")
    r = call("PUT", path, token=ann, body={**body, "amount": "2600.50", "note": "corrected"}, headers={"If-Match": etag}, function="transactions")
    if expect(f"PUT {path} (If-Match)", r, 200):
        check("the update is kept", r.json().get("note") == "corrected")
    r = call("GET", "/api/transactions?limit=20", token=ann, function="transactions")
    if expect("GET /api/transactions", r, 200):
        check("the list holds the transaction", [t["id"] for t in r.json()] == [tx["id"]])
    expect(f"GET {path} as another user", call("GET", path, token=bob, function="transactions"), 404)

    # wallet
    r = call("GET", "/api/wallet", token=ann, function="wallet")
    if expect("GET /api/wallet", r, 200):
        balance = r.json()["amountBalance"]["amount"]
        check("the balance is 2600.50", str(balance) in ("2600.50", "2600.5"), f"(got {balance})")

    # insights and budgets: the month's totals were kept with the writes above.
    r = call("GET", "/api/insights/monthly?from=2026-10&to=2026-11", token=ann, function="insights")
    if expect("GET /api/insights/monthly", r, 200):
        months = r.json()
        income = months[-1]["income"]["amount"] if len(months) == 2 else None
        check("November's income is 2600.50", str(income) in ("2600.50", "2600.5"), f"(got {months})")
    r = call("PUT", "/api/budgets/2026-11/4", token=ann, body={"amount": "300"}, function="insights")
    expect("PUT /api/budgets/2026-11/4", r, 200)
    r = call("GET", "/api/budgets/2026-11", token=ann, function="insights")
    if expect("GET /api/budgets/2026-11", r, 200):
        check("the budget is listed", [b["categoryId"] for b in r.json()] == [4])
    expect("DELETE /api/budgets/2026-11/4", call("DELETE", "/api/budgets/2026-11/4", token=ann, function="insights"), 204)
    # imports: a dry run writes nothing; the export lists the transaction in CSV.
    csv_file = b"date,amount,category,note\n2026-11-02,-12.50,Groceries,market\n"
    r = call("POST", "/api/imports?dryRun=true", token=ann, raw=csv_file, headers={"Content-Type": "text/csv"}, function="imports")
    if expect("POST /api/imports?dryRun=true", r, 200):
        check("the dry run finds one valid row", r.json().get("valid") == 1, f"(got {r.body[:200]!r})")
    r = call("GET", "/api/export?format=csv", token=ann, function="imports")
    if expect("GET /api/export?format=csv", r, 200):
        check("the export holds the transaction", b"corrected" in r.body)

    # rules: a rule, what it would do, and a create without categoryId that it categorises.
    rule = {"name": "Market", "conditions": [{"field": "note", "op": "contains", "value": "market"}],
            "actions": {"categoryId": 4}}
    r = call("POST", "/api/rules", token=ann, body=rule, function="rules")
    expect("POST /api/rules", r, 201)
    r = call("POST", "/api/rules/test", token=ann, body={"note": "Farmers MARKET"}, function="rules")
    if expect("POST /api/rules/test", r, 200):
        check("the rule would set category 4", r.json()["result"]["categoryId"] == 4, f"(got {r.body[:200]!r})")

    expect(f"DELETE {path}", call("DELETE", path, token=ann, function="transactions"), 204)
    expect(f"GET {path} after the delete", call("GET", path, token=ann, function="transactions"), 404)
    r = call("GET", "/api/wallet", token=ann, function="wallet")
    if expect("GET /api/wallet after the delete", r, 200):
        check("the balance is reverted", str(r.json()["amountBalance"]["amount"]) in ("0.00", "0", "0.0"))

    # sync: a first sync ends with the deleted transaction absent
    r = call("GET", "/api/sync?limit=500", token=ann, function="sync")
    if expect("GET /api/sync", r, 200):
        page = r.json()
        check("the feed has a cursor", bool(page.get("nextCursor")))
        check("the feed starts with the profile", page["changes"][0]["entity"] == "user")


if __name__ == "__main__":
    print(f"== sam smoke against {BASE}", flush=True)
    started = time.monotonic()
    try:
        main()
    except Exception as e:  # a crash counts as a failure, the summary line still comes
        check("the suite ran to its end", False, f"({type(e).__name__}: {e})")
    # SAM_FUNCTIONS: the functions of the template (scripts/sam-local.sh reads them from it),
    # so a function added there without a call here fails this check.
    expected = set(os.environ.get("SAM_FUNCTIONS", "").split()) or {
        "auth", "users", "categories", "tags", "providers", "transactions", "wallet", "insights",
        "imports", "docs", "sync", "rules",
    }
    check("every function answered", functions_seen >= expected, f"(missing {sorted(expected - functions_seen)})")
    print(f"sam smoke took {time.monotonic() - started:.0f} s")
    print(f"sam smoke: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
