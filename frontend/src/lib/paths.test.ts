import { describe, expect, it } from "vitest";
import { tailPath } from "./paths";

describe("tailPath", () => {
  it("keeps a short path as it is", () => {
    expect(tailPath("/usr/bin/npx")).toBe("/usr/bin/npx");
  });
  it("keeps the end of a long Unix path, whole folders only", () => {
    const p = "/tmp/openworker-e2e.CVqFuJ/install/bin/openworker-device";
    const got = tailPath(p, 40);
    expect(got).toBe("…/install/bin/openworker-device");
    expect(got.length).toBeLessThanOrEqual(40);
  });
  it("keeps the end of a long Windows path", () => {
    const p = "C:\\Users\\someone\\AppData\\Roaming\\npm\\node_modules\\npx.cmd";
    expect(tailPath(p, 30)).toBe("…\\npm\\node_modules\\npx.cmd");
  });
  it("cuts a name longer than max from its start", () => {
    const got = tailPath("/x/" + "a".repeat(60), 20);
    expect(got).toBe("…" + "a".repeat(19));
  });
});
