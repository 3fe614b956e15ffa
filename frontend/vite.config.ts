/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";

// Vite empties dist/ on every build; the Go embed (assets.go) needs the
// directory to exist in a fresh clone, so a placeholder is kept in git and
// written back after each build.
function keepPlaceholder(): Plugin {
  return {
    name: "keep-dist-placeholder",
    closeBundle() {
      writeFileSync(resolve(import.meta.dirname, "dist/.gitkeep"), "");
    },
  };
}

export default defineConfig({
  plugins: [svelte(), keepPlaceholder()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts"],
    css: { include: [/app\.css/] }, // Notices.test.ts reads the shipped stylesheet (?raw)
    // Explicit and generous: CI shares 2 cores with other work, and at load
    // 30 the 5 s defaults failed tests that were right. Waits inside tests
    // go through src/testing/eventually.ts (docs/ci.md#busy-machine).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
  },
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
});
