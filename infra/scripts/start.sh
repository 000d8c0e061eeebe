#!/usr/bin/env bash
# Runs the api (serving the built web app), one worker taking every queue and, with MAIL=local, the local mail
# server as a process of its own (every worker on the machine sends to it); Ctrl-C stops them all.
set -euo pipefail
source "$(dirname "$0")/env.sh"
# Environment over .env, like the apps; PUBLIC_URL follows a changed PORT unless it is set itself.
PORT=$(config_value PORT 8080)
PUBLIC_URL=$(config_value PUBLIC_URL "http://localhost:$PORT")
HOST=$(config_value HOST 127.0.0.1)
MAIL=$(config_value MAIL local)
LOCAL_SMTP_PORT=$(config_value LOCAL_SMTP_PORT 2525)
export PORT PUBLIC_URL

pids=()
stop() { trap - INT TERM; echo; echo "stopping…"; kill "${pids[@]}" 2>/dev/null || true; wait "${pids[@]}" 2>/dev/null || true; exit 0; }
trap stop INT TERM

# A small supervisor: a process that dies (crash, kill -9, out of memory) is started again after 2 s, like the
# production unit's Restart=always (infra/systemd/). Exit 0 (our own Ctrl-C) and 78 (configuration error) end it.
supervise() {
  local name=$1; shift
  (
    set +e
    child=
    trap '[ -n "$child" ] && kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' INT TERM
    while true; do
      "$@" & child=$!
      wait "$child"; rc=$?
      { [ "$rc" = 0 ] || [ "$rc" = 78 ]; } && exit "$rc"
      echo "[start] $name exited with $rc; starting it again in 2 s" >&2
      sleep 2
    done
  ) & pids+=($!)
}

# node itself (not npx) so the signals below reach the processes that do the work.
# The mail server first, once: workers find it on LOCAL_SMTP_PORT and send there, so more workers can be started.
if [[ $MAIL == local && $LOCAL_SMTP_PORT != 0 ]]; then
  supervise mail node --import tsx workers/src/mail/main.ts
  for _ in $(seq 1 40); do
    (exec 3<>"/dev/tcp/127.0.0.1/$LOCAL_SMTP_PORT") 2>/dev/null && break
    sleep 0.25
  done
fi
supervise api node --import tsx api/src/main.ts
# The heap cap keeps the worker under 512 MB RSS whatever file it ingests (infra/scripts/node-flags.ts).
supervise worker node --max-old-space-size=384 --import tsx workers/src/main.ts

probe=$HOST; [[ $HOST == 0.0.0.0 || $HOST == :: ]] && probe=127.0.0.1
[[ $probe == *:* ]] && probe="[$probe]"
for _ in $(seq 1 60); do
  curl -fsS "http://$probe:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done
cat <<MSG

  CommandCenter is running at $PUBLIC_URL (listening on $HOST:$PORT; HOST=0.0.0.0 publishes it)
  Demo sign-ins (password: commandcenter):
    admin           admin@commandcenter.local  every customer, management screens, queues, mail inbox
    customer        alice@acme.example         Acme Corp (every feature on) and Globex Corporation
    customerViewer  victor@acme.example        Acme Corp, read-only, projects labelled team=analytics
    customer        bob@initech.example        Initech, a customer without a billing account
    customer        pending@acme.example       e-mail not verified: sign-in answers 'Please check your email to activate this account'
  API docs $PUBLIC_URL/docs · queues $PUBLIC_URL/ops/queues (admin) · mail $PUBLIC_URL/v1/ops/mail (admin)
  Request logs: LOG_LEVEL=debug make start. Ctrl-C stops the api, the worker and the mail server; each is restarted if it dies.
  More workers: npm run start:worker in another shell (they share the local mail server).

MSG
wait -n "${pids[@]}"
stop
