/**
 * The admin token a client of the proxy (`watch`, `status`) sends: from `--admin-token-file`, else
 * CLIFF_ADMIN_TOKEN_FILE, else the user's own file — that one only to a proxy on loopback (the
 * user's own token is not offered to another host unless named on purpose). It goes only to a
 * listener that first proves it holds the same token (node/admin-proof.ts): whoever else holds the
 * port gets nothing.
 */
import http from "node:http";
import { AdminTokenError, adminTokenFile, findAdminToken, readAdminToken } from "../node/admin-token.js";
import { newNonce, PROVE_PATH, proves } from "../node/admin-proof.js";
import { isLoopback } from "../proxy/loopback.js";
import { UsageError, type Parsed } from "./args.js";

export type Headers = Record<string, string>;

/** The listener did not prove it holds the token, so the token was not sent. */
export class NotProven extends Error {}

/** The token to offer `base`, if any (no listener asked yet). */
export function adminToken(p: Parsed, base: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const flag = typeof p.values["admin-token-file"] === "string" ? p.values["admin-token-file"] : undefined;
  const named = flag !== undefined || Boolean(env.CLIFF_ADMIN_TOKEN_FILE);
  try {
    const file = adminTokenFile(env, flag);
    if (!named && !isLoopback(new URL(base).hostname)) return undefined;
    return named ? readAdminToken(file, { named: true }) : findAdminToken(file);
  } catch (e) {
    if (e instanceof AdminTokenError) throw new UsageError(e.message);
    throw e;
  }
}

interface Answer {
  status: number;
  body: unknown;
  /** Where the connection went: the address and port the client dialled (a name resolved). */
  address: string;
  port: number;
}

/** GET `path` of `base` as JSON (at most 4 KiB, within `timeoutMs` in all), or null when nothing usable answers. */
function askJson(base: string, path: string, timeoutMs: number): Promise<Answer | null> {
  return new Promise((resolve) => {
    const req = http.get(base + path, { timeout: timeoutMs, agent: false }, (res) => {
      const address = res.socket.remoteAddress ?? "";
      const port = res.socket.remotePort ?? 0;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text.length + c.length > 4096 ? req.destroy() : (text += c)));
      res.on("end", () => {
        clearTimeout(deadline);
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), address, port });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: null, address, port });
        }
      });
      res.on("error", () => resolve(null));
    });
    // A trickled answer never goes idle: the whole exchange has its limit too.
    const deadline = setTimeout(() => req.destroy(), timeoutMs);
    req.on("timeout", () => req.destroy());
    req.on("error", () => {
      clearTimeout(deadline);
      resolve(null);
    });
    req.on("close", () => clearTimeout(deadline));
  });
}

/**
 * Whether the listener at `base` holds `token`: it answers a fresh nonce with the HMAC only the
 * token gives. On loopback the proof must be for the address and port the connection went to (a
 * listener relaying to the user's proxy, on another port or at another loopback address on the same
 * port, fails); a named host beyond loopback may sit behind a forwarder, so there the proxy's own
 * address and port, which the HMAC covers, are taken as it says.
 */
export async function listenerHolds(base: string, token: string, timeoutMs = 10_000): Promise<boolean | null> {
  const url = new URL(base);
  const nonce = newNonce();
  const a = await askJson(url.origin, `${PROVE_PATH}?nonce=${nonce}`, timeoutMs);
  if (a === null) return null;
  const body = (a.body ?? {}) as { address?: unknown; port?: unknown; proof?: unknown };
  const dialled = isLoopback(url.hostname) || typeof body.address !== "string" || typeof body.port !== "number";
  const address = dialled ? a.address : (body.address as string);
  const port = dialled ? a.port : (body.port as number);
  return a.status === 200 && address !== "" && proves(token, address, port, nonce, body.proof);
}

/** The headers that carry the token to `base`, once it proved it holds it; {} when there is no token. */
export async function adminHeaders(p: Parsed, base: string, env: NodeJS.ProcessEnv = process.env): Promise<Headers> {
  const token = adminToken(p, base, env);
  if (token === undefined) return {};
  const held = await listenerHolds(base, token);
  // Nothing answers: no token was at risk; the caller's own request says that no proxy answers.
  if (held === null) return {};
  if (!held) throw new NotProven(`${base} did not prove that it holds your admin token, so the token was not sent: another account may hold the port while your proxy is down, or the proxy there predates the proof (restart it)`);
  return { authorization: `Bearer ${token}` };
}
