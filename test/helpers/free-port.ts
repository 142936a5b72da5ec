import { createServer, type AddressInfo } from "node:net";

/** A port free on 127.0.0.1 now, for a process that must be told its port before it starts (a proxy, HAProxy, Prometheus, a restarted replica). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}
