#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer at DATABASE_URL / REDIS_URL.
# Local addresses: installs them from Debian (apt-get) when missing and starts them when stopped.
# Remote addresses: only checks they answer.
set -euo pipefail

source "$(dirname "$0")/env.sh"
DATABASE_URL=$(config_value DATABASE_URL postgres://postgres@127.0.0.1:5432/commandcenter)
REDIS_URL=$(config_value REDIS_URL redis://127.0.0.1:6379)

say() { printf '\033[1m[services]\033[0m %s\n' "$*"; }
is_local() { [[ "$1" == 127.0.0.1 || "$1" == localhost || "$1" == ::1 || "$1" == "[::1]" ]]; }
url_host() { node -e 'const u=new URL(process.argv[1]);console.log(u.hostname)' "$1"; }
url_port() { node -e 'const u=new URL(process.argv[1]);console.log(u.port||process.argv[2])' "$1" "$2"; }
apt_updated=
apt_install() {
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  [ -n "$apt_updated" ] || { say "apt-get update"; $SUDO apt-get update -qq; apt_updated=1; }
  say "installing $*"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

pg_host=$(url_host "$DATABASE_URL"); pg_port=$(url_port "$DATABASE_URL" 5432)
pg_ready() { node -e '
  const net=require("net");const s=net.connect(+process.argv[2],process.argv[1]);
  s.on("connect",()=>{s.end();process.exit(0)});s.on("error",()=>process.exit(1));setTimeout(()=>process.exit(1),2000)' "$pg_host" "$pg_port"; }

if pg_ready; then
  say "PostgreSQL answers on $pg_host:$pg_port"
elif is_local "$pg_host"; then
  installed_now=
  if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then apt_install postgresql; installed_now=1; fi
  version=$(ls /etc/postgresql | sort -V | tail -n1)
  if [ -n "$installed_now" ]; then
    # A fresh Debian cluster wants passwords over TCP; a laptop's dev database is trusted on loopback only.
    hba=/etc/postgresql/$version/main/pg_hba.conf
    sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
  fi
  say "starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
  pg_ready || { say "PostgreSQL did not start (see /var/log/postgresql)"; exit 1; }
else
  say "PostgreSQL at $pg_host:$pg_port does not answer (DATABASE_URL)"; exit 1
fi

redis_host=$(url_host "$REDIS_URL"); redis_port=$(url_port "$REDIS_URL" 6379)
redis_ready() { node -e '
  const net=require("net");const s=net.connect(+process.argv[2],process.argv[1]);let b="";
  s.on("connect",()=>s.write("PING\r\n"));s.on("data",d=>{b+=d;if(b.includes("\n")){s.end();process.exit(/PONG|NOAUTH/.test(b)?0:1)}});
  s.on("error",()=>process.exit(1));setTimeout(()=>process.exit(1),2000)' "$redis_host" "$redis_port"; }

if redis_ready; then
  say "Redis answers on $redis_host:$redis_port"
elif is_local "$redis_host"; then
  command -v redis-server >/dev/null || apt_install redis-server
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  say "starting Redis"
  # noeviction: BullMQ must never lose a job key to memory pressure. appendonly (fsync every second): a restart
  # keeps the queued jobs; what the last second lost, the outbox in PostgreSQL re-queues (docs/operations.md).
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$redis_port" --save "" --appendonly yes --appendfsync everysec \
    --maxmemory-policy noeviction --dir /var/lib/redis --logfile /var/log/redis/commandcenter.log
  for _ in $(seq 1 20); do redis_ready && break; sleep 0.5; done
  redis_ready || { say "Redis did not start"; exit 1; }
else
  say "Redis at $redis_host:$redis_port does not answer (REDIS_URL)"; exit 1
fi
