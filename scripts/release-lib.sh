# shellcheck shell=bash
# Release helpers shared by scripts/build-windows.sh and scripts/build-macos.sh,
# and the builds of an older version the upgrade and update tests install
# first (scripts/wine/*-steps.sh, scripts/windows-install-smoke.sh,
# scripts/macos-update-smoke.sh). Source it from the repository root; do not run it. Works with bash 3.2
# (macOS) and GNU or BSD date.

# release_version prints the version to stamp, without a leading "v":
# $OPENWORKER_VERSION if set, else the v* tag on HEAD, else wails.json's
# info.productVersion.
release_version() {
  local v="${OPENWORKER_VERSION:-}"
  if [ -z "$v" ]; then v=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null || true); fi
  if [ -z "$v" ]; then
    v=$(sed -n 's/.*"productVersion"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' wails.json | head -n 1)
  fi
  if [ -z "$v" ]; then echo "no version: set OPENWORKER_VERSION or wails.json info.productVersion" >&2; return 1; fi
  echo "${v#v}"
}

# release_commit prints the short commit hash ("unknown" outside git).
release_commit() { git rev-parse --short HEAD 2>/dev/null || echo unknown; }

# release_date prints the build date in UTC, RFC 3339; $SOURCE_DATE_EPOCH
# (reproducible builds) wins over the clock.
release_date() {
  local fmt=%Y-%m-%dT%H:%M:%SZ
  if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    date -u -d "@$SOURCE_DATE_EPOCH" +$fmt 2>/dev/null || date -u -r "$SOURCE_DATE_EPOCH" +$fmt
  else
    date -u +$fmt
  fi
}

# release_ldflags VERSION COMMIT DATE prints the -X flags main.go reads
# (`openworker version` prints them).
release_ldflags() {
  echo "-X main.version=$1 -X main.commit=$2 -X main.date=$3"
}

# release_build_at OS VERSION OUT_DIR LOG builds this source again, stamped
# VERSION, into OUT_DIR with scripts/build-OS.sh (windows or macos), its
# output in LOG (the last lines on stderr when it fails), and prints what
# the upgrade tests install: the installer
# (OUT_DIR/OpenWorker-VERSION-windows-amd64-setup.exe) or the app
# (OUT_DIR/OpenWorker.app). The Go build is cached, so it is mostly the
# packaging. The environment passes through: OPENWORKER_UPDATE_TEST_BUILD=1
# makes a build that trusts a test update key (docs/update.md#keys).
release_build_at() {
  local os=$1 version=$2 out=$3 log=$4 made
  case "$os" in
  windows) made=$out/OpenWorker-$version-windows-amd64-setup.exe ;;
  macos) made=$out/OpenWorker.app ;;
  *) echo "release_build_at: OS is windows or macos, not \"$os\"" >&2; return 2 ;;
  esac
  if ! OPENWORKER_VERSION=$version OPENWORKER_OUT_DIR=$out bash "scripts/build-$os.sh" >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "building $version into $out failed (scripts/build-$os.sh; log: $log)" >&2
    return 1
  fi
  [ -e "$made" ] || { echo "scripts/build-$os.sh made no $made (log: $log)" >&2; return 1; }
  echo "$made"
}

# elapsed START prints seconds since START (a $SECONDS value).
elapsed() { echo "$((SECONDS - $1))s"; }
