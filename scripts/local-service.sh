#!/usr/bin/env bash
# Sourced by scripts/dynamodb-local.sh and scripts/maildev.sh: what both local services
# do alike (install a pinned npm package under .local/, wait for a started process to
# listen). Not run on its own.

# npm_install ROOT PACKAGE VERSION: installs PACKAGE@VERSION into ROOT unless that
# version is there already (idempotent); prints the package's folder.
npm_install() {
  local root=$1 package=$2 version=$3
  local manifest="$root/node_modules/$package/package.json"
  if [ -f "$manifest" ] && grep -q "\"version\": \"$version\"" "$manifest"; then
    echo "$root/node_modules/$package"
    return
  fi
  command -v npm >/dev/null || { echo "npm is required to install $package" >&2; exit 1; }
  mkdir -p "$root"
  [ -f "$root/package.json" ] || echo "{\"name\":\"$package-local\",\"private\":true}" > "$root/package.json"
  npm install --prefix "$root" --no-audit --no-fund --silent "$package@$version" >&2
  echo "$root/node_modules/$package"
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# await_listening NAME PID PORT...: prints PID once every PORT on 127.0.0.1 accepts a
# connection (20 s at most); exits 1, the process stopped, when it exits or never does.
await_listening() {
  local name=$1 pid=$2
  shift 2
  for _ in $(seq 1 100); do
    local port ready=1
    for port in "$@"; do
      listening "$port" || { ready=0; break; }
    done
    if [ "$ready" = 1 ]; then
      echo "$pid"
      return
    fi
    kill -0 "$pid" 2>/dev/null || { echo "$name exited during start-up (port $* in use?)" >&2; exit 1; }
    sleep 0.2
  done
  kill "$pid" 2>/dev/null || true
  echo "$name did not start on port $*" >&2
  exit 1
}
