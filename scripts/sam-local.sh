#!/usr/bin/env bash
# The deployed Lambda binaries behind the SAM CLI's API Gateway emulation (README, "Local
# testing with the SAM CLI").
#
#   scripts/sam-local.sh run    `make run-sam`: DynamoDB Local (data kept in .local/sam-data)
#                               and `sam local start-api` on http://127.0.0.1:${SAM_PORT:-3001};
#                               Ctrl-C stops everything it started
#   scripts/sam-local.sh test   `make test-sam`: the same on free ports with DynamoDB Local in
#                               memory, its own table and secret, then tests/sam/smoke.py;
#                               everything is stopped afterwards, also on failure
#
# Steps: (1) `sam build` as deployed (scripts/package.sh: arm64, .local/sam-build; skipped
# with SAM_BUILD=reuse when that build exists, as .ci/run does right after `make package`);
# (2) a container engine: Docker when `docker info` answers (SAM's own images), otherwise
# Debian's podman as root, configured only through scripts/podman/*.conf (copied to
# .local/podman with absolute paths; CONTAINERS_CONF, CONTAINERS_STORAGE_CONF) and serving
# the Docker API on a socket under .local/podman for the SAM CLI (DOCKER_HOST), with a base
# image built from Debian packages (debootstrap minbase bookworm, imported once; the SAM CLI
# adds its bundled runtime interface emulator) passed with --invoke-image --skip-pull-image;
# (3) arm64 emulation on other machines: qemu-user-static through binfmt_misc; (4) DynamoDB
# Local, the table of shared/table.json, an --env-vars file with every variable the template
# declares for the functions plus the local TABLE_NAME, DYNAMODB_ENDPOINT (as the containers
# reach it) and a random JWT_SECRET; (5) `sam local start-api` with warm containers.
#
# Settings: SAM_PORT (run: 3001), SAM_DDB_PORT (free port), SAM_BUILD=reuse, SAM_ENGINE
# (docker or podman; default: docker when it answers), SAM_START_TIMEOUT (seconds, 600),
# DEBIAN_MIRROR. Logs: .local/sam-local/{run,test}/ (sam.log, dynamodb.log, podman.log, ...).
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true
cd "$(dirname "$0")/.."
REPO=$PWD
MODE=${1:-}
case "$MODE" in
  run | test) ;;
  *) echo "usage: $0 run | test" >&2; exit 2 ;;
esac

VENV=.local/venv
BUILD_DIR=.local/sam-build
WORK=$REPO/.local/sam-local/$MODE   # logs and the env file; run and test apart
STATE=$REPO/.local/podman
ARCH=arm64                        # template.yaml: Architectures [arm64]
DEB_ARCH=arm64
BASE_IMAGE=localhost/personal-finance-sam-base:bookworm-$ARCH
export SAM_CLI_TELEMETRY=0
# DynamoDB Local keeps one database per access key and region: the table is created with
# the credentials the SAM CLI hands the functions, and no real AWS credentials reach them.
export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=eu-west-1 AWS_DEFAULT_REGION=eu-west-1
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_DEFAULT_PROFILE
mkdir -p "$WORK"
# One run of each mode at a time (they share these logs; CI and a developer may overlap).
# The lock is fd 9, closed for the long-lived processes started below.
if command -v flock >/dev/null; then
  exec 9>"$WORK.lock"
  if [ "$MODE" = run ]; then
    flock -n 9 || { echo "sam-local: another make run-sam is running" >&2; exit 1; }
  else
    flock -w 1800 9 || { echo "sam-local: another make test-sam did not finish" >&2; exit 1; }
  fi
fi
SAM_LOG=$WORK/sam.log
: >"$SAM_LOG"                     # the cleanup reads this run's container ids from it
rm -f "$WORK/smoke.log"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

say() { echo "== sam-local: $*" >&2; }
die() { echo "sam-local: $*" >&2; exit 1; }

DDB_PID="" SAM_PID="" PODMAN_PID="" RELAY_PID="" RELAY_HOST="" SOCK=""
ENGINE_RM=()
stop() {
  local pid=$1 tenths=${2:-50}
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 "$tenths"); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true # reaps it quietly (no "Killed" line)
}
cleanup() {
  local status=$? t0
  trap - EXIT INT TERM
  t0=$(date +%s)
  # The SAM CLI would stop its warm containers one by one on SIGTERM (~20 s under
  # emulation): 3 s, then KILL, and every container it created (it logs each id) is
  # removed here, however it ended.
  stop "$SAM_PID" 30
  if [ ${#ENGINE_RM[@]} -gt 0 ] && [ -f "$SAM_LOG" ]; then
    local ids=()
    mapfile -t ids < <(sed -n 's/.*SAM_CONTAINER_ID: \([0-9a-f]\{12,\}\).*/\1/p' "$SAM_LOG" | sort -u)
    [ ${#ids[@]} -eq 0 ] || "${ENGINE_RM[@]}" "${ids[@]}" >/dev/null 2>&1 || true
  fi
  stop "$PODMAN_PID"
  [ -z "$SOCK" ] || rm -f "$SOCK"
  stop "$RELAY_PID"
  # In memory (test) there is nothing to keep: no grace period.
  if [ "$MODE" = test ] && [ -n "$DDB_PID" ]; then kill -9 "$DDB_PID" 2>/dev/null || true; fi
  stop "$DDB_PID"
  [ -z "$SAM_PID" ] || say "stopped everything in $(( $(date +%s) - t0 )) s"
  if [ "$MODE" = test ]; then
    [ "$status" = 0 ] || echo "sam-local: failed; logs in ${WORK#"$REPO"/}" >&2
    # The closing line: the smoke suite's count (a stack that never answered is one failure).
    grep -h '^sam smoke: [0-9]* passed' "$WORK/smoke.log" 2>/dev/null | tail -n1 | grep . ||
      echo "sam smoke: 0 passed, 1 failed"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

apt_install() {
  say "installing Debian's $*"
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get install -y -q --no-install-recommends "$@" >&2; then
    $SUDO apt-get update -q >&2
    $SUDO apt-get install -y -q --no-install-recommends "$@" >&2
  fi
}

# ---- (1) the functions, built as deployed ------------------------------------------------
if [ "${SAM_BUILD:-}" = reuse ] && [ -f "$BUILD_DIR/template.yaml" ]; then
  say "reusing $BUILD_DIR (SAM_BUILD=reuse)"
else
  scripts/package.sh
fi
SAM=$REPO/$VENV/bin/sam
PY=$REPO/$VENV/bin/python
[ -x "$SAM" ] || die "no SAM CLI in $VENV: run make package"

# ---- (2) the container engine, (3) arm64 emulation ----------------------------------------
ENGINE=${SAM_ENGINE:-}
if [ -z "$ENGINE" ]; then
  if command -v docker >/dev/null && timeout 20 docker info >/dev/null 2>&1; then ENGINE=docker; else ENGINE=podman; fi
fi

emulation() {
  case "$(uname -m)" in aarch64 | arm64) return ;; esac
  [ "$(uname -s)" = Linux ] || return 0 # Docker Desktop emulates arm64 itself
  local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
  if [ "$(head -n1 "$entry" 2>/dev/null)" = enabled ]; then return; fi
  if [ "$ENGINE" = docker ]; then
    die "no arm64 emulation (binfmt_misc qemu-aarch64): on Linux run
  docker run --privileged --rm tonistiigi/binfmt --install arm64
or install Debian's qemu-user-static and binfmt-support"
  fi
  if [ ! -x /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || ! command -v update-binfmts >/dev/null; then
    apt_install qemu-user-static binfmt-support
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    $SUDO mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  fi
  # Debian registers qemu with the F flag: the interpreter is loaded now, so it also
  # runs in containers that do not have it.
  $SUDO update-binfmts --enable qemu-aarch64 >&2 || true
  [ "$(head -n1 "$entry" 2>/dev/null)" = enabled ] ||
    die "could not enable arm64 emulation (binfmt_misc qemu-aarch64)"
  say "arm64 emulation: qemu-user-static through binfmt_misc"
}

ENGINE_ARGS=()
if [ "$ENGINE" = docker ]; then
  say "container engine: Docker (${DOCKER_HOST:-default socket})"
  emulation
  ENGINE_RM=(docker rm -f)
  # Docker Desktop knows host.docker.internal; on Linux it is the host gateway.
  ENGINE_ARGS=(--add-host host.docker.internal:host-gateway)
  DDB_HOST=host.docker.internal
  # Docker Desktop relays host.docker.internal to the host's loopback; on Linux it is the
  # gateway of Docker's default bridge, where the relay below listens.
  if [ "$(uname -s)" = Linux ]; then
    RELAY_HOST=$(docker network inspect bridge --format '{{range .IPAM.Config}}{{.Gateway}}{{end}}')
  fi
else
  [ "$(id -u)" = 0 ] || die "no Docker engine answers, and podman (the fallback) runs as root here: sudo make $MODE-sam, or start Docker"
  missing=()
  command -v podman >/dev/null || missing+=(podman)
  command -v runc >/dev/null || missing+=(runc)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  emulation
  mkdir -p "$STATE"
  for f in containers.conf storage.conf; do
    sed "s|@STATE@|$STATE|g" "scripts/podman/$f" >"$STATE/$f"
  done
  export CONTAINERS_CONF=$STATE/containers.conf CONTAINERS_STORAGE_CONF=$STATE/storage.conf
  ENGINE_RM=(podman rm -f -i -t 0)

  exec 8>"$STATE/base-image.lock"
  flock -w 1800 8 || die "another run is still building the base image"
  if ! podman image exists "$BASE_IMAGE"; then
    rootfs=$REPO/.local/sam-image/rootfs-$DEB_ARCH
    say "building the base image $BASE_IMAGE (debootstrap --variant=minbase bookworm, $DEB_ARCH; once)"
    t0=$(date +%s)
    rm -rf "$rootfs"
    mkdir -p "$(dirname "$rootfs")"
    timeout 1200 debootstrap --variant=minbase --arch="$DEB_ARCH" bookworm "$rootfs" \
      "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$WORK/debootstrap.log" 2>&1 ||
      die "debootstrap failed; see $WORK/debootstrap.log"
    # vfs copies the image for every container: without apt's lists and cache, documentation
    # and translations it is half the size (~100 MB), and containers start and go faster.
    rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* \
      "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
    tar -C "$rootfs" -c . | podman import --quiet --arch "$DEB_ARCH" - "$BASE_IMAGE" >/dev/null
    # The SAM CLI derives :rapid-$ARCH from it once and never checks it again.
    podman rmi -f "${BASE_IMAGE%:*}:rapid-$ARCH" >/dev/null 2>&1 || true
    rm -rf "$rootfs"
    say "base image built in $(( $(date +%s) - t0 )) s"
  fi
  exec 8>&-

  mkdir -p "$STATE/sock"
  SOCK=$STATE/sock/$$.sock
  podman system service --time=0 "unix://$SOCK" >"$WORK/podman.log" 2>&1 9>&- &
  PODMAN_PID=$!
  for _ in $(seq 1 100); do
    curl -sf --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1 && break
    kill -0 "$PODMAN_PID" 2>/dev/null || die "podman system service exited; see $WORK/podman.log"
    sleep 0.2
  done
  curl -sf --unix-socket "$SOCK" http://d/_ping >/dev/null || die "podman did not answer on $SOCK"
  export DOCKER_HOST=unix://$SOCK
  say "container engine: podman $(podman version --format '{{.Client.Version}}') on $DOCKER_HOST"
  ENGINE_ARGS=(--invoke-image "$BASE_IMAGE" --skip-pull-image)
  # The functions' containers are on podman's default bridge (its Docker API puts them
  # there whatever containers.conf says): they reach the host at the bridge's gateway.
  DDB_HOST=$(podman network inspect podman --format '{{range .Subnets}}{{.Gateway}}{{end}}')
  [ -n "$DDB_HOST" ] || die "no gateway on podman's default network"
  RELAY_HOST=$DDB_HOST
fi

# ---- (4) DynamoDB Local, the table, the function configuration ----------------------------
DDB_PORT=${SAM_DDB_PORT:-$(scripts/free-port.sh)}
if [ "$MODE" = run ]; then
  API_PORT=${SAM_PORT:-3001}
  DDB_DIR=$REPO/.local/sam-data
  TABLE=personal-finance
else
  API_PORT=${SAM_PORT:-$(scripts/free-port.sh)}
  DDB_DIR=""
  TABLE="sam-test-$(date +%s)-$$"
fi
DDB_PID=$(DDB_LOG="$WORK/dynamodb.log" scripts/dynamodb-local.sh start "$DDB_PORT" ${DDB_DIR:+"$DDB_DIR"} 9>&-)
export SAM_TABLE_NAME=$TABLE
# DynamoDB Local listens on 127.0.0.1 only: a relay on the containers' gateway address.
REACH_PORT=$DDB_PORT
if [ -n "$RELAY_HOST" ]; then
  rm -f "$WORK/relay.port"
  "$PY" scripts/sam_local.py forward "$RELAY_HOST" "$DDB_PORT" "$WORK/relay.port" 2>"$WORK/relay.log" 9>&- &
  RELAY_PID=$!
  for _ in $(seq 1 50); do [ -s "$WORK/relay.port" ] && break; sleep 0.1; done
  [ -s "$WORK/relay.port" ] || die "the relay to DynamoDB Local did not start; see $WORK/relay.log"
  REACH_PORT=$(cat "$WORK/relay.port")
fi
export SAM_DYNAMODB_ENDPOINT=http://$DDB_HOST:$REACH_PORT
SAM_JWT_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
export SAM_JWT_SECRET
"$PY" scripts/sam_local.py create-table "http://127.0.0.1:$DDB_PORT"
ENV_FILE=$WORK/env.json
"$PY" scripts/sam_local.py env-vars "$BUILD_DIR/template.yaml" "$ENV_FILE"
unset SAM_JWT_SECRET
say "DynamoDB Local on :$DDB_PORT${DDB_DIR:+ (data in .local/sam-data)}, table $TABLE; functions reach it at $SAM_DYNAMODB_ENDPOINT"

# ---- (5) sam local start-api ------------------------------------------------------------------
# A configuration file of its own: samconfig.toml's [local_start_api] is for the Docker
# network of the README's manual steps.
printf 'version = 0.1\n' >"$WORK/samconfig.toml"
sam_args=(
  local start-api
  --config-file "$WORK/samconfig.toml"
  --template "$BUILD_DIR/template.yaml"
  --env-vars "$ENV_FILE"
  --host 127.0.0.1 --port "$API_PORT"
  --warm-containers LAZY
  --region "$AWS_DEFAULT_REGION"
  --layer-cache-basedir "$WORK/layers"
  "${ENGINE_ARGS[@]}"
)
BASE_URL=http://127.0.0.1:$API_PORT
say "sam local start-api on $BASE_URL (log: ${SAM_LOG#"$REPO"/})"
if [ "$MODE" = run ]; then
  "$SAM" "${sam_args[@]}" > >(tee "$SAM_LOG") 2>&1 9>&- &
  SAM_PID=$!
else
  "$SAM" "${sam_args[@]}" >"$SAM_LOG" 2>&1 9>&- &
  SAM_PID=$!
fi

t0=$(date +%s)
deadline=$(( t0 + ${SAM_START_TIMEOUT:-600} ))
until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$BASE_URL/api/transactions" || true)" = 403 ]; do
  kill -0 "$SAM_PID" 2>/dev/null || { tail -n 30 "$SAM_LOG" >&2; die "sam local start-api exited"; }
  [ "$(date +%s)" -lt "$deadline" ] || { tail -n 30 "$SAM_LOG" >&2; die "the API did not answer within ${SAM_START_TIMEOUT:-600} s"; }
  sleep 1
done
say "the API answers on $BASE_URL ($(( $(date +%s) - t0 )) s after start-api)"

if [ "$MODE" = run ]; then
  echo "API (SAM CLI, $ENGINE, $ARCH): $BASE_URL   docs: $BASE_URL/swagger-ui   Ctrl-C stops it" >&2
  wait "$SAM_PID" || exit $?
  exit 0
fi

SAM_FUNCTIONS=$("$PY" scripts/sam_local.py functions template.yaml | tr '\n' ' ')
export SAM_FUNCTIONS BASE_URL
: >"$WORK/smoke.log"
python3 tests/sam/smoke.py | tee "$WORK/smoke.log"
