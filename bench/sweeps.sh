#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/sweeps: the sweep plans with slcscope and with fio on one loop device (see bench/sweeps.py, --help).
# Needs root (a loop device over a private tmpfs).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" "$here/sweeps.py" "$@"
