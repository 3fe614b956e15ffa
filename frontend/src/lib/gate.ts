// The window reaches the Go side only through the Gate (app/gate.go,
// docs/mcp-apps.md#bindings): each call carries the token of this launch,
// which only this page holds, so a frame in the page (an MCP App view)
// cannot call the app even though WebKit hands it the same message channel.
import { Call, Handshake } from "../wailsjs/go/app/Gate";
import type { Backend } from "./api";

type CallFn = (token: string, method: string, args: unknown[]) => Promise<unknown>;
type Fn = (...args: unknown[]) => Promise<unknown>;

/**
 * gatedBackend returns the bound services as objects of functions that ask
 * for the token once (Handshake) and send every call through the Gate's
 * Call as "Service.Method" (b.Chats.OpenChat(x) calls "Chats.OpenChat").
 * The parameters are for tests.
 */
export function gatedBackend(call: CallFn = Call as unknown as CallFn, handshake: () => Promise<string> = Handshake): Backend {
  let token: Promise<string> | undefined;
  const send = async (method: string, args: unknown[]) => {
    token ??= handshake();
    let t: string;
    try {
      t = await token;
    } catch (e) {
      token = undefined; // ask again next time
      throw e;
    }
    return call(t, method, args.map((a) => (a === undefined ? null : a)));
  };
  // Not a thenable, and no symbol lookups: only names are services and methods.
  const named = <T>(make: (name: string) => T) => {
    const made = new Map<string, T>();
    return new Proxy({}, {
      get(_target, name) {
        if (typeof name !== "string" || name === "then") return undefined;
        let v = made.get(name);
        if (v === undefined) {
          v = make(name);
          made.set(name, v);
        }
        return v;
      },
    });
  };
  return named((service) => named<Fn>((method) => (...args: unknown[]) => send(`${service}.${method}`, args))) as Backend;
}
