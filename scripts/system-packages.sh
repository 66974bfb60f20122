#!/usr/bin/env bash
# Installs the Debian packages the test suite and the client lint need, only when they are missing.
# nginx is only run by the tests and `make cluster` from their own temporary prefix; on a machine
# where the package starts its own service, that one is left as the package set it up.
set -euo pipefail
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v msgfmt >/dev/null || missing+=(gettext)
command -v node >/dev/null || missing+=(nodejs)  # ESLint for the client (make lint)
command -v npm >/dev/null || missing+=(npm)
# Not `fc-list | grep -q`: grep stops at the first match, fc-list dies of SIGPIPE, and pipefail
# then calls the installed font missing (apt ran on every make test).
[ -n "$(fc-list "Noto Sans Bengali" 2>/dev/null)" ] || missing+=(fonts-noto-core)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || missing+=(nginx)  # the front of `make cluster` (deploy/)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "installing Debian packages: ${missing[*]}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
