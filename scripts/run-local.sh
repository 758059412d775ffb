#!/usr/bin/env bash
# `make run`: DynamoDB Local (data kept in .local/data; or the database DYNAMODB_ENDPOINT
# names), the maildev SMTP catcher (SMTP_PORT, default 1025; inbox and REST API on
# MAIL_UI_PORT, default 1080; both on 127.0.0.1) and the local API server on PORT (3000).
# Mailed links point to APP_URL, by default the API itself (http://127.0.0.1:$PORT), which
# serves the reset and verification pages; a frontend of its own sets APP_URL to its origin.
# Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then set -a; . ./.env; set +a; fi
PORT=${PORT:-3000}
SMTP_PORT=${SMTP_PORT:-1025}
MAIL_UI_PORT=${MAIL_UI_PORT:-1080}
APP_URL=${APP_URL:-http://127.0.0.1:$PORT}
cleanup() {
  [ -n "${DDB_PID:-}" ] && kill "$DDB_PID" 2>/dev/null || true
  [ -n "${MAIL_PID:-}" ] && kill "$MAIL_PID" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
if [ -z "${DYNAMODB_ENDPOINT:-}" ]; then
  DDB_PORT=${DDB_PORT:-8000}
  DDB_PID=$(scripts/dynamodb-local.sh start "$DDB_PORT" "$PWD/.local/data")
  export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
  echo "DynamoDB Local on $DYNAMODB_ENDPOINT (data in .local/data)"
fi
MAIL_PID=$(scripts/maildev.sh start "$SMTP_PORT" "$MAIL_UI_PORT")
echo "Mail inbox (every mail the API sends): http://127.0.0.1:$MAIL_UI_PORT"
export PORT SMTP_PORT MAIL_UI_PORT APP_URL
export MAIL_TRANSPORT=smtp SMTP_HOST=127.0.0.1
cargo run --quiet -p local --bin local-server
