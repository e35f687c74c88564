# Sourced by scripts/install-deps.sh: apt-get that waits for another apt to finish.
#
# `-o DPkg::Lock::Timeout` makes apt-get wait for dpkg's lock only. `apt-get
# update` also takes /var/lib/apt/lists/lock (and install the archives' lock),
# and stops at once when another apt holds it — as on a fresh cloud machine
# doing its own updates. apt_get retries while the error is such a lock, every
# APT_LOCK_RETRY_SECONDS (5) for up to APT_LOCK_WAIT_SECONDS (600).
# APT_GET names the apt-get to run (the tests give a stand-in).

apt_get() {
  local waited=0 log status
  local retry=${APT_LOCK_RETRY_SECONDS:-5} limit=${APT_LOCK_WAIT_SECONDS:-600}
  log=$(mktemp)
  while true; do
    status=0
    "${APT_GET:-apt-get}" -o DPkg::Lock::Timeout="$limit" "$@" 2>"$log" || status=$?
    if [ "$status" -eq 0 ] || ! grep -q "Could not get lock" "$log" || [ "$waited" -ge "$limit" ]; then
      cat "$log" >&2
      rm -f "$log"
      return "$status"
    fi
    [ "$waited" -eq 0 ] && echo "another apt-get holds a lock: waiting for it (up to $limit s)" >&2
    sleep "$retry"
    waited=$((waited + retry))
  done
}
