#!/usr/bin/env bash
# `make package`: builds every function of template.yaml for Lambda (arm64,
# provided.al2023): one `cargo lambda build --release --arm64 --bin <group> ...` of them
# all (zig as the cross linker), then `sam build`, which runs that command for each
# function and finds its binary fresh; then prints each bootstrap's size and the size
# of the zip that `sam deploy` uploads. Output: .local/sam-build (samconfig.toml points
# `sam deploy` and `sam local` there).
#
# Pinned aws-sam-cli, cargo-lambda and ziglang come from PyPI into the git-ignored
# .local/venv; the arm64 Rust standard library comes from rustup. No Docker, no AWS
# account. Builds into its own target directory (.local/target-package, override with
# CARGO_TARGET_DIR) so it never waits on, or blocks, the cargo lock of `make test`, and
# runs under `nice` so an editor and other builds stay responsive. A cold build takes
# about 22 minutes on 2 cores (docs/DEPLOY.md, "Build").
set -euo pipefail
cd "$(dirname "$0")/.."

SAM_CLI_VERSION=1.170.0
CFN_LINT_VERSION=1.58.0
CARGO_LAMBDA_VERSION=1.9.2
ZIG_VERSION=0.15.2
TARGET=aarch64-unknown-linux-gnu
VENV=.local/venv
BUILD_DIR=.local/sam-build
WANT="aws-sam-cli==$SAM_CLI_VERSION cfn-lint==$CFN_LINT_VERSION cargo-lambda==$CARGO_LAMBDA_VERSION ziglang==$ZIG_VERSION"

[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
if [ "$(cat "$VENV/.package" 2>/dev/null)" != "$WANT" ]; then
  echo "installing $WANT into $VENV"
  # shellcheck disable=SC2086 # WANT is a list of requirement specifiers
  "$VENV/bin/pip" install --quiet --disable-pip-version-check $WANT
  echo "$WANT" > "$VENV/.package"
fi
# cargo-lambda runs zig as `python -m ziglang` when no `zig` is on the PATH: the venv's.
export PATH="$PWD/$VENV/bin:$PATH"

if command -v rustup >/dev/null; then
  if ! rustup target list --installed | grep -qx "$TARGET"; then
    echo "rustup target add $TARGET"
    rustup target add "$TARGET"
  fi
else
  echo "warning: no rustup; the Rust standard library for $TARGET must already be installed" >&2
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/.local/target-package}"
# PACKAGE_PROFILE=ci (what .ci/run sets): the release profile without its fat-LTO,
# single-codegen-unit link, through Cargo's profile variables, so that sam build's own
# `cargo lambda build --release` calls see the same settings and find their binaries
# fresh. Same code, target and opt-levels; larger binaries, and a fraction of the link
# time. Nothing built this way is for deploying: `make package` alone keeps the shipped
# profile (Cargo.toml, [profile.release]).
PROFILE_NOTE="the shipped release profile"
case "${PACKAGE_PROFILE:-release}" in
  release) ;;
  ci)
    export CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
    CARGO_TARGET_DIR="$CARGO_TARGET_DIR-ci"
    PROFILE_NOTE="PACKAGE_PROFILE=ci (no LTO, 16 codegen units): not the sizes that ship"
    ;;
  *) echo "PACKAGE_PROFILE must be release or ci" >&2; exit 2 ;;
esac
export AWS_DEFAULT_REGION="${AWS_REGION:-${AWS_DEFAULT_REGION:-eu-west-1}}"
export SAM_CLI_TELEMETRY=0

start=$(date +%s)
# sam build runs `cargo lambda build --release --arm64 --bin <Binary>` once per function,
# one after the other, so each binary's fat-LTO link (most of the time) runs alone on one
# core. One cargo call for every function's binary first runs those links side by side,
# one per core; each of sam build's calls then finds its binary fresh (the same command
# for a subset of the binaries: same packages, features and profile) and only copies it.
# shellcheck disable=SC2046 # one `--bin <name>` pair per word
nice -n 10 cargo lambda build --release --arm64 \
  $(awk '/BuildMethod: rust-cargolambda/ { m = 1 } m && /Binary:/ { print "--bin", $2; m = 0 }' template.yaml)
nice -n 10 sam build --template-file template.yaml --build-dir "$BUILD_DIR"
elapsed=$(( $(date +%s) - start ))

# Sizes: the bootstrap binary and the zip `sam deploy` makes of it (deflate, like SAM's).
"$VENV/bin/python" - "$BUILD_DIR" "$elapsed" "$PROFILE_NOTE" <<'EOF'
import io, os, sys, zipfile
build, elapsed, note = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = []
for name in sorted(os.listdir(build)):
    binary = os.path.join(build, name, "bootstrap")
    if not os.path.isfile(binary):
        continue
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("bootstrap")
        info.external_attr = 0o755 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(binary, "rb") as f:
            z.writestr(info, f.read())
    rows.append((name, os.path.getsize(binary), len(buf.getvalue())))
mib = lambda n: f"{n / 1048576:.2f} MiB"
print(f"\n{'function':<24}{'bootstrap':>14}{'zip':>14}")
for name, size, zipped in rows:
    print(f"{name:<24}{mib(size):>14}{mib(zipped):>14}")
print(f"cargo lambda build and sam build took {elapsed // 60} min {elapsed % 60} s; output in {build}")
print(f"built with {note}")
EOF
