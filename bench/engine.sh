#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/engine: slcscope's write engine against fio (see bench/engine.py, --help).
# Needs root for the loop device part (skipped with a message otherwise).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" "$here/engine.py" "$@"
