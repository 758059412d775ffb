#!/usr/bin/env bash
# The local SMTP catcher, npm `maildev`: SMTP and a web inbox with a REST API
# (GET /email lists what it caught), both on 127.0.0.1 only.
#   scripts/maildev.sh install               install into .local/maildev (idempotent)
#   scripts/maildev.sh start SMTP_PORT WEB_PORT   start; prints the PID once both listen
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/local-service.sh
# Prints the package's folder.
install() { npm_install .local/maildev maildev 2.2.1; }

start() {
  local smtp=$1 web=$2 pkg
  pkg=$(install)
  node "$pkg/bin/maildev" --smtp "$smtp" --web "$web" --ip 127.0.0.1 --web-ip 127.0.0.1 \
    --silent >"${MAILDEV_LOG:-/dev/null}" 2>&1 &
  await_listening maildev $! "$smtp" "$web"
}

case "${1:-}" in
  install) install >/dev/null ;;
  start) shift; start "$@" ;;
  *) echo "usage: $0 install | start SMTP_PORT WEB_PORT" >&2; exit 2 ;;
esac
