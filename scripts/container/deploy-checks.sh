# shellcheck shell=bash disable=SC2154 # work, tag, token, root, here come from test.sh
# The replicated stack of deploy/compose.yaml — PostgreSQL, three replicas, nginx —
# run as an operator would with podman-compose. Sourced by scripts/container/test.sh
# after the single-image checks, with its helpers (fail, pass, curl_status,
# json_field) and the image it built ($tag). Checks:
#   - every replica becomes ready; nginx answers on 127.0.0.1
#   - an edit made through nginx reaches every replica; their tables and change
#     feeds are byte-identical
#   - an event stream through nginx: unbuffered, not compressed, the next edit arrives
#   - a live page in headless Chromium, behind nginx, keeps following after its
#     replica is SIGKILLed (podman kill); edits go on through nginx meanwhile
#   - the killed replica, started again, catches up to the others
# test.sh's clean-up takes the stack down (containers, network, volume).

deploy_project="wtvtest$$"
deploy_log="$work/compose.log"

# Four free loopback ports: nginx and the three replicas.
read -r deploy_port replica_port_1 replica_port_2 replica_port_3 < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(4)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in sockets])')
nginx_url="http://127.0.0.1:$deploy_port"
replica_urls=("http://127.0.0.1:$replica_port_1" "http://127.0.0.1:$replica_port_2" "http://127.0.0.1:$replica_port_3")

deploy_compose() {
  WEBTABLEVIEW_IMAGE=$tag WEBTABLEVIEW_TOKEN=$token DEPLOY_PORT=$deploy_port \
    DEPLOY_REPLICA_PORT_1=$replica_port_1 DEPLOY_REPLICA_PORT_2=$replica_port_2 DEPLOY_REPLICA_PORT_3=$replica_port_3 \
    podman-compose -p "$deploy_project" -f "$root/deploy/compose.yaml" "$@" >>"$deploy_log" 2>&1
}

# Called by test.sh's clean-up: everything the stack made goes, also on failure.
deploy_down() {
  deploy_compose down -v -t 5 || true
  # What down may leave (a container its restart policy was bringing back): by the project's label.
  podman ps -a -q --filter "label=io.podman.compose.project=$deploy_project" | xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
  podman network rm -f "${deploy_project}_default" >/dev/null 2>&1 || true
  podman volume rm -f "${deploy_project}_database" >/dev/null 2>&1 || true
}

deploy_fail() {
  local service
  for service in postgres replica1 replica2 replica3 nginx; do
    printf '[container] output of %s:\n' "$service" >&2
    podman logs "${deploy_project}_${service}_1" 2>&1 | tail -n 15 | sed 's/^/    /' >&2 || true
  done
  fail "$@"
}

# wait_for_status URL STATUS WHAT: polls URL until it answers STATUS (bounded: 90 s).
wait_for_status() {
  for _ in $(seq 1 180); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = "$2" ] && return
    sleep 0.5
  done
  deploy_fail "$3 did not answer $2 within 90 s"
}

# wait_for_version URL TABLE VERSION: polls until the table there is at VERSION (bounded: 60 s).
wait_for_version() {
  local version=""
  for _ in $(seq 1 120); do
    curl -s -o "$work/version.json" "$1/api/tables/$2" || true
    version=$(json_field "$work/version.json" 'doc["version"]')
    [ "$version" = "$3" ] && return
    sleep 0.5
  done
  deploy_fail "$1 did not reach version $3 of $2 within 60 s (it shows $version)"
}

# same_everywhere PATH URL...: the answers to PATH from every URL are byte-identical.
same_everywhere() {
  local path=$1 url first=""
  shift
  for url in "$@"; do
    [ "$(curl_status "$work/same.out" "$url$path")" = 200 ] || deploy_fail "GET $url$path did not answer 200"
    if [ -z "$first" ]; then
      first=$url
      cp "$work/same.out" "$work/same.first"
    else
      cmp -s "$work/same.first" "$work/same.out" || deploy_fail "GET $path differs between $first and $url"
    fi
  done
}

# edit_through_nginx: reloads the first row of countries with a new text through nginx;
# prints the new version.
edit_through_nginx() {
  local status
  status=$(curl_status "$work/edit.json" -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"id\":\"england\",\"text\":\"England $(date +%s%N)\"}" "$nginx_url/api/tables/countries/sections/0/rows/0")
  [ "$status" = 200 ] || deploy_fail "an edit through nginx answered $status: $(cat "$work/edit.json")"
  json_field "$work/edit.json" 'doc["version"]'
}

log "building the PostgreSQL and nginx images"
"$root/deploy/build-images.sh" "$tag" >"$work/images.log" 2>&1 \
  || { tail -n 40 "$work/images.log" >&2; fail "the deploy images did not build"; }
pass "PostgreSQL and nginx images built from Debian packages"

log "bringing up deploy/compose.yaml as $deploy_project"
deploy_compose up -d || { tail -n 40 "$deploy_log" >&2; deploy_fail "podman-compose up failed"; }
for url in "${replica_urls[@]}"; do
  wait_for_status "$url/readyz" 200 "replica $url (/readyz)"
done
wait_for_status "$nginx_url/healthz" 200 "nginx"
for service in nginx replica1 replica2 replica3; do
  for address in $(podman port "${deploy_project}_${service}_1" | sed 's/.*-> //'); do
    case "$address" in 127.0.0.1:*) ;; *) deploy_fail "$service is published on $address, not on 127.0.0.1" ;; esac
  done
done
pass "PostgreSQL, three ready replicas and nginx, published on 127.0.0.1 only"

version=$(edit_through_nginx)
for url in "${replica_urls[@]}"; do wait_for_version "$url" countries "$version"; done
same_everywhere /api/tables/countries "${replica_urls[@]}" "$nginx_url"
same_everywhere "/api/tables/countries/changes?since=0" "${replica_urls[@]}"
pass "an edit through nginx (version $version) reaches every replica; tables and change feeds are identical"

# An event stream through nginx, asked for compressed: it must come as it is, at once.
curl -sN -H 'Accept-Encoding: gzip' -D "$work/sse.headers" -o "$work/sse.out" \
  "$nginx_url/api/tables/countries/events?since=$version" &
sse_pid=$!
for _ in $(seq 1 60); do [ -s "$work/sse.headers" ] && break; sleep 0.5; done
next=$(edit_through_nginx)
for _ in $(seq 1 60); do grep -q "^id: $next\$" "$work/sse.out" && break; sleep 0.5; done
kill "$sse_pid" 2>/dev/null || true
wait "$sse_pid" 2>/dev/null || true
grep -qi '^content-type: text/event-stream' "$work/sse.headers" || deploy_fail "the stream through nginx is not text/event-stream: $(cat "$work/sse.headers")"
grep -qi '^content-encoding' "$work/sse.headers" && deploy_fail "nginx compressed the event stream: $(cat "$work/sse.headers")"
grep -q "^id: $next\$" "$work/sse.out" || deploy_fail "the event stream through nginx did not bring version $next: $(head -c 400 "$work/sse.out")"
pass "an event stream through nginx brings the next edit, uncompressed"

"$root/scripts/browser-deps.sh" >"$work/browser-deps.log" 2>&1 \
  || { tail -n 20 "$work/browser-deps.log" >&2; fail "Chromium and Selenium did not install"; }
log "a live page behind nginx while its replica is SIGKILLed"
python3 -B "$root/Tests/deploy/follow_after_kill.py" --nginx "$nginx_url" --token "$token" \
  --replica "${deploy_project}_replica1_1=${replica_urls[0]}" \
  --replica "${deploy_project}_replica2_1=${replica_urls[1]}" \
  --replica "${deploy_project}_replica3_1=${replica_urls[2]}" \
  --killed "$work/killed" >"$work/browser.log" 2>&1 \
  || { cat "$work/browser.log" >&2; deploy_fail "the live page did not follow after its replica was killed"; }
killed=$(cat "$work/killed")
pass "a live page behind nginx follows on after its replica ($killed) was SIGKILLed; edits went on"

latest=$(edit_through_nginx)
podman start "$killed" >/dev/null 2>>"$work/podman.log" || deploy_fail "podman start $killed failed"
for url in "${replica_urls[@]}"; do wait_for_version "$url" countries "$latest"; done
same_everywhere /api/tables/countries "${replica_urls[@]}"
same_everywhere "/api/tables/countries/changes?since=0" "${replica_urls[@]}"
pass "the killed replica, started again, caught up to version $latest with the others"
