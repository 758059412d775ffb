#!/usr/bin/env bash
# `make admin EMAIL=you@example.com [ACTION=demote]`: the operator's role command against
# the local stack. It writes the role straight into the table (there is no HTTP way to
# become the first admin): with `make run` running it uses that DynamoDB Local, otherwise
# it starts one on the same data (.local/data) for the command and stops it.
# Against AWS, run the binary itself with AWS credentials (README, Deploy to AWS).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then set -a; . ./.env; set +a; fi
: "${EMAIL:?usage: make admin EMAIL=you@example.com [ACTION=promote|demote]}"
ACTION=${ACTION:-promote}
DDB_PID=""
cleanup() {
  [ -n "$DDB_PID" ] || return 0
  kill "$DDB_PID" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$DDB_PID" 2>/dev/null || return 0; sleep 0.1; done
}
trap cleanup EXIT INT TERM
if [ -z "${DYNAMODB_ENDPOINT:-}" ]; then
  DDB_PORT=${DDB_PORT:-8000}
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$DDB_PORT") 2>/dev/null; then
    DDB_PID=$(scripts/dynamodb-local.sh start "$DDB_PORT" "$PWD/.local/data")
  fi
  export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
fi
cargo run --quiet -p local --bin admin -- "$ACTION" "$EMAIL"
