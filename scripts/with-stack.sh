#!/usr/bin/env bash
# scripts/with-stack.sh CMD [ARG...]
#
# Runs CMD (from the repository root) against a throw-away stack: DynamoDB Local in memory
# on a free port, the maildev SMTP catcher on two more (SMTP and its inbox's REST API) and
# `local-server` on another free port, with a random JWT secret and a table of its own.
# CMD sees BASE_URL (http://127.0.0.1:PORT), MAIL_UI_PORT (GET http://127.0.0.1:$MAIL_UI_PORT/email
# lists the mails), DOC_PATH and SORT. Mailed links point to APP_URL, BASE_URL unless set
# (the API's own reset and verification pages). Every process is stopped however CMD
# ends; the script exits with CMD's status.
#
# Nothing here depends on the developer's .env: every variable that picks a port, the
# database, the table or the secret is set explicitly (local-server reads .env only for
# variables that are not set). DOC_PATH and SORT come from the caller's environment when
# set (defaults /swagger-ui and method) and are given to the server and to CMD alike.
# A caller that runs its own catcher sets SMTP_PORT and MAIL_UI_PORT (both) and
# MAIL_TRANSPORT=smtp; then none is started.
# Every client of a throw-away stack is 127.0.0.1, so the registration allowance per
# address is raised (REGISTRATIONS_PER_ADDRESS_PER_HOUR, 100000 unless set).
# Logs: .local/with-stack/{server,dynamodb,maildev}.log
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -eq 0 ]; then
  echo "usage: $0 CMD [ARG...]" >&2
  exit 2
fi

LOG_DIR=.local/with-stack
mkdir -p "$LOG_DIR"
SERVER_LOG="$LOG_DIR/server.log"
DDB_LOG_FILE="$LOG_DIR/dynamodb.log"

DDB_PID=""
MAIL_PID=""
API_PID=""
CMD_PID=""

stop() {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
}
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop "$CMD_PID"
  stop "$API_PID"
  stop "$MAIL_PID"
  stop "$DDB_PID"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Build before starting anything, so a compile error leaves nothing running.
echo "== with-stack: building local-server" >&2
cargo build -q -p local --bin local-server

DDB_PORT=$(scripts/free-port.sh)
DDB_PID=$(DDB_LOG="$DDB_LOG_FILE" scripts/dynamodb-local.sh start "$DDB_PORT")

if [ -z "${SMTP_PORT:-}" ] || [ -z "${MAIL_UI_PORT:-}" ]; then
  SMTP_PORT=$(scripts/free-port.sh)
  MAIL_UI_PORT=$(scripts/free-port.sh)
  while [ "$MAIL_UI_PORT" = "$SMTP_PORT" ]; do MAIL_UI_PORT=$(scripts/free-port.sh); done
  MAIL_PID=$(MAILDEV_LOG="$LOG_DIR/maildev.log" scripts/maildev.sh start "$SMTP_PORT" "$MAIL_UI_PORT")
  MAIL_TRANSPORT=smtp
fi
export SMTP_PORT MAIL_UI_PORT
export MAIL_TRANSPORT=${MAIL_TRANSPORT:-smtp} SMTP_HOST=${SMTP_HOST:-127.0.0.1}

API_PORT=$(scripts/free-port.sh)
while [ "$API_PORT" = "$SMTP_PORT" ] || [ "$API_PORT" = "$MAIL_UI_PORT" ]; do API_PORT=$(scripts/free-port.sh); done
JWT_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
TABLE_NAME="with-stack-$(date +%s)-$$-$RANDOM"
export DOC_PATH=${DOC_PATH:-/swagger-ui}
export SORT=${SORT:-method}

PORT="$API_PORT" \
  DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT" \
  JWT_SECRET="$JWT_SECRET" \
  JWT_SECRET_ARN="" \
  TABLE_NAME="$TABLE_NAME" \
  APP_URL="${APP_URL:-http://127.0.0.1:$API_PORT}" \
  REGISTRATIONS_PER_ADDRESS_PER_HOUR="${REGISTRATIONS_PER_ADDRESS_PER_HOUR:-100000}" \
  RUST_LOG="${RUST_LOG:-info}" \
  "${CARGO_TARGET_DIR:-target}/debug/local-server" >"$SERVER_LOG" 2>&1 &
API_PID=$!

export BASE_URL="http://127.0.0.1:$API_PORT"
# Any HTTP answer means the server is up (an unauthenticated list is 403).
ready=""
for _ in $(seq 1 300); do
  if ! kill -0 "$API_PID" 2>/dev/null; then
    echo "local-server exited during start-up; last lines of $SERVER_LOG:" >&2
    tail -n 20 "$SERVER_LOG" >&2
    exit 1
  fi
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$BASE_URL/api/transactions" || true)
  if [ -n "$code" ] && [ "$code" != "000" ]; then
    ready=1
    break
  fi
  sleep 0.1
done
if [ -z "$ready" ]; then
  echo "local-server did not answer on $BASE_URL within 30 s; last lines of $SERVER_LOG:" >&2
  tail -n 20 "$SERVER_LOG" >&2
  exit 1
fi
echo "== with-stack: API on $BASE_URL (DynamoDB Local on :$DDB_PORT, table $TABLE_NAME; mail inbox on :$MAIL_UI_PORT)" >&2

# CMD runs in the background so that a TERM or INT sent to this script stops it and the
# stack at once (bash runs traps only between foreground commands); it keeps our stdin.
exec 3<&0
"$@" <&3 3<&- &
CMD_PID=$!
set +e
wait "$CMD_PID"
status=$?
set -e
CMD_PID=""
exit "$status"
