#!/usr/bin/env bash
# The local SMTP catcher, npm `maildev`: SMTP and a web inbox with a REST API
# (GET /email lists what it caught), both on 127.0.0.1 only.
#   scripts/maildev.sh install               install into .local/maildev (idempotent)
#   scripts/maildev.sh start SMTP_PORT WEB_PORT   start; prints the PID once both listen
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=2.2.1
ROOT=.local/maildev
PKG="$ROOT/node_modules/maildev"

install() {
  if [ -f "$PKG/package.json" ] && grep -q "\"version\": \"$VERSION\"" "$PKG/package.json"; then
    return
  fi
  command -v npm >/dev/null || { echo "npm is required for the local mail catcher (maildev)" >&2; exit 1; }
  mkdir -p "$ROOT"
  [ -f "$ROOT/package.json" ] || echo '{"name":"maildev-local","private":true}' > "$ROOT/package.json"
  npm install --prefix "$ROOT" --no-audit --no-fund --silent "maildev@$VERSION" >&2
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  local smtp=$1 web=$2
  install
  node "$PKG/bin/maildev" --smtp "$smtp" --web "$web" --ip 127.0.0.1 --web-ip 127.0.0.1 \
    --silent >"${MAILDEV_LOG:-/dev/null}" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do
    if listening "$smtp" && listening "$web"; then
      echo "$pid"
      return
    fi
    kill -0 "$pid" 2>/dev/null || { echo "maildev exited during start-up (ports $smtp, $web in use?)" >&2; exit 1; }
    sleep 0.2
  done
  kill "$pid" 2>/dev/null || true
  echo "maildev did not start on ports $smtp and $web" >&2
  exit 1
}

case "${1:-}" in
  install) install ;;
  start) shift; start "$@" ;;
  *) echo "usage: $0 install | start SMTP_PORT WEB_PORT" >&2; exit 2 ;;
esac
