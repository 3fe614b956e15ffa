# Shared helpers for the scripts in this folder. Source it; do not run it.

# step NAME prints a step's heading with the clock time, so a CI log shows
# where the minutes went.
step() { printf '\n==> %s  (%s)\n' "$*" "$(date +%T)"; }

# sudo when not root.
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# apt_get ARGS...: apt-get as root, non-interactive, waiting up to 10
# minutes for the dpkg lock (another apt, or unattended-upgrades, may hold
# it on a shared machine: without the wait apt-get fails at once with
# "Could not get lock /var/lib/dpkg/lock-frontend"). `apt-get update` takes
# the lists lock, which older apt does not wait for, so a failure that
# names a lock is tried again, up to 20 times 30 s apart. Every apt call of
# these scripts goes through here.
apt_get() {
  local try log
  log=$(mktemp)
  for try in $(seq 20); do
    if as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@" >"$log" 2>&1; then
      rm -f "$log"
      return 0
    fi
    grep -q 'Could not get lock\|Unable to acquire the dpkg\|Unable to lock' "$log" || break
    echo "apt-get $1: a lock is held (try $try of 20), waiting 30 s" >&2
    sleep 30
  done
  tail -n 20 "$log" >&2
  rm -f "$log"
  echo "apt-get $* failed" >&2
  return 1
}

# ensure_apt PKG...: installs the Debian packages that are missing, running
# `apt-get update` first; does nothing when all are present.
ensure_apt() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || { echo "install ${missing[*]} with your package manager" >&2; return 2; }
  echo "installing: ${missing[*]}"
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "${missing[@]}"
}
