#!/bin/sh
# Installs into a scratch DESTDIR, checks every file landed, uninstalls, and checks nothing is left.
set -eu
destination=$(mktemp -d)
trap 'rm -rf "$destination"' EXIT
make install DESTDIR="$destination" PREFIX=/usr/local >/dev/null
expected="
usr/local/bin/twitterd
usr/local/bin/twctl
usr/local/lib/systemd/system/twitterd.service
usr/local/lib/systemd/system/twitterd.socket
usr/local/lib/systemd/system/twitterd-http.socket
usr/local/lib/systemd/system/twitterd-backup.service
usr/local/lib/systemd/system/twitterd-backup.timer
usr/local/lib/sysusers.d/twitterd.conf
usr/local/lib/tmpfiles.d/twitterd.conf
usr/local/share/man/man1/twctl.1
usr/local/share/man/man1/twitterd.1
usr/local/share/bash-completion/completions/twctl
usr/local/share/zsh/site-functions/_twctl
usr/local/share/fish/vendor_completions.d/twctl.fish
usr/local/share/doc/twitterd/OPERATIONS.md
"
missing=0
for file in $expected; do
    if [ ! -s "$destination/$file" ]; then
        echo "install: missing $file"
        missing=1
    fi
done
"$destination/usr/local/bin/twctl" --version >/dev/null
grep -q "ExecStart=/usr/local/bin/twitterd" "$destination/usr/local/lib/systemd/system/twitterd.service"
grep -q "ExecStart=/usr/local/bin/twitterd backup " "$destination/usr/local/lib/systemd/system/twitterd-backup.service"
make uninstall DESTDIR="$destination" PREFIX=/usr/local >/dev/null
left=$(find "$destination" -type f | wc -l)
if [ "$left" -ne 0 ]; then
    echo "uninstall: $left files left behind"
    find "$destination" -type f
    missing=1
fi
if [ "$missing" -eq 0 ]; then echo "1 passed, 0 failed: install and uninstall"; else echo "0 passed, 1 failed: install and uninstall"; fi
exit "$missing"
