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
  },
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
});
