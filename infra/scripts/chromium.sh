#!/usr/bin/env bash
# The E2E suite drives Debian's Chromium (browser downloads are not possible here).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
echo "[e2e] installing chromium from Debian"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
