#!/usr/bin/env bash
# `make test`: formatting, lints, then every test against a DynamoDB Local started in
# memory on a free port and stopped afterwards.
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true
cd "$(dirname "$0")/.."
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== template checks"; scripts/check-template.sh
echo "== docs checks"; scripts/check-docs.sh
PORT=$(scripts/free-port.sh)
DDB_PID=$(scripts/dynamodb-local.sh start "$PORT")
trap 'kill "$DDB_PID" 2>/dev/null || true' EXIT
export DYNAMODB_ENDPOINT="http://127.0.0.1:$PORT"
# The SMTP catcher the account tests read their mails from (reset and verification links).
SMTP_PORT=$(scripts/free-port.sh)
MAIL_UI_PORT=$(scripts/free-port.sh)
while [ "$MAIL_UI_PORT" = "$SMTP_PORT" ]; do MAIL_UI_PORT=$(scripts/free-port.sh); done
MAIL_PID=$(scripts/maildev.sh start "$SMTP_PORT" "$MAIL_UI_PORT")
trap 'kill "$DDB_PID" "$MAIL_PID" 2>/dev/null || true' EXIT
export SMTP_PORT MAIL_UI_PORT
echo "== cargo test (DynamoDB Local on $DYNAMODB_ENDPOINT)"
LOG=$(mktemp)
# The API tests write there the DynamoDB actions each function's calls needed.
DYNAMODB_CALLS_OUT=$(mktemp)
export DYNAMODB_CALLS_OUT
cargo test --workspace --locked 2>&1 | tee "$LOG"
# One closing line for the whole run, summed over every test binary.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed;?$/) p += $(i-1); if ($i ~ /^failed;?$/) f += $(i-1) } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$LOG"
rm -f "$LOG"
echo "== IAM policies against the calls the tests made"
.local/venv/bin/python scripts/check_calls.py "$DYNAMODB_CALLS_OUT"
# The check refuses an action a function's policy lacks (wallet holds no BatchWriteItem).
.local/venv/bin/python -c 'import json, sys; c = json.load(open(sys.argv[1])); json.dump(c + [["wallet", "BatchWriteItem", "table"]], open(sys.argv[2], "w"))' \
  "$DYNAMODB_CALLS_OUT" "$DYNAMODB_CALLS_OUT.bad"
REFUSED=$(.local/venv/bin/python scripts/check_calls.py "$DYNAMODB_CALLS_OUT.bad" 2>&1 || true)
if grep -q "wallet: called dynamodb:BatchWriteItem" <<< "$REFUSED"; then
  echo "check_calls refuses an action the policy lacks"
else
  echo "check_calls did not refuse wallet's BatchWriteItem" >&2; exit 1
fi
rm -f "$DYNAMODB_CALLS_OUT" "$DYNAMODB_CALLS_OUT.bad"
