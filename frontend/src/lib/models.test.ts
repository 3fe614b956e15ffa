import { describe, expect, it } from "vitest";
import { connectionText, isLocal, listed, listedAs } from "./models";
import type { ConnectionTest } from "./types";

describe("listed", () => {
  it("takes the names the server would take", () => {
    const ids = ["llama3.2:latest", "qwen2.5:7b", "claude-sonnet-4-5-20250929", "models/gemini-2.0-flash", "gpt-4o-mini"];
    for (const n of ["llama3.2", "llama3.2:latest", " gpt-4o-mini ", "claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "gemini-2.0-flash"]) {
      expect(listed(ids, n), n).toBe(true);
    }
    for (const n of ["llama3", "qwen2.5", "gpt-4o", "claude-sonnet-4", "", "  "]) expect(listed(ids, n), n).toBe(false);
    expect(listed(null, "x")).toBe(false);
    expect(listedAs(ids, "llama3.2")).toBe("llama3.2:latest");
    expect(listedAs(ids, "nope")).toBe("");
  });
});

describe("isLocal", () => {
  it("is true only for this computer", () => {
    expect(isLocal("http://127.0.0.1:11434/v1")).toBe(true);
    expect(isLocal("http://localhost:8080")).toBe(true);
    expect(isLocal("http://[::1]:1234/v1")).toBe(true);
    expect(isLocal("https://api.openai.com/v1")).toBe(false);
    expect(isLocal("http://10.0.0.2:11434/v1")).toBe(false);
    expect(isLocal("not a url")).toBe(false);
  });
});

describe("connectionText", () => {
  const base: ConnectionTest = {
    ok: true, provider: "openai", base_url: "http://127.0.0.1:1/v1", model: "scripted", latency_ms: 12, via: "models",
    listed: true, models: ["scripted"], error: "", reason: "", status: 0, advice: "",
  };
  it("says the latency, and when the model is not listed", () => {
    expect(connectionText(base)).toBe("Connected in 12 ms.");
    expect(connectionText({ ...base, latency_ms: 0 })).toBe("Connected in under 1 ms.");
    expect(connectionText({ ...base, model: "nope", listed: false, models: ["a", "b"] }))
      .toBe('Connected in 12 ms, but "nope" is not among the 2 models it lists.');
    expect(connectionText({ ...base, via: "chat", models: null })).toContain("a 1-token request to scripted answered");
  });
  it("says the exact failure and the advice", () => {
    expect(connectionText({ ...base, ok: false, error: "GET http://127.0.0.1:1/v1/models: HTTP 401: bad key", status: 401, advice: "Check the API key." }))
      .toBe("Connection failed: GET http://127.0.0.1:1/v1/models: HTTP 401: bad key. Check the API key.");
  });
});
