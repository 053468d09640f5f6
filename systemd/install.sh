#!/usr/bin/env bash
# Installs Flash Table on Raspberry Pi OS (Bookworm or later) from this checkout, as root:
#   systemd/install.sh              install, enable and start; run again, it changes nothing
#   systemd/install.sh --upgrade    install this checkout as the new version and restart;
#                                   back to the old one if the new fails check-config or
#                                   does not report READY
#   systemd/install.sh --uninstall  remove all of it but the config and the table's state
# docs/deploy.md walks through it; systemd/README.md lists what it puts where. Each version
# lives in a virtual environment of its own under /opt/flashtable/releases;
# /opt/flashtable/current points at the one in use.
#
# The environment can move it elsewhere (the tests install into a temporary directory):
#   FLASHTABLE_ROOT  prefix of every path it writes (default: none, the real system)
#   FLASHTABLE_FROM  what to install: a checkout or a wheel (default: this checkout)
#   PYTHON, APT_GET, SYSTEMCTL  the commands it runs (default: python3, apt-get, systemctl)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${FLASHTABLE_ROOT:-}
ROOT=${ROOT%/}
FROM=${FLASHTABLE_FROM:-$(dirname "$HERE")}
PYTHON=${PYTHON:-python3}
APT_GET=${APT_GET:-apt-get}
SYSTEMCTL=${SYSTEMCTL:-systemctl}

NAME=flashtable
# The groups owning /dev/gpiochip* and /dev/i2c-* on Raspberry Pi OS, and the serial ports
# (a Pico's /dev/ttyACM*, a USB adapter's /dev/ttyUSB*, the Pi's UART) for a serial launcher.
GROUPS_USED=(gpio i2c dialout)
OPT=$ROOT/opt/$NAME
RELEASES=$OPT/releases
ETC=$ROOT/etc/$NAME
CONFIG=$ETC/$NAME.toml
STATE=$ROOT/var/lib/$NAME
UNIT=$ROOT/etc/systemd/system/$NAME.service
COMMAND_LINK=$ROOT/usr/local/bin/$NAME
MODULES=$ROOT/etc/modules-load.d/$NAME.conf
CREATED_GROUPS=$OPT/created-groups
I2C_LINE=dtparam=i2c_arm=on
I2C_MARK="# The Flash Table's LCD is on the I2C bus (added by its installer)"

say() { echo "install.sh: $*"; }
fail() {
    echo "install.sh: $*" >&2
    exit 1
}
usage() {
    echo "usage: install.sh [--upgrade | --uninstall]" >&2
    exit 2
}

# The shadow tools edit $ROOT/etc/passwd and /etc/group when a root is given.
account_tool() {
    local tool=$1
    shift
    if [ -n "$ROOT" ]; then
        "$tool" --prefix "$ROOT" "$@"
    else
        "$tool" "$@"
    fi
}
in_file() { [ -e "$2" ] && grep -q "^$1:" "$2"; }

# Every file it writes is written durably: to a name of its own beside the file, flushed to
# the disk, renamed over the old one, and its directory flushed to keep the rename. A power
# cut at any moment leaves the old file or the new one, never a part of either (a unit file
# cut to 0 bytes is a masked unit to systemd, and the table would stay dark).
put_file() { # SOURCE DEST [install's options]
    local source=$1 dest=$2
    shift 2
    install "$@" "$source" "$dest.new"
    sync "$dest.new"
    mv -T "$dest.new" "$dest"
    sync "$(dirname "$dest")"
}
put_text() { # DEST TEXT
    printf '%s\n' "$2" >"$1.new"
    sync "$1.new"
    mv -T "$1.new" "$1"
    sync "$(dirname "$1")"
}
put_link() { # TARGET LINK
    ln -sfn "$1" "$2.new"
    mv -T "$2.new" "$2"
    sync "$(dirname "$2")"
}
user_ids() { awk -F: -v name="$NAME" '$1 == name { print $3 ":" $4 }' "$ROOT/etc/passwd"; }

ensure_packages() {
    local packages=(python3-venv python3-pip i2c-tools)
    # The pins' backend, libgpiod's bindings (gpiod), comes from PyPI as a wheel with libgpiod
    # in it for 64-bit Arm and x86; elsewhere (a 32-bit Raspberry Pi OS, armhf) pip builds it
    # with these. The system's architecture, not the kernel's: 32-bit Raspberry Pi OS boots a
    # 64-bit kernel on a Pi 4 or 5, and `uname -m` says aarch64 there.
    case $(dpkg --print-architecture) in amd64 | arm64) ;; *) packages+=(python3-dev gcc) ;; esac
    "$APT_GET" update -qq || fail "apt-get update failed; is the network up?"
    DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y -qq "${packages[@]}" >/dev/null ||
        fail "apt-get could not install ${packages[*]}"
}

boot_config() {
    local file
    for file in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        [ -e "$file" ] && echo "$file" && return
    done
    return 0
}

ensure_i2c() {
    local config
    config=$(boot_config)
    if [ -z "$config" ]; then
        say "no Raspberry Pi boot config here: I2C left as it is"
    elif ! grep -qx "$I2C_LINE" "$config"; then
        # Appended in place, so the file keeps its owner and mode (a FAT partition has none).
        printf '%s\n%s\n' "$I2C_MARK" "$I2C_LINE" >>"$config"
        sync "$config"
        say "I2C enabled in $config (takes effect at the next boot)"
    fi
    mkdir -p "$(dirname "$MODULES")"
    put_text "$MODULES" i2c-dev
}

ensure_account() {
    local group
    mkdir -p "$OPT"
    for group in "${GROUPS_USED[@]}"; do
        if ! in_file "$group" "$ROOT/etc/group"; then
            account_tool groupadd --system "$group"
            echo "$group" >>"$CREATED_GROUPS"
        fi
    done
    if ! in_file "$NAME" "$ROOT/etc/passwd"; then
        account_tool useradd --system --user-group --no-create-home \
            --home-dir "/var/lib/$NAME" --shell /usr/sbin/nologin \
            --comment "Flash Table daemon" "$NAME"
        say "created the system user $NAME"
    fi
}

ensure_files() {
    local ids
    ids=$(user_ids)
    install -d -o root -g "${ids#*:}" -m 0750 "$ETC"
    if [ ! -s "$CONFIG" ]; then
        # Missing, or empty (all the same to the daemon: the defaults), as a power cut
        # during an older installer's write left it.
        put_file "$HERE/$NAME.toml" "$CONFIG" -o root -g "${ids#*:}" -m 0640
        say "wrote $CONFIG: the defaults, every key explained in a comment"
    else
        chgrp "${ids#*:}" "$CONFIG" && chmod g+r "$CONFIG"
    fi
    install -d -o "${ids%:*}" -g "${ids#*:}" -m 0750 "$STATE"
    # A user made anew (after --uninstall) may have another id than the files it keeps.
    chown -R "$ids" "$STATE"
}

version_of() { "$1/bin/$NAME" --version 2>/dev/null | awk '{ print $2 }'; }

# A new release: a virtual environment with the software in it, checked against the
# config as the service's user. Prints its directory.
new_release() {
    local number=1 release ids
    while [ -e "$RELEASES/$number" ]; do number=$((number + 1)); done
    release=$RELEASES/$number
    mkdir -p "$RELEASES"
    # The system's pip fills it: a release is never changed after, so it needs none inside.
    "$PYTHON" -m venv --without-pip "$release" >&2 ||
        fail "$PYTHON cannot make a virtual environment"
    if ! "$PYTHON" -m pip --python "$release/bin/python" install --quiet \
        --disable-pip-version-check "$FROM" >&2; then
        rm -rf "$release"
        fail "pip could not install $FROM"
    fi
    install -m 0644 "$HERE/$NAME.service" "$release/$NAME.service"
    # All of it on the disk before anything points at it.
    sync -f "$release"
    ids=$(user_ids)
    if ! setpriv --reuid="${ids%:*}" --regid="${ids#*:}" --clear-groups \
        "$release/bin/$NAME" check-config --config "$CONFIG" >/dev/null; then
        rm -rf "$release"
        fail "the new version rejects $CONFIG (the line above says why); nothing changed"
    fi
    echo "$release"
}

# Point current (and the unit and the command) at a release, atomically and durably.
switch_to() {
    put_link "releases/$(basename "$1")" "$OPT/current"
    mkdir -p "$(dirname "$UNIT")" "$(dirname "$COMMAND_LINK")"
    put_file "$1/$NAME.service" "$UNIT" -m 0644
    put_link "$OPT/current/bin/$NAME" "$COMMAND_LINK"
    if systemd_running; then "$SYSTEMCTL" daemon-reload; fi
}

# An install that a power cut (or a hand) damaged: the unit or the command not as the
# release in use has them. Put back as an install puts them; true if anything was.
repair() {
    local fixed=1
    if ! cmp -s "$OPT/current/$NAME.service" "$UNIT"; then
        mkdir -p "$(dirname "$UNIT")"
        put_file "$OPT/current/$NAME.service" "$UNIT" -m 0644
        say "repaired $UNIT (it was not the installed version's; empty, systemd had it masked)"
        fixed=0
    fi
    if [ "$(readlink "$COMMAND_LINK")" != "$OPT/current/bin/$NAME" ]; then
        mkdir -p "$(dirname "$COMMAND_LINK")"
        put_link "$OPT/current/bin/$NAME" "$COMMAND_LINK"
        say "repaired $COMMAND_LINK"
        fixed=0
    fi
    if [ "$fixed" = 0 ] && systemd_running; then "$SYSTEMCTL" daemon-reload; fi
    return "$fixed"
}

systemd_running() { [ "$("$SYSTEMCTL" is-system-running 2>/dev/null || true)" != offline ]; }

# With Type=notify, start and restart return once the daemon has reported READY.
reaches_ready() {
    "$SYSTEMCTL" "$1" "$NAME" && "$SYSTEMCTL" is-active --quiet "$NAME"
}

install_table() {
    local release
    ensure_packages
    ensure_i2c
    ensure_account
    ensure_files
    if [ -n "$(version_of "$OPT/current")" ]; then
        say "flashtable $(version_of "$OPT/current") is installed already (--upgrade puts this one in)"
        repair || true
    else
        if [ -e "$OPT/current" ]; then
            say "the installed version does not run (cut off while installed?): installing anew"
        fi
        release=$(new_release) || exit 1
        switch_to "$release"
        say "installed flashtable $(version_of "$OPT/current") in $OPT"
    fi
    "$SYSTEMCTL" enable --quiet "$NAME"
    if ! systemd_running; then
        say "systemd is not running here: the table starts at the next boot"
    elif reaches_ready start; then
        say "the table is running: journalctl -u $NAME -f shows its log"
    else
        fail "the table did not start: journalctl -u $NAME says why"
    fi
}

upgrade_table() {
    local old new release
    [ -e "$OPT/current" ] || fail "not installed yet: run install.sh without --upgrade"
    ensure_packages
    ensure_i2c
    ensure_account
    ensure_files
    old=$(cd "$OPT/current" && pwd -P)
    new=$(new_release) || exit 1
    switch_to "$new"
    if ! systemd_running; then
        say "systemd is not running here: flashtable $(version_of "$new") starts at the next boot"
    elif ! reaches_ready restart; then
        switch_to "$old"
        rm -rf "$new"
        reaches_ready restart || fail "rolled back, but the old version did not start either"
        fail "the new version did not reach READY; rolled back to flashtable $(version_of "$old")"
    fi
    ln -sfn "releases/$(basename "$old")" "$OPT/previous"
    # Keep the one before for going back by hand (systemd/README.md); drop the older ones.
    for release in "$RELEASES"/*; do
        case $release in "$new" | "$old") ;; *) rm -rf "$release" ;; esac
    done
    if [ "$(version_of "$old")" = "$(version_of "$new")" ]; then
        say "reinstalled flashtable $(version_of "$new") (the same version); settings and state kept"
    else
        say "upgraded flashtable $(version_of "$old") to $(version_of "$new"); settings and state kept"
    fi
}

uninstall_table() {
    local config group kept
    if [ -e "$UNIT" ]; then
        if systemd_running; then
            "$SYSTEMCTL" disable --now --quiet "$NAME"
        else
            "$SYSTEMCTL" disable --quiet "$NAME"
        fi
        rm -f "$UNIT"
        if systemd_running; then "$SYSTEMCTL" daemon-reload; fi
    fi
    rm -f "$COMMAND_LINK" "$MODULES"
    config=$(boot_config)
    if [ -n "$config" ] && grep -qxF "$I2C_MARK" "$config"; then
        # Only the two lines it added; written back in place, so the file keeps its owner.
        awk -v mark="$I2C_MARK" -v line="$I2C_LINE" \
            'added && $0 == line { added = 0; next } { added = 0 }
             $0 == mark { added = 1; next } { print }' "$config" >"$config.new"
        cat "$config.new" >"$config" && sync "$config" && rm "$config.new"
    fi
    if in_file "$NAME" "$ROOT/etc/passwd"; then
        account_tool userdel "$NAME"
    fi
    # userdel takes the user's own group with it only where login.defs says USERGROUPS_ENAB.
    if in_file "$NAME" "$ROOT/etc/group"; then
        account_tool groupdel "$NAME"
    fi
    if [ -e "$CREATED_GROUPS" ]; then
        while read -r group; do
            in_file "$group" "$ROOT/etc/group" && account_tool groupdel "$group"
        done <"$CREATED_GROUPS"
    fi
    rm -rf "$OPT"
    kept="the config in $ETC and the table's state in $STATE"
    if [ -d "$UNIT.d" ]; then
        # The operator's own (systemctl edit, the broker's address): kept as the config is,
        # and named, since nothing else will ever read them.
        kept="the config in $ETC, the table's state in $STATE and your drop-ins in $UNIT.d"
    fi
    say "removed Flash Table; kept $kept (delete them to forget this table)"
}

case ${1:-} in
    "") action=install_table ;;
    --upgrade) action=upgrade_table ;;
    --uninstall) action=uninstall_table ;;
    *) usage ;;
esac
[ $# -le 1 ] || usage
[ "$(id -u)" = 0 ] || fail "run it as root: sudo $0 $*"
"$action"
