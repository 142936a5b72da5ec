/** Who answers on a loopback port: a cliffcompaction proxy (its status), something else, or nothing. */
import http from "node:http";

export type Probe = { kind: "ours"; status: Record<string, unknown> } | { kind: "other"; detail: string } | { kind: "free" };

export function probe(port: number, timeoutMs = 1000, headers: Record<string, string> = {}): Promise<Probe> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/_cliff/status", timeout: timeoutMs, agent: false, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c.length + body.length > 1 << 20 ? "" : c));
      res.on("end", () => {
        // A proxy of ours bound beyond loopback asks for its token even here: still ours, its numbers unknown.
        if (res.statusCode === 401 && /realm="cliffcompaction"/.test(String(res.headers["www-authenticate"] ?? ""))) return resolve({ kind: "ours", status: { name: "cliffcompaction" } });
        try {
          const status = JSON.parse(body) as Record<string, unknown>;
          if (status.name === "cliffcompaction") return resolve({ kind: "ours", status });
        } catch {
          // not our JSON: someone else's server
        }
        resolve({ kind: "other", detail: `HTTP ${res.statusCode}` });
      });
      res.on("error", () => resolve({ kind: "other", detail: "a broken answer" }));
    });
    req.on("timeout", () => {
      req.destroy();
      resolve({ kind: "other", detail: "no answer within a second" });
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED" ? { kind: "free" } : { kind: "other", detail: e.code ?? e.message }));
  });
}

/** Polls until a cliffcompaction proxy answers on the port (the given pid's, when known), or the time is up. */
export async function waitForProxy(port: number, pid: () => number | undefined, timeoutMs: number): Promise<Record<string, unknown> | null> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const p = await probe(port, 500);
    const want = pid();
    if (p.kind === "ours" && (want === undefined || p.status.pid === undefined || p.status.pid === want)) return p.status;
    await new Promise((r) => setTimeout(r, 200));
  }
  return null;
}
