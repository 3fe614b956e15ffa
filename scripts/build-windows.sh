#!/usr/bin/env bash
# Builds the Windows installer of OpenWorker Desktop on Debian 12 (as root or
# with sudo), cross-compiling with mingw-w64 (cgo, for SQLite), or natively
# on Windows in Git Bash (gcc from mingw-w64 on PATH; NSIS, installed with
# Chocolatey when makensis is missing; no signing), as the test-windows
# workflow does (docs/ci.md):
#
#   bash scripts/build-windows.sh          # -> build/bin/openworker.exe
#                                          #    build/bin/OpenWorker-<version>-windows-amd64-setup.exe
#   bash scripts/build-windows.sh sign F   # Authenticode-sign file F in place (used by the build)
#
# Environment:
#   OPENWORKER_VERSION   version to stamp (default: v* tag on HEAD, else wails.json)
#   OPENWORKER_OUT_DIR   where the exe and installer go, relative to the checkout (default build/bin); the Wine
#                        test builds an older-stamped installer there for the upgrade test
#   OPENWORKER_SIGN_CERT, OPENWORKER_SIGN_KEY   PEM certificate (chain) and key: when both
#                        are set, the exe, the uninstaller and the installer are signed
#   OPENWORKER_SIGN_PASS password of the key (optional; passed through a 0600 file)
#   OPENWORKER_SIGN_TIMESTAMP_URL  RFC 3161 timestamp server (optional; needs network)
#   OPENWORKER_UPDATE_TEST_BUILD=1 a test build that trusts the update key in
#                        $OPENWORKER_UPDATE_TEST_KEY (build tag updatetestkey,
#                        internal/update/key_testhook.go; the Wine update step's
#                        builds only, never signed or released: docs/update.md#keys)
#   OPENWORKER_SIGNED_COPY_DIR     test hook: keep a copy of every file signed (the check
#                        script uses it to verify the uninstaller, which 7z cannot extract)
#
# Steps: apt packages (nsis, mingw-w64, p7zip-full; on Windows: makensis), the frontend (npm),
# the Windows resources (icon, manifest, version info; build/windows/winbuild),
# `go build` for windows/amd64 with -H windowsgui and the version stamp, a
# PE check, signing, makensis (build/windows/installer/openworker.nsi),
# signing. See docs/install.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
. scripts/release-lib.sh

# sign_file FILE signs FILE in place with osslsigncode (SHA-256).
sign_file() {
  local f=$1 passfile=""
  local args=(sign -certs "$OPENWORKER_SIGN_CERT" -key "$OPENWORKER_SIGN_KEY" -h sha256 -n "OpenWorker Desktop")
  if [ -n "${OPENWORKER_SIGN_PASS:-}" ]; then
    passfile=$(mktemp); chmod 600 "$passfile"
    printf '%s' "$OPENWORKER_SIGN_PASS" >"$passfile"
    args+=(-readpass "$passfile")
  fi
  if [ -n "${OPENWORKER_SIGN_TIMESTAMP_URL:-}" ]; then args+=(-ts "$OPENWORKER_SIGN_TIMESTAMP_URL"); fi
  rm -f "$f.signed"
  if ! osslsigncode "${args[@]}" -in "$f" -out "$f.signed" >/dev/null; then
    [ -n "$passfile" ] && rm -f "$passfile"
    echo "signing $f failed (check OPENWORKER_SIGN_CERT/KEY/PASS)" >&2
    return 1
  fi
  [ -n "$passfile" ] && rm -f "$passfile"
  mv -f "$f.signed" "$f"
  if [ -n "${OPENWORKER_SIGNED_COPY_DIR:-}" ]; then cp "$f" "$OPENWORKER_SIGNED_COPY_DIR/"; fi
}

if [ "${1:-}" = sign ]; then
  [ $# -eq 2 ] || { echo "usage: $0 sign FILE" >&2; exit 2; }
  sign_file "$2"
  exit 0
fi
[ $# -eq 0 ] || { echo "usage: $0 [sign FILE]" >&2; exit 2; }

signing=""
if [ -n "${OPENWORKER_SIGN_CERT:-}" ] || [ -n "${OPENWORKER_SIGN_KEY:-}" ]; then
  if [ ! -r "${OPENWORKER_SIGN_CERT:-}" ] || [ ! -r "${OPENWORKER_SIGN_KEY:-}" ]; then
    echo "set both OPENWORKER_SIGN_CERT and OPENWORKER_SIGN_KEY to readable PEM files" >&2; exit 2
  fi
  signing=1
fi
tags=desktop,production
[ "${OPENWORKER_UPDATE_TEST_BUILD:-}" != 1 ] || tags=$tags,updatetestkey # OPENWORKER_UPDATE_TEST_BUILD: test builds only
if [ "${OPENWORKER_UPDATE_TEST_BUILD:-}" = 1 ] && [ -n "$signing" ]; then
  echo "a test build (OPENWORKER_UPDATE_TEST_BUILD) trusts another update key: it is never signed" >&2; exit 2
fi

# native PATH prints PATH as Windows programs (go, makensis) read it: D:/a/b
# under Git Bash (cygpath), PATH itself elsewhere.
native() { if command -v cygpath >/dev/null 2>&1; then cygpath -m "$1"; else printf '%s\n' "$1"; fi; }
root=$(native "$PWD")

start=$SECONDS
case "$(uname -s)" in
MINGW* | MSYS* | CYGWIN*)
  [ -z "$signing" ] || { echo "signing needs osslsigncode: sign on Debian (see docs/install.md)" >&2; exit 2; }
  step "tools (Windows): gcc, makensis"
  cc=${CC:-gcc} cxx=${CXX:-g++}
  makensis=$(command -v makensis || true)
  nsisdir="/c/Program Files (x86)/NSIS"
  if [ -z "$makensis" ] && [ ! -x "$nsisdir/makensis.exe" ]; then
    echo "makensis not found: installing NSIS with Chocolatey"
    choco install nsis -y --no-progress >/dev/null
  fi
  [ -n "$makensis" ] || makensis="$nsisdir/makensis.exe"
  ;;
*)
  step "apt packages"
  ensure_apt nsis gcc-mingw-w64-x86-64 p7zip-full ${signing:+osslsigncode}
  cc=x86_64-w64-mingw32-gcc cxx=x86_64-w64-mingw32-g++ makensis=makensis
  ;;
esac
"$cc" --version | head -n 1
"$makensis" -VERSION
echo

VERSION=$(release_version)
COMMIT=$(release_commit)
DATE=$(release_date)
echo "version $VERSION, commit $COMMIT, date $DATE"

out=${OPENWORKER_OUT_DIR:-build/bin}
work=$out/windows-work
mkdir -p "$work"
exe=$out/openworker.exe
setup=$out/OpenWorker-$VERSION-windows-amd64-setup.exe
syso=zz_openworker_res_windows_amd64.syso   # GOOS/GOARCH in the name: ignored by other builds
trap 'rm -f "$syso"' EXIT

t=$SECONDS
step "frontend"
if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  npm --prefix frontend ci --no-audit --no-fund --loglevel=error
fi
npm --prefix frontend run build --silent
echo "frontend: $(elapsed $t)"

t=$SECONDS
step "Windows resources (icon, manifest, version info)"
go -C build/windows/winbuild run . resources -project "$root" -version "$VERSION" \
  -syso "$root/$syso" -ico "$root/$work/app.ico" -nsh "$root/$work/defines.nsh"
echo "resources: $(elapsed $t)"

t=$SECONDS
step "go build (windows/amd64, mingw-w64 cgo)"
CGO_ENABLED=1 CC=$cc CXX=$cxx GOOS=windows GOARCH=amd64 \
  go build -trimpath -tags "$tags" \
  -ldflags "-H windowsgui -s -w $(release_ldflags "$VERSION" "$COMMIT" "$DATE")" -o "$exe" .
rm -f "$syso"
go -C build/windows/winbuild run . check-exe -version "$VERSION" "$root/$exe"
echo "go build: $(elapsed $t)"

if [ -n "$signing" ]; then step "sign the exe"; sign_file "$exe"; fi

t=$SECONDS
step "NSIS installer"
go mod download github.com/wailsapp/wails/v2
wv2="$(native "$(go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)")/internal/webview2runtime/MicrosoftEdgeWebview2Setup.exe"
[ -f "$wv2" ] || { echo "WebView2 bootstrapper not found at $wv2" >&2; exit 1; }
nsis_args=(-V2 -WX "-DDEFINES=$root/$work/defines.nsh" "-DEXE=$root/$exe" "-DEXAMPLES=$root/examples/coworkers"
  "-DICON=$root/$work/app.ico" "-DWEBVIEW2_SETUP=$wv2" "-DOUTFILE=$root/$setup")
if [ -n "$signing" ]; then nsis_args+=("-DSIGN_CMD=bash \"$PWD/scripts/build-windows.sh\" sign"); fi
rm -f "$setup"
"$makensis" "${nsis_args[@]}" build/windows/installer/openworker.nsi
echo "makensis: $(elapsed $t)"

if [ -n "$signing" ]; then step "sign the installer"; sign_file "$setup"; fi

step "done in $(elapsed $start)"
ls -l "$exe" "$setup"
echo "installer: $setup ($(stat -c %s "$setup") bytes)"
# The sizes docs/install.md#sizes quotes (TestInstallSizesDocumented).
echo "size: windows installer $(wc -c <"$setup" | tr -d ' ') bytes"
echo "size: windows exe $(wc -c <"$exe" | tr -d ' ') bytes"
