import { describe, expect, it } from "vitest";
import { ProgressChars, progressBar, progressText } from "./progress";

describe("progressText", () => {
  it("shows the message when there is one", () => {
    expect(progressText({ text: "indexing files", data: { progress: 1, total: 4 } })).toBe("indexing files");
  });
  it("shows N of M with a percentage when the server sends only numbers", () => {
    expect(progressText({ text: "", data: { progress: 2, total: 5 } })).toBe("2 of 5 (40%)");
    expect(progressText({ text: "", data: { progress: 5, total: 5 } })).toBe("5 of 5 (100%)");
    expect(progressText({ text: "", data: { progress: 1.5, total: 3 } })).toBe("1.5 of 3 (50%)");
  });
  it("shows the step without a total, and a word without numbers", () => {
    expect(progressText({ text: "", data: { progress: 3 } })).toBe("step 3");
    expect(progressText({ text: "", data: { progress: 3, total: 0 } })).toBe("step 3");
    expect(progressText({ text: "" })).toBe("working…");
    expect(progressText({ text: "", data: "nonsense" })).toBe("working…");
    expect(progressText({ text: "", data: [1, 2] })).toBe("working…");
  });
  it("clamps untrusted numbers", () => {
    expect(progressText({ text: "", data: { progress: 9, total: 4 } })).toBe("4 of 4 (100%)");
    expect(progressText({ text: "", data: { progress: -1, total: 4 } })).toBe("working…");
    expect(progressText({ text: "", data: { progress: NaN, total: 4 } })).toBe("working…");
    expect(progressText({ text: "", data: { progress: 1, total: -4 } })).toBe("step 1");
    expect(progressText({ text: "", data: { progress: 1e300, total: 1e301 } })).toBe("working…");
    expect(progressText({ text: "", data: { progress: "2", total: "4" } })).toBe("working…");
  });
  it("makes a long or hostile message one clipped line without controls or bidi marks", () => {
    expect(progressText({ text: "a\nb\u0000c\u202etxt.exe\u2066d" })).toBe("a b c txt.exe d");
    const long = progressText({ text: "x".repeat(5000) });
    expect(Array.from(long).length).toBe(ProgressChars);
    expect(long.endsWith("…")).toBe(true);
    expect(progressText({ text: " \u200b\n", data: { progress: 1, total: 2 } })).toBe("1 of 2 (50%)");
  });
});

describe("progressBar", () => {
  it("is value and max only with a total, clamped", () => {
    expect(progressBar({ text: "", data: { progress: 2, total: 5 } })).toEqual({ value: 2, max: 5 });
    expect(progressBar({ text: "", data: { progress: 7, total: 5 } })).toEqual({ value: 5, max: 5 });
    expect(progressBar({ text: "", data: { progress: 2 } })).toBeUndefined();
    expect(progressBar({ text: "", data: { progress: Infinity, total: 5 } })).toBeUndefined();
    expect(progressBar({ text: "hi" })).toBeUndefined();
  });
});
