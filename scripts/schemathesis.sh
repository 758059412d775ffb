#!/usr/bin/env bash
# Property-based API tests with Schemathesis against the running stack's OpenAPI document.
#
#   scripts/schemathesis.sh install        install Schemathesis (pinned) into .local/venv
#   scripts/schemathesis.sh [ARG...]       run it (needs BASE_URL: use scripts/with-stack.sh);
#                                          ARGs are passed on to `schemathesis run`
#
# `make test-api-fuzz` = install, then `scripts/with-stack.sh scripts/schemathesis.sh`.
# Registers two users (A = alice, B = bob), logs both in, and runs every phase (examples,
# coverage, fuzzing, stateful) as alice, with bob as the peer for object-level authorization
# (tests/schemathesis/schemathesis.toml, tests/schemathesis/hooks.py).
# Budget: SCHEMATHESIS_MAX_TIME seconds for the whole run (default 180) and
# SCHEMATHESIS_MAX_EXAMPLES test cases per operation and cycle (default 50); SCHEMATHESIS_SEED
# repeats a run's generation. Reports: .local/schemathesis-junit.xml (JUnit) and
# .local/schemathesis/ (NDJSON events, auth document, Schemathesis' own cache).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
VERSION=4.32.5
VENV=.local/venv
ST="$VENV/bin/schemathesis"

install() {
  if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
  fi
  if "$ST" --version 2>/dev/null | grep -q "$VERSION"; then
    return
  fi
  echo "== installing schemathesis $VERSION into $VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
}

if [ "${1:-}" = install ]; then
  install
  exit 0
fi
install
: "${BASE_URL:?BASE_URL is not set: run through scripts/with-stack.sh (make test-api-fuzz)}"

WORK="$REPO/.local/schemathesis"
mkdir -p "$WORK"
PY="$VENV/bin/python"

# Registers and logs in one user; prints the token (the registration answer is kept).
login() {
  local name=$1 email password body
  email="$name-$(date +%s)-$RANDOM@example.com"
  password="correct horse battery staple $name"
  body=$(printf '{"firstname":"%s","lastname":"Fuzz","email":"%s","password":"%s","confirmPassword":"%s"}' \
    "$name" "$email" "$password" "$password")
  local code
  code=$(curl -s -o "$WORK/register-$name.json" -w '%{http_code}' "$BASE_URL/auth/register" \
    -H 'Content-Type: application/json' -d "$body")
  if [ "$code" != 201 ]; then
    echo "registering $name answered $code: $(cat "$WORK/register-$name.json")" >&2
    return 1
  fi
  code=$(curl -s -o "$WORK/login-$name.json" -w '%{http_code}' "$BASE_URL/auth/login" \
    -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"password\":\"$password\"}")
  if [ "$code" != 200 ]; then
    echo "logging $name in answered $code: $(cat "$WORK/login-$name.json")" >&2
    return 1
  fi
  "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["token"])' "$WORK/login-$name.json"
}
TOKEN_A=$(login alice)
TOKEN_B=$(login bob)

# Web Fuzzing Commons auth document: the two users' Authorization headers.
export SCHEMATHESIS_WFC_AUTH="$WORK/auth.json"
"$PY" - "$SCHEMATHESIS_WFC_AUTH" "$TOKEN_A" "$TOKEN_B" <<'EOF'
import json, sys
path, a, b = sys.argv[1:4]
users = [("alice", a), ("bob", b)]
doc = {"auth": [{"name": n, "fixedHeaders": [{"name": "Authorization", "value": f"Bearer {t}"}]} for n, t in users]}
with open(path, "w") as f:
    json.dump(doc, f, indent=2)
EOF
export SCHEMATHESIS_PEER_TOKEN="$TOKEN_B"
user_id() { "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$WORK/register-$1.json"; }
SCHEMATHESIS_USER_ID=$(user_id alice)
SCHEMATHESIS_PEER_ID=$(user_id bob)
export SCHEMATHESIS_USER_ID SCHEMATHESIS_PEER_ID
export SCHEMATHESIS_USER_PASSWORD="correct horse battery staple alice"
export SCHEMATHESIS_HOOKS="$REPO/tests/schemathesis/hooks.py"

args=(
  --url "$BASE_URL"
  --phases examples,coverage,fuzzing,stateful
  --checks all
  # `missing_required_header` demands 401 when the Authorization header is left out (a
  # fixed expectation in Schemathesis for that header, not configurable), while the spec
  # requires 403 for an unauthenticated call to a protected endpoint. Every other check
  # runs; `ignored_auth` still verifies that requests without or with invalid credentials
  # are refused (it accepts 401 and 403).
  --exclude-checks missing_required_header
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-50}"
  --max-time "${SCHEMATHESIS_MAX_TIME:-180}"
  # One worker: with two, Python 3.11's `ast` module (used by Hypothesis to describe
  # strategies) intermittently fails with "AST constructor recursion depth mismatch".
  --workers 1
  --request-timeout 10
  --generation-database "$WORK/examples"
  --report junit,ndjson
  --report-junit-path "$REPO/.local/schemathesis-junit.xml"
  --report-ndjson-path "$WORK/events.ndjson"
)
if [ -n "${SCHEMATHESIS_SEED:-}" ]; then
  args+=(--seed "$SCHEMATHESIS_SEED")
fi

# From .local/schemathesis, so Schemathesis' own state (.schemathesis/) stays out of the tree.
cd "$WORK"
echo "== schemathesis $VERSION against $BASE_URL/api-docs/openapi.json (users alice, bob)" >&2
exec "$REPO/$ST" --config-file "$REPO/tests/schemathesis/schemathesis.toml" \
  run "$BASE_URL/api-docs/openapi.json" "${args[@]}" "$@"
