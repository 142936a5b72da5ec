// Loaded (--import) into the Portkey gateway by test:deploy: a server told a port but no address
// (which would listen on every address) listens on 127.0.0.1 instead.
import net from "node:net";
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" && (args.length === 1 || typeof args[1] !== "string")) args.splice(1, 0, "127.0.0.1");
  else if (args[0] !== null && typeof args[0] === "object" && !Array.isArray(args[0]) && args[0].port !== undefined && args[0].host === undefined) args[0] = { ...args[0], host: "127.0.0.1" };
  return listen.apply(this, args);
};
