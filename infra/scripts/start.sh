#!/usr/bin/env bash
# Runs the api (serving the built web app) and one worker taking every queue; Ctrl-C stops both.
set -euo pipefail
PORT=${PORT:-8080}
PUBLIC_URL=${PUBLIC_URL:-http://localhost:$PORT}
export PORT PUBLIC_URL

pids=()
stop() { trap - INT TERM; echo; echo "stopping…"; kill "${pids[@]}" 2>/dev/null || true; wait "${pids[@]}" 2>/dev/null || true; exit 0; }
trap stop INT TERM

# node itself (not npx) so the signals below reach the processes that do the work.
node --import tsx api/src/main.ts & pids+=($!)
node --import tsx workers/src/main.ts & pids+=($!)

for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done
cat <<MSG

  CommandCenter is running at $PUBLIC_URL
  Demo sign-ins (password: commandcenter):
    admin           admin@commandcenter.local
    customer        alice@acme.example
    customerViewer  victor@acme.example
  API docs $PUBLIC_URL/docs · queues $PUBLIC_URL/ops/queues (admin) · mail $PUBLIC_URL/v1/ops/mail (admin)
  Ctrl-C stops the api and the worker.

MSG
wait -n "${pids[@]}"
stop
