#!/usr/bin/env bash
# Follows docs/deploy.md step by step in a clean Debian made with debootstrap, and stops
# where a chroot must: after `flashtable check-config` as the service's user and
# `systemd-analyze verify` of the installed unit (a chroot runs no systemd to start it).
# Too slow for the test suite (a few minutes, and it downloads from Debian and PyPI);
# run it as root on a Debian or Ubuntu machine after changing the installer or the guide:
#
#   sudo systemd/check-deploy.sh [DIR]    DIR: where to build the chroot (default: a new
#                                         directory in /var/tmp, removed at the end)
#
# Environment: SUITE (default bookworm), MIRROR (default http://deb.debian.org/debian).
# Where Raspberry Pi OS Lite differs from a bare Debian, the chroot gets what the Pi has:
# systemd, sudo, procps (the unit's reload runs kill) and certificates in the base system,
# a user `pi` in the sudo group. The host's trusted certificates are handed in, so pip also
# works behind a TLS proxy.
set -euo pipefail

SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
CHECKOUT=$(cd "$(dirname "$0")/.." && pwd)

[ "$(id -u)" = 0 ] || {
    echo "check-deploy.sh: run it as root" >&2
    exit 1
}
command -v debootstrap >/dev/null || {
    echo "check-deploy.sh: needs debootstrap (apt-get install debootstrap)" >&2
    exit 1
}
if [ $# -gt 1 ]; then
    echo "usage: check-deploy.sh [DIR]" >&2
    exit 2
fi
TARGET=${1:-$(mktemp -d /var/tmp/flashtable-deploy.XXXXXX)}
KEEP=${1:+yes}
chmod 755 "$TARGET" # it becomes the root directory: every user of the chroot must enter it

step() { printf '\n=== %s\n' "$*"; }
cleanup() {
    for mount in dev/pts dev proc sys; do
        mountpoint -q "$TARGET/$mount" && umount -l "$TARGET/$mount"
    done
    [ -n "$KEEP" ] || rm -rf "$TARGET"
}
trap cleanup EXIT

step "A fresh system: Debian $SUITE in $TARGET"
debootstrap --variant=minbase --include=systemd,sudo,ca-certificates,procps \
    "$SUITE" "$TARGET" "$MIRROR" >/dev/null
for mount in proc sys dev dev/pts; do
    mount --bind "/$mount" "$TARGET/$mount"
done
cp /etc/resolv.conf "$TARGET/etc/resolv.conf"
echo "127.0.1.1 $(hostname)" >>"$TARGET/etc/hosts"
cp /etc/ssl/certs/ca-certificates.crt "$TARGET/usr/local/share/ca-certificates/host.crt"
chroot "$TARGET" update-ca-certificates >/dev/null
chroot "$TARGET" useradd --create-home --groups sudo --shell /bin/bash pi
echo "pi ALL=(ALL) NOPASSWD: ALL" >"$TARGET/etc/sudoers.d/pi"

# "Copy a checkout": the repository as it is committed, as git would clone it.
BRANCH=$(git -C "$CHECKOUT" rev-parse --abbrev-ref HEAD)
git -C "$CHECKOUT" bundle create "$TARGET/home/pi/flashtable.bundle" "$BRANCH" 2>/dev/null
chown 1000:1000 "$TARGET/home/pi/flashtable.bundle"

as_pi() {
    printf '$ %s\n' "$*"
    chroot "$TARGET" su - pi -c "set -euo pipefail; $*"
}

step "docs/deploy.md, 2. Update the system"
as_pi "sudo apt-get update -q >/dev/null && sudo apt-get full-upgrade -y -q >/dev/null"

step "docs/deploy.md, 3. Get the software onto the Pi"
as_pi "sudo apt-get install -y -q git >/dev/null"
as_pi "git clone --quiet --branch $BRANCH ~/flashtable.bundle ~/flashtable"
as_pi "git -C ~/flashtable log --oneline -1"

step "docs/deploy.md, 4. Install"
as_pi "cd ~/flashtable && sudo systemd/install.sh"

step "docs/deploy.md, 5. Configure and check"
as_pi "sudo -u flashtable flashtable check-config"
as_pi "sudo systemd-analyze verify /etc/systemd/system/flashtable.service && echo verified"
as_pi "systemctl is-enabled flashtable"
as_pi "sudo ls -ld /etc/flashtable /etc/flashtable/flashtable.toml /var/lib/flashtable"

step "docs/deploy.md, 8. Settings from the shell"
as_pi "sudo flashtable settings set turn_timer=8 | head -3"
as_pi "sudo ls -l /var/lib/flashtable/settings.json"

step "docs/deploy.md, 9. Upgrade (a chroot cannot start it, so no READY to wait for)"
as_pi "cd ~/flashtable && sudo systemd/install.sh --upgrade"

step "docs/deploy.md, 10. Uninstall"
as_pi "cd ~/flashtable && sudo systemd/install.sh --uninstall"
as_pi "sudo ls -A /opt /etc/flashtable /var/lib/flashtable; id flashtable || true"

step "ok: docs/deploy.md works as written on Debian $SUITE"
