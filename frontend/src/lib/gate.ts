// The window reaches the Go side only through the Gate (app/gate.go,
// docs/mcp-apps.md#bindings): each call carries the token of this launch,
// which only this page holds, so a frame in the page (an MCP App view)
// cannot call the app even though WebKit hands it the same message channel.
import { Call, Handshake } from "../wailsjs/go/app/Gate";
import type { Backend } from "./api";

type CallFn = (token: string, method: string, args: unknown[]) => Promise<unknown>;

/**
 * gatedBackend returns the App bindings as functions that ask for the token
 * once (Handshake) and send every call through the Gate's Call. The
 * parameters are for tests.
 */
export function gatedBackend(call: CallFn = Call as unknown as CallFn, handshake: () => Promise<string> = Handshake): Backend {
  let token: Promise<string> | undefined;
  const fns = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy({} as Backend, {
    get(_target, name) {
      // Not a thenable, and no symbol lookups: only method names are calls.
      if (typeof name !== "string" || name === "then") return undefined;
      let f = fns.get(name);
      if (!f) {
        f = async (...args: unknown[]) => {
          token ??= handshake();
          let t: string;
          try {
            t = await token;
          } catch (e) {
            token = undefined; // ask again next time
            throw e;
          }
          return call(t, name, args.map((a) => (a === undefined ? null : a)));
        };
        fns.set(name, f);
      }
      return f;
    },
  });
}
