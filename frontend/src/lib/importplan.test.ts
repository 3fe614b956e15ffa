import { describe, expect, it } from "vitest";
import { aboutLine, baseName } from "./importplan";

describe("importplan", () => {
  it("names the line of the imported file, and leaves other files' messages alone", () => {
    expect(aboutLine("/a/b.json:4: x", "/a/b.json")).toBe("line 4: x");
    expect(aboutLine("/a/servers.json:4: x", "/a/b.json")).toBe("/a/servers.json:4: x");
    expect(aboutLine("C:\\Users\\ann\\mcp.json:2:3: y", "C:\\Users\\ann\\mcp.json")).toBe("line 2:3: y");
  });
  it("takes the file name of either kind of path", () => {
    expect(baseName("/home/ann/.cursor/mcp.json")).toBe("mcp.json");
    expect(baseName("C:\\Users\\ann\\servers.json")).toBe("servers.json");
  });
});
