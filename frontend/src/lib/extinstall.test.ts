import { describe, expect, it } from "vitest";
import { canInstall, fieldError, formErrors, initialValues, installedMessage, runtimeText, sandboxStart, sandboxText, signatureText, toValues } from "./extinstall";
import type { ExtensionField, ExtensionPreview } from "./types";

const field = (f: Partial<ExtensionField>): ExtensionField => ({
  key: "k", type: "string", title: "", description: "", required: false, default: null, multiple: false, sensitive: false, min: null, max: null, kept: false, ...f,
});

export const memoryPreview = (fields: ExtensionField[]): ExtensionPreview => ({
  path: "/d/memory.mcpb", display_name: "Memory (test)", name: "memory", version: "1.0.0", author: { name: "OpenWorker tests", email: "", url: "" },
  description: "A memory.", homepage: "", tools: [{ name: "read_graph", description: "Read the graph" }], tools_generated: false, prompts: [], prompts_generated: false,
  server_type: "node", runs: "node ${__dirname}/server/index.js", environment: "", runtime: { name: "node", title: "Node.js", range: ">=18.0.0", url: "https://nodejs.org/", found: "v20.11.0", fits: true }, platforms: ["linux"],
  signature: { status: "unsigned", subject: "", problem: "" }, privacy_policies: [], namespace: "memory", installed: "", blocking: [], warnings: [],
  files: 2, bytes: 300, fields, digest: "ab".repeat(32),
  sandbox: { words: "reads system files and its own folder, writes only in the workspace, its temp folder and the folders of its settings, no network", note: "It may fail inside it.", on: false, unsupported: "" },
});

describe("extension form", () => {
  const fields = [
    field({ key: "dir", type: "directory", title: "Data folder", required: true }),
    field({ key: "token", sensitive: true, required: true }),
    field({ key: "n", type: "number", min: 1, max: 10, default: 3 }),
    field({ key: "on", type: "boolean", default: true }),
    field({ key: "paths", type: "file", multiple: true, default: ["/home/a/x.txt"] }),
    field({ key: "tags", multiple: true }),
  ];
  const p = memoryPreview(fields);

  it("starts from the defaults", () => {
    expect(initialValues(p)).toEqual({ dir: "", token: "", n: "3", on: true, paths: ["/home/a/x.txt"], tags: [""] });
  });

  it("says what is missing or out of range, and Install waits for it", () => {
    const v = initialValues(p);
    expect(formErrors(p, v)).toEqual({ dir: "Data folder is required.", token: "token is required." });
    expect(canInstall(p, v)).toBe(false);
    v.dir = "/data";
    v.token = "s3cret";
    v.n = "11";
    expect(formErrors(p, v)).toEqual({ n: "n must be between 1 and 10." });
    v.n = "abc";
    expect(fieldError(fields[2], v.n)).toBe("“abc” is not a number.");
    v.n = "10";
    expect(canInstall(p, v)).toBe(true);
    expect(fieldError(field({ type: "number", min: 2 }), "1")).toBe("k must be at least 2.");
    expect(fieldError(field({ type: "number", max: 2 }), "3")).toBe("k must be at most 2.");
  });

  it("does not ask again for a value an upgrade keeps, nor for one with a default", () => {
    expect(fieldError(field({ required: true, kept: true }), "")).toBe("");
    expect(fieldError(field({ required: true, default: "x" }), "")).toBe("");
  });

  it("is refused while something blocks", () => {
    const b = { ...memoryPreview([]), blocking: ["it is for macOS only"] };
    expect(canInstall(b, {})).toBe(false);
  });

  it("turns the form into typed values, leaving empty fields out", () => {
    const v = { dir: " /data ", token: " s3cret ", n: "4.5", on: false, paths: ["/a", " ", "/b"], tags: [""] };
    expect(toValues(p, v)).toEqual({ dir: "/data", token: " s3cret ", n: 4.5, on: false, paths: ["/a", "/b"] });
  });
});

describe("extension texts", () => {
  it("names the signature, the runtime and the install", () => {
    expect(signatureText({ status: "signed", subject: "CN=Acme", problem: "" })).toBe("Signed by CN=Acme");
    expect(signatureText({ status: "self-signed", subject: "CN=Me", problem: "" })).toContain("Self-signed by CN=Me");
    expect(signatureText({ status: "invalid", subject: "", problem: "the bytes changed" })).toBe("Invalid signature: the bytes changed");
    expect(signatureText({ status: "unsigned", subject: "", problem: "" })).toContain("Unsigned");
    const p = memoryPreview([]);
    expect(runtimeText(p)).toEqual({ text: "Needs Node.js >=18.0.0: found v20.11.0", missing: false, url: "" });
    expect(runtimeText({ ...p, runtime: { ...p.runtime, found: "" } })).toEqual({ text: "Needs Node.js >=18.0.0: not found on this computer. Get it from", missing: true, url: "https://nodejs.org/" });
    expect(runtimeText({ ...p, server_type: "binary", runtime: { name: "", title: "", range: "", url: "", found: "", fits: false } }).missing).toBe(false);
    // Found, but outside the range: said as a mismatch, not as found.
    const py = { ...p, runtime: { name: "python", title: "Python", range: ">=3.99", url: "https://www.python.org/downloads/", found: "Python 3.11.2", fits: false } };
    expect(runtimeText(py)).toEqual({ text: "Needs Python >=3.99: found Python 3.11.2, which does not match. Get a matching one from", missing: true, url: "https://www.python.org/downloads/" });
    expect(installedMessage({ name: "memory", display_name: "Memory", version: "1.0.0", namespace: "memory", upgraded: "" }))
      .toMatch(/^Installed Memory 1\.0\.0 as provider memory\./);
  });
});

describe("the sandbox box", () => {
  const p = memoryPreview([]);
  it("describes the default preset and the note when it can be enforced", () => {
    expect(sandboxText(p)).toEqual({
      about: "Inside it, it reads system files and its own folder, writes only in the workspace, its temp folder and the folders of its settings, no network.",
      note: "It may fail inside it.", disabled: false,
    });
  });
  it("gives the reason and disables the box when it cannot", () => {
    const q = { ...p, sandbox: { ...p.sandbox, on: true, unsupported: "Landlock is not enabled in this kernel" } };
    expect(sandboxText(q)).toEqual({ about: "This computer cannot enforce the sandbox: Landlock is not enabled in this kernel", note: "", disabled: true });
    expect(sandboxStart(q)).toBe(false);
  });
  it("starts off for a new install and as installed on an upgrade", () => {
    expect(sandboxStart(p)).toBe(false);
    expect(sandboxStart({ ...p, installed: "0.9.0", sandbox: { ...p.sandbox, on: true } })).toBe(true);
  });
});
