#!/bin/sh
# Installs what the redunit build needs beyond Rust: Verilator (the RTL cosimulation in
# testbench/build.rs), Yosys (synthesis), a C++ compiler and make. Idempotent: packages that
# are already installed are left alone. Debian 12 / Ubuntu; run as root (or with sudo).
set -eu

need=""
command -v verilator >/dev/null 2>&1 || need="$need verilator"
command -v yosys >/dev/null 2>&1 || need="$need yosys"
command -v g++ >/dev/null 2>&1 || need="$need g++"
command -v make >/dev/null 2>&1 || need="$need make"

if [ -z "$need" ]; then
    echo "setup: verilator, yosys, g++ and make are installed: nothing to do"
else
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO=sudo
        else
            echo "setup: missing:$need; run this script as root to install them" >&2
            exit 1
        fi
    else
        SUDO=""
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "setup: missing:$need, and apt-get is not available: install them with your package manager" >&2
        exit 1
    fi
    echo "setup: installing$need"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y $need
fi

verilator --version
yosys -V
