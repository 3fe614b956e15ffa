#!/bin/sh
# Installs the pinned third-party MCP servers the harness tests run and the
# official MCPB packer (@anthropic-ai/mcpb) the extension tests pack with
# (package.json + package-lock.json beside this script) into ./node_modules.
# Usage: sh harness/mcp/testdata/npm/install.sh
set -eu
cd "$(dirname "$0")"
if [ -f package-lock.json ]; then
	npm ci --no-audit --no-fund --ignore-scripts
else
	npm install --no-audit --no-fund --ignore-scripts
fi
