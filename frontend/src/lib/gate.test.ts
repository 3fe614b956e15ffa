import { describe, expect, it, vi } from "vitest";
import { gatedBackend } from "./gate";

describe("gatedBackend", () => {
  it("asks for the token once and sends every call through Call with it, as Service.Method", async () => {
    const handshake = vi.fn(async () => "tok-1");
    const call = vi.fn(async (_t: string, method: string, args: unknown[]) => ({ method, args }));
    const b = gatedBackend(call, handshake);
    expect(await b.Chats.Send("ses_1", "hello")).toEqual({ method: "Chats.Send", args: ["ses_1", "hello"] });
    await b.Window.Info();
    expect(handshake).toHaveBeenCalledTimes(1);
    expect(call.mock.calls.map((c) => c[0])).toEqual(["tok-1", "tok-1"]);
    expect(call.mock.calls[1][1]).toBe("Window.Info");
    expect(b.Chats).toBe(b.Chats);
    expect(b.Chats.Send).toBe(b.Chats.Send);
  });

  it("is not a thenable, nor is a service, so awaiting them does not call the Gate", async () => {
    const call = vi.fn(async () => null);
    const b = gatedBackend(call, async () => "t");
    expect((b as unknown as { then?: unknown }).then).toBeUndefined();
    expect((b.Chats as unknown as { then?: unknown }).then).toBeUndefined();
    await Promise.resolve(b);
    await Promise.resolve(b.Chats);
    expect(call).not.toHaveBeenCalled();
  });

  it("passes the Go error through and asks for the token again after a failed handshake", async () => {
    let n = 0;
    const handshake = vi.fn(async () => {
      n++;
      if (n === 1) throw new Error("not ready");
      return "tok-2";
    });
    const call = vi.fn(async (_t: string, method: string) => {
      if (method === "Window.OpenFile") throw new Error("refused: not inside the config folder");
      return "ok";
    });
    const b = gatedBackend(call, handshake);
    await expect(b.Window.Info()).rejects.toThrow("not ready");
    expect(await b.Window.Info()).toBe("ok");
    await expect(b.Window.OpenFile("/etc/passwd")).rejects.toThrow("not inside the config folder");
    expect(handshake).toHaveBeenCalledTimes(2);
  });

  it("sends undefined arguments as null (JSON has no undefined)", async () => {
    const call = vi.fn(async (_t: string, _m: string, args: unknown[]) => args);
    const b = gatedBackend(call, async () => "t");
    expect(await (b.Asks.AnswerElicitation as unknown as (...a: unknown[]) => Promise<unknown>)("eli_1", "decline", undefined)).toEqual(["eli_1", "decline", null]);
  });
});
