// Preloaded by the harness/mcp tests (node --require): a server that
// listens on a port without naming a host (server-everything's
// app.listen(PORT)) listens on 127.0.0.1 only, so a test never opens a
// port beyond this computer.
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = typeof args[0] === "string" && /^\d+$/.test(args[0]) ? Number(args[0]) : args[0];
  if (typeof port === "number" && typeof args[1] !== "string") {
    args[0] = port;
    args.splice(1, 0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
