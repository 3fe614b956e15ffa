// Contrast check of the built frontend (docs/app.md#contrast-check): serves
// frontend/dist on 127.0.0.1 with fake bindings (fake-bindings.js), opens
// each screen in Debian's headless Chromium, in the light and the dark
// theme, and runs axe-core's WCAG 2.1 A and AA rules, color-contrast
// among them (4.5:1, large text 3:1). Exits 1 listing each failing element
// (with its colours and ratio for contrast). Usage: node contrast/check.mjs [--shots DIR]  (from frontend/)
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, extname, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import puppeteer from "puppeteer-core";

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, "../dist");
const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"));
const fakeSource = readFileSync(join(here, "fake-bindings.js"));
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const shotsArg = process.argv.indexOf("--shots");
const shots = shotsArg > 0 ? process.argv[shotsArg + 1] : "";

if (!existsSync(join(dist, "index.html"))) {
  console.error(`contrast-check: ${dist}/index.html is missing: run \`npm run build\` in frontend/ first`);
  process.exit(2);
}

const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".png": "image/png", ".svg": "image/svg+xml", ".json": "application/json" };
const views = [];
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  // App view documents (fake-bindings.js ServeViewPage), as app/viewpages.go serves them.
  if (path === "/__view" && req.method === "POST") {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => { views.push(Buffer.concat(chunks)); res.writeHead(200, { "Content-Type": "text/plain" }).end(`/__view/${views.length - 1}`); });
    return;
  }
  const viewDoc = /^\/__view\/(\d+)$/.exec(path);
  if (viewDoc && views[+viewDoc[1]]) return res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(views[+viewDoc[1]]);
  if (path === "/__fake.js") return res.writeHead(200, { "Content-Type": "text/javascript" }).end(fakeSource);
  if (path === "/__axe.js") return res.writeHead(200, { "Content-Type": "text/javascript" }).end(axeSource);
  const file = resolve(dist, "." + (path === "/" ? "/index.html" : path));
  if (!file.startsWith(dist) || !existsSync(file)) return res.writeHead(404).end("not found");
  let body = readFileSync(file);
  if (file.endsWith("index.html")) {
    // Classic scripts in <head> run before the app's module script.
    body = Buffer.from(body.toString().replace("<head>", '<head><script src="/__fake.js"></script><script src="/__axe.js"></script>'));
  }
  res.writeHead(200, { "Content-Type": types[extname(file)] || "application/octet-stream" }).end(body);
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}`;

const profile = mkdtempSync(join(tmpdir(), "contrast-chromium-"));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir: profile,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", `--user-data-dir=${profile}`],
});

/** The screens checked: how to reach each from a fresh load. */
const screens = [
  { name: "coworkers", query: "", ready: ".card" },
  { name: "chat", query: "&chat=1", ready: ".chat .composer", setup: fillChat },
  { name: "chat-bypass", query: "&chat=1&bypass=1", ready: ".bypass-strip", setup: (p) => fillChat(p, "failed") },
  { name: "consent", query: "&chat=1&consent=1", ready: ".modal", setup: async (p) => { await fillChat(p); await new Promise((r) => setTimeout(r, 700)); } },
  { name: "elicit", query: "&chat=1&elicit=form", ready: ".modal.elicit", setup: fillChat },
  { name: "elicit-url", query: "&chat=1&elicit=url", ready: ".modal.elicit", setup: fillChat },
  // Settings: each section of its navigation list (components/settings/sections.ts).
  ...["model", "coworkers", "servers", "extensions", "permissions", "limits", "background", "notifications", "appearance", "diagnostics", "about"].map((id) => (
    { name: `settings-${id}`, query: "", ready: ".card", setup: (p) => clickSection(p, id) })),
  { name: "diagnostics-screen", query: "", ready: ".card", setup: async (p) => {
    await clickSection(p, "diagnostics", ".open-diagnostics"); await p.click(".open-diagnostics"); await new Promise((r) => setTimeout(r, 800)); } },
  { name: "diagnostics-report", query: "", ready: ".card", setup: async (p) => {
    await clickSection(p, "diagnostics", ".open-diagnostics"); await p.click(".open-diagnostics"); await new Promise((r) => setTimeout(r, 500));
    await clickButton(p, "Skip it"); await new Promise((r) => setTimeout(r, 800)); } },
  { name: "first-run", query: "", ready: ".card", setup: async (p) => {
    await clickSection(p, "model", ".run-setup"); await p.click(".run-setup"); await new Promise((r) => setTimeout(r, 800)); } },
  { name: "inbox", query: "", ready: ".card", setup: (p) => clickNav(p, "Inbox", ".inbox-item") },
  { name: "schedules", query: "", ready: ".card", setup: (p) => clickNav(p, "Schedules", ".schedule") },
  { name: "activity", query: "", ready: ".card", setup: async (p) => { await clickNav(p, "Activity", ".row-item"); await p.click(".row-item"); await p.waitForSelector(".detail .turn, .detail table"); } },
  { name: "settings-bypass", query: "", ready: ".card", setup: async (p) => {
    await clickSection(p, "permissions"); await p.select('select:has(option[value="bypass"])', "bypass"); await p.waitForSelector('[aria-label="Use Bypass?"]'); } },
  { name: "extension-install", query: "", ready: ".card", setup: async (p) => {
    await clickSection(p, "extensions", ".extensions table"); await clickButton(p, "Install extension"); await p.waitForSelector(".modal.ext-install .fields"); } },
  { name: "add-coworker", query: "", ready: ".card", setup: async (p) => { await clickButton(p, "Add coworker"); await p.waitForSelector(".modal.add-coworker"); } },
  { name: "new-coworker", query: "", ready: ".card", setup: async (p) => { await clickButton(p, "New coworker"); await p.waitForSelector(".modal.new-coworker .choice"); } },
  { name: "editor", query: "", ready: ".card", setup: async (p) => { await clickButton(p, "Edit"); await p.waitForSelector(".editor .tool-list"); } },
  { name: "give-tools", query: "", ready: ".card", setup: async (p) => {
    await clickSection(p, "servers", ".servers-in-use"); await clickButton(p, "Give tools to"); await p.waitForSelector(".modal.give .give-tools"); } },
  { name: "app-view", query: "&chat=1", ready: ".chat .composer", setup: async (p) => {
    await fillChat(p);
    await p.evaluate(() => {
      const e = (o) => window.__fake.emit("harness:event", { session_id: "s-chat", turn_id: "t1", ...o });
      e({ type: "tool.proposed", invocation_id: "i3", call_id: "c3", tool: "apps.counter_show", arguments: {} });
      e({ type: "tool.finished", invocation_id: "i3", status: "succeeded", text: "count 3", duration_ms: 5, ui_resource: { uri: "ui://counter/view.html", digest: "sha256:00", size: 180 } });
    });
    await p.waitForSelector(".appview .refusals li", { timeout: 15000 }); } },
  { name: "link-confirm", query: "&chat=1", ready: ".chat .composer", setup: async (p) => {
    await fillChat(p); await p.click(".msg.assistant a[href]"); await p.waitForSelector(".modal.link-confirm"); } },
];

async function clickButton(page, label) {
  await page.evaluate((l) => [...document.querySelectorAll("button")].find((b) => b.textContent.trim().startsWith(l))?.click(), label);
}

async function clickNav(page, label, ready) {
  await page.evaluate((l) => [...document.querySelectorAll("nav button")].find((b) => b.textContent.trim().startsWith(l))?.click(), label);
  await page.waitForSelector(ready);
}

/** clickSection opens Settings, then its section id; ready (default: the section shown) is waited for. */
async function clickSection(page, id, ready = `.settings-section[data-section="${id}"] h2`) {
  await clickNav(page, "Settings", 'nav[aria-label="Settings sections"]');
  await page.click(`nav[aria-label="Settings sections"] button[data-section="${id}"]`);
  await page.waitForSelector(ready);
  await new Promise((r) => setTimeout(r, 300)); // what the section loads (lists, the update status)
}

/** fillChat plays one turn into the open chat: prompt, tool calls, answer with code. */
async function fillChat(page, status = "completed") {
  await page.evaluate((status) => {
    const e = (o) => window.__fake.emit("harness:event", { session_id: "s-chat", turn_id: "t1", ...o });
    e({ type: "turn.started", text: "What is my battery level? Also save it to notes.txt." });
    e({ type: "tool.proposed", invocation_id: "i1", call_id: "c1", tool: "device.battery", arguments: {} });
    e({ type: "tool.finished", invocation_id: "i1", status: "succeeded", text: "{\"percent\": 82}", structured: { percent: 82 }, duration_ms: 14 });
    e({ type: "tool.proposed", invocation_id: "i2", call_id: "c2", tool: "files.write", arguments: { path: "/home/u/notes.txt" } });
    e({ type: "tool.finished", invocation_id: "i2", status: "failed", error: "permission denied: /home/u/notes.txt", duration_ms: 3 });
    e({ type: "warning", text: "The model asked for a tool this coworker does not have." });
    e({ type: "assistant.message", text: "Your battery is at **82%**. I could not write `notes.txt`; see [the docs](https://example.com/docs).\n\n```sh\nchmod u+w ~/notes.txt\n```\n\n> Tip: try again after that. It is \u202elive\u202c." });
    e({ type: "turn.finished", status, error: status === "failed" ? "the model server closed the connection" : "" });
  }, status);
  await page.waitForSelector(".msg.assistant .codeblock");
}

/** axe-core's WCAG 2.0 and 2.1 level A and AA rules; color-contrast among them. */
const rules = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const failures = [];
let checked = 0;
const started = Date.now();
for (const theme of ["light", "dark"]) {
  for (const s of screens) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1240, height: 1800 }); // tall: most of each page on screen for axe
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(`${base}/?theme=${theme}${s.query}`, { waitUntil: "load" });
    await page.waitForSelector(s.ready, { timeout: 10000 });
    if (s.setup) await s.setup(page);
    // Folded parts (tool cards, notes, the shortcut list) are checked open.
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
    const shown = await page.evaluate(() => document.documentElement.dataset.theme);
    if (shown !== theme) failures.push(`${s.name} (${theme}): <html data-theme="${shown}">, want "${theme}"`);
    if (errors.length) failures.push(`${s.name} (${theme}): page errors: ${errors.join("; ")}`);
    if (shots) {
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `contrast-${s.name}-${theme}.png`) });
    }
    // Colours are read once fade-ins are over (the caret's blink never ends).
    await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished)));
    const r = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }), rules);
    checked++;
    for (const v of r.violations) {
      for (const n of v.nodes) {
        const text = n.html.replace(/\s+/g, " ").slice(0, 90);
        if (v.id === "color-contrast") {
          const d = n.any[0]?.data ?? {};
          failures.push(`${s.name} (${theme}): ${n.target.join(" ")}: ${d.fgColor} on ${d.bgColor} = ${d.contrastRatio}:1, needs ${d.expectedContrastRatio} — ${text}`);
        } else {
          failures.push(`${s.name} (${theme}): ${v.id} (${v.help}): ${n.target.join(" ")} — ${text}`);
        }
      }
    }
    await page.close();
  }
}

// "system" follows the OS: an OS in dark mode gives the dark theme.
{
  const page = await browser.newPage();
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
  await page.goto(`${base}/?theme=system`, { waitUntil: "load" });
  await page.waitForSelector(".card");
  const shown = await page.evaluate(() => document.documentElement.dataset.theme);
  if (shown !== "dark") failures.push(`theme "system" with an OS in dark mode shows "${shown}", want "dark"`);
  await page.close();
}

await browser.close();
server.close();
rmSync(profile, { recursive: true, force: true });
const secs = ((Date.now() - started) / 1000).toFixed(1);
if (failures.length) {
  console.error(`contrast-check: ${failures.length} problem(s) in ${checked} screens (${secs} s):`);
  for (const f of failures) console.error("  " + f);
  process.exit(1);
}
console.log(`contrast-check: ${checked} screens (light and dark) pass axe-core's WCAG 2.1 AA rules, color-contrast among them (${secs} s)`);
