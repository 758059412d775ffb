#!/usr/bin/env bash
# `make run`: DynamoDB Local (data kept in .local/data) plus the local API server.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then set -a; . ./.env; set +a; fi
PORT=${PORT:-3000}
cleanup() { [ -n "${DDB_PID:-}" ] && kill "$DDB_PID" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
if [ -z "${DYNAMODB_ENDPOINT:-}" ]; then
  DDB_PORT=${DDB_PORT:-8000}
  DDB_PID=$(scripts/dynamodb-local.sh start "$DDB_PORT" "$PWD/.local/data")
  export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
  echo "DynamoDB Local on $DYNAMODB_ENDPOINT (data in .local/data)"
fi
export PORT
cargo run --quiet -p local --bin local-server
