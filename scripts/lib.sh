# Shared helpers for the scripts in this folder. Source it; do not run it.

# step NAME prints a step's heading with the clock time, so a CI log shows
# where the minutes went.
step() { printf '\n==> %s  (%s)\n' "$*" "$(date +%T)"; }

# sudo when not root.
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# ensure_apt PKG...: installs the Debian packages that are missing, running
# `apt-get update` first; does nothing when all are present.
ensure_apt() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
