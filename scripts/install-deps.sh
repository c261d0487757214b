#!/bin/sh
# Installs the Debian packages the build and the tests need, only those that are missing; with arguments,
# those packages instead (scripts/test-systemd.sh names its own). Runs apt-get directly as root, through sudo
# otherwise.
set -eu

# iproute2 and openssl: the networked PostgreSQL test (namespaces, veth pairs, its own CA). libncurses-dev: ncursesw
# for `twctl tui`; tmux: the terminal its end-to-end tests drive. python3-venv: the Mastodon clients' environment.
# chromium: headless, the screenshots of the web pages (WebScreenshotTests, the Makefile's CHROMIUM).
packages=${*:-"libsodium-dev zlib1g-dev libsqlite3-dev libncurses-dev pkg-config socat jq systemd postgresql iproute2 openssl tmux python3-venv chromium"}

missing=""
for package in $packages; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
[ -z "$missing" ] && exit 0

echo "installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "missing packages:$missing; run as root or install sudo" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086 # the package list is meant to split into words
$sudo apt-get install -y -qq --no-install-recommends $missing
