#!/usr/bin/env bash
# Builds the Windows installer signed with a throwaway self-signed
# certificate and checks it (issue 6 acceptance; .ci/run calls it through
# scripts/test.sh):
#   - openworker.exe is PE32+ x86-64 for the Windows GUI subsystem, with a
#     version resource (winbuild check-exe; its negative cases are the
#     winbuild unit tests, run first);
#   - the exe was built with cgo (go-sqlite3) and stamped with version,
#     commit and date (Go build info);
#   - osslsigncode verifies the exe, the exe packed in the installer and the
#     installer against the test certificate, and rejects a tampered copy;
#   - 7z lists the expected files inside the installer, and the packed exe is
#     byte-identical to the signed one;
#   - the installer and its uninstaller are PE32+ x86-64 too (64-bit NSIS:
#     this kernel runs no 32-bit program, docs/ci.md#under-wine), and carry
#     version and publisher in their version resource;
#   - the installer script, preprocessed by makensis with the build's defines
#     (macros expanded), registers .mcpb and .dxt per user (HKCU\Software\
#     Classes only, never HKLM/HKCR) and its uninstaller removes them;
#   - a Linux build of the same tree prints the stamped version, commit and
#     date with `openworker version`, and resolves the example coworker's
#     device tools through itself (`openworker mcp serve device`).
# Prints the installer size and the build time. Debian 12, root or sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
. scripts/release-lib.sh

fail() { echo "FAIL: $*" >&2; exit 1; }
start=$SECONDS
ensure_apt nsis gcc-mingw-w64-x86-64 p7zip-full osslsigncode openssl file

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

step "winbuild unit tests (PE and resource checks, incl. negative cases)"
go -C build/windows/winbuild test -count=1 ./...

step "throwaway code-signing certificate"
pass="test-$RANDOM-$RANDOM"
openssl req -x509 -newkey rsa:2048 -sha256 -days 2 -subj "/CN=OpenWorker Test Signing/O=OpenWorker CI" \
  -addext "keyUsage=critical,digitalSignature" -addext "extendedKeyUsage=codeSigning" \
  -passout "pass:$pass" -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null

# Pin the build date (release_date honours it) so the stamp can be checked.
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH
VERSION=$(release_version)
COMMIT=$(release_commit)
DATE=$(release_date)

step "build (scripts/build-windows.sh, signing on)"
t=$SECONDS
mkdir "$tmp/signed"
OPENWORKER_SIGN_CERT="$tmp/cert.pem" OPENWORKER_SIGN_KEY="$tmp/key.pem" OPENWORKER_SIGN_PASS="$pass" \
  OPENWORKER_SIGNED_COPY_DIR="$tmp/signed" bash scripts/build-windows.sh
build_time=$((SECONDS - t))

exe=build/bin/openworker.exe
setup=build/bin/OpenWorker-$VERSION-windows-amd64-setup.exe
[ -f "$setup" ] || fail "installer $setup missing"

step "exe: PE32+, GUI subsystem, version resource"
go -C build/windows/winbuild run . check-exe -version "$VERSION" "$PWD/$exe"
file "$exe"

step "exe: cgo and version stamp"
# -trimpath keeps -ldflags out of the Go build info, so look for the stamped
# strings themselves; the date is pinned by SOURCE_DATE_EPOCH above.
info=$(go version -m "$exe")
grep -q 'CGO_ENABLED=1' <<<"$info" || fail "exe not built with CGO_ENABLED=1 (go-sqlite3 would panic)"
grep -q 'github.com/mattn/go-sqlite3' <<<"$info" || fail "exe lacks go-sqlite3"
grep -E 'GOOS=|CGO_ENABLED|-tags' <<<"$info"
for want in "$VERSION" "$COMMIT" "$DATE"; do
  grep -aqF -- "$want" "$exe" || fail "exe lacks the stamped string $want"
done
echo "stamped: version $VERSION, commit $COMMIT, date $DATE"

step "installer and uninstaller: PE32+ x86-64 (64-bit NSIS, runs where no 32-bit program can)"
go -C build/windows/winbuild run . check-exe -version "$VERSION" "$PWD/$setup"
file "$setup"
file "$setup" | grep -q 'PE32+ executable (GUI) x86-64' || fail "the installer is not PE32+ x86-64: $(file -b "$setup")"

step "signatures (osslsigncode verify against the test certificate)"
verify() { osslsigncode verify -CAfile "$tmp/cert.pem" -in "$1" >"$tmp/verify.log" 2>&1 || { cat "$tmp/verify.log" >&2; fail "signature of $1 does not verify"; }; echo "verified: $1"; }
verify "$exe"
verify "$setup"
# The uninstaller is signed by makensis' !uninstfinalize hook under a temporary name.
uninst=$(find "$tmp/signed" -type f ! -name openworker.exe ! -name "$(basename "$setup")" | head -n 1)
[ -n "$uninst" ] || fail "the uninstaller was not signed (no !uninstfinalize call)"
verify "$uninst"
go -C build/windows/winbuild run . check-exe -version "$VERSION" "$uninst"
cp "$exe" "$tmp/tampered.exe"
printf 'X' | dd of="$tmp/tampered.exe" bs=1 seek=$(( $(stat -c %s "$exe") / 2 )) conv=notrunc status=none
if osslsigncode verify -CAfile "$tmp/cert.pem" -in "$tmp/tampered.exe" >/dev/null 2>&1; then fail "a tampered exe verifies"; fi
echo "rejected: tampered copy of the exe"

step "installer contents (7z l)"
7z l "$setup" >"$tmp/list.txt"
for f in openworker.exe uninstall.exe \
  examples/coworkers/device-assistant/coworker/manifest.md \
  examples/coworkers/device-assistant/coworker/tools.json \
  \$PLUGINSDIR/webview2bootstrapper/MicrosoftEdgeWebview2Setup.exe; do
  grep -qF " $f" "$tmp/list.txt" || { cat "$tmp/list.txt" >&2; fail "installer lacks $f"; }
done
sed -n '/^   Date/,$p' "$tmp/list.txt"
7z e -y -o"$tmp/x" "$setup" openworker.exe >/dev/null
cmp "$tmp/x/openworker.exe" "$exe" || fail "the exe in the installer differs from the signed build/bin/openworker.exe"
verify "$tmp/x/openworker.exe"

step "installer version resource"
go -C build/windows/winbuild run . version-info "$PWD/$setup" | tee "$tmp/vi.txt"
grep -qx "ProductVersion=$VERSION" "$tmp/vi.txt" || fail "installer ProductVersion is not $VERSION"
grep -q '^CompanyName=.' "$tmp/vi.txt" || fail "installer has no CompanyName (publisher)"

step "file associations (.mcpb, .dxt): per user, removed by the uninstaller"
# makensis -PPO prints the script as compiled: defines and macros expanded.
# The install sections and the uninstall ("un.") sections are split apart.
work=build/bin/windows-work
makensis -PPO "-DDEFINES=$PWD/$work/defines.nsh" "-DEXE=$PWD/$exe" "-DEXAMPLES=$PWD/examples/coworkers" \
  "-DICON=$PWD/$work/app.ico" -DWEBVIEW2_SETUP=MicrosoftEdgeWebview2Setup.exe "-DOUTFILE=$tmp/unused.exe" \
  build/windows/installer/openworker.nsi >"$tmp/ppo.nsi" 2>"$tmp/ppo.err" || { cat "$tmp/ppo.err" >&2; fail "makensis -PPO failed"; }
awk '/^Section /{sec = ($0 ~ /"un\./) ? "un" : "in"} sec != "" {print > (dir "/" sec ".nsi")} /^SectionEnd/{sec = ""}' dir="$tmp" "$tmp/ppo.nsi"
has() { # has in|un LINE: the install (in) or uninstall (un) sections have LINE
  local what=installer; [ "$1" = un ] && what=uninstaller
  grep -qF -- "$2" "$tmp/$1.nsi" || fail "the $what lacks: $2"
}
exe_name=$(sed -n 's/^!define EXE_NAME "\(.*\)"$/\1/p' "$work/defines.nsh")
[ -n "$exe_name" ] || fail "no EXE_NAME in $work/defines.nsh"
for ext in mcpb dxt; do
  has in "WriteRegStr HKCU \"Software\\Classes\\.$ext\" \"\" \"OpenWorker.$ext\""
  has in "WriteRegStr HKCU \"Software\\Classes\\.$ext\\OpenWithProgids\" \"OpenWorker.$ext\" \"\""
  has in "WriteRegStr HKCU \"Software\\Classes\\OpenWorker.$ext\\shell\\open\\command\" \"\" '\"\$INSTDIR\\$exe_name\" \"%1\"'"
  has un "DeleteRegKey HKCU \"Software\\Classes\\OpenWorker.$ext\""
  has un "DeleteRegValue HKCU \"Software\\Classes\\.$ext\\OpenWithProgids\" \"OpenWorker.$ext\""
  has un "DeleteRegValue HKCU \"Software\\Classes\\.$ext\" \"\""
  has un "DeleteRegKey /ifempty HKCU \"Software\\Classes\\.$ext\""
  # The default value is cleared only while it still names our prog id.
  grep -A3 -F "ReadRegStr \$0 HKCU \"Software\\Classes\\.$ext\" \"\"" "$tmp/un.nsi" | grep -qF "OpenWorker.$ext" ||
    fail "the uninstaller clears .$ext's default value without checking it is ours"
done
if grep -nE '(HKLM|HKCR|SHCTX|SHELL_CONTEXT)[^;]*Classes|HKCR' "$tmp/ppo.nsi"; then fail "a file association is written outside HKCU"; fi
grep -c 'Software\\Classes' "$tmp/in.nsi" "$tmp/un.nsi" | sed 's|.*/||'

step "openworker version (Linux build, same stamp)"
go build -ldflags "$(release_ldflags "$VERSION" "$COMMIT" "$DATE")" -o "$tmp/openworker" .
got=$("$tmp/openworker" version)
echo "$got"
for want in "$VERSION" "$COMMIT" "$DATE"; do
  grep -qF -- "$want" <<<"$got" || fail "\`openworker version\` prints \"$got\", which lacks $want"
done

step "device provider is the same executable (Linux build, run outside the tree)"
out=$(cd "$tmp" && "$tmp/openworker" check --coworkers "$OLDPWD/examples/coworkers")
echo "$out"
grep -q 'device.battery_status_get .*mcp:device' <<<"$out" || fail "the device tools did not resolve through \`openworker mcp serve device\`"

size=$(stat -c %s "$setup")
step "sizes against docs/install.md#sizes (10 % at most)"
# doc_size_close LABEL BYTES: the row "| LABEL | N bytes |" of
# docs/install.md gives LABEL's size within 10 % of the measured BYTES.
doc_size_close() {
  local want diff
  want=$(sed -n "s/^| $1 | \([0-9,]*\) bytes |.*/\1/p" docs/install.md | tr -d , | head -n 1)
  [ -n "$want" ] || fail "docs/install.md#sizes has no row \"| $1 | N bytes |\""
  diff=$(($2 > want ? $2 - want : want - $2))
  [ $((diff * 10)) -le "$want" ] || fail "docs/install.md#sizes says the $1 is $want bytes; measured $2, more than 10 % off: copy the measured number there"
  echo "$1: $2 bytes, docs $want"
}
doc_size_close "Windows installer" "$size"
doc_size_close "Windows exe" "$(stat -c %s "$exe")"
step "Windows installer OK: $setup"
echo "installer size: $size bytes ($(( (size + 524288) / 1048576 )) MiB); exe $(stat -c %s "$exe") bytes"
echo "build time: ${build_time}s; check total: $(elapsed "$start")"
