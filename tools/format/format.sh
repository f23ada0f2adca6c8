#!/usr/bin/env bash
# Formats every C++ file of the tree in place with the root .clang-format.
set -euo pipefail
cd "$(dirname "$0")/../.."
git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' | xargs -r clang-format -i --style=file
