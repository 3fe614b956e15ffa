#!/bin/sh
# Installs the pinned third-party MCP servers the harness tests run, the
# official MCPB packer (@anthropic-ai/mcpb) the extension tests pack with and
# the MCP Apps SDK (@modelcontextprotocol/ext-apps: its bundled App client,
# dist/src/app-with-deps.js, goes into the pages of
# harness/mcp/mcptest/cmd/appserver -extapps DIR), as package.json and
# package-lock.json beside this script pin them, into ./node_modules.
# Usage: sh harness/mcp/testdata/npm/install.sh
set -eu
cd "$(dirname "$0")"
if [ -f package-lock.json ]; then
	npm ci --no-audit --no-fund --ignore-scripts
else
	npm install --no-audit --no-fund --ignore-scripts
fi
