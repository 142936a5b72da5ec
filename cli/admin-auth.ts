/**
 * The admin token a client of the proxy (`watch`, `status`) sends: from `--admin-token-file`, else
 * CLIFF_ADMIN_TOKEN_FILE, else the user's own file — that one only to a proxy on loopback (the
 * user's own token is not offered to another host unless named on purpose).
 */
import { AdminTokenError, adminTokenFile, findAdminToken, readAdminToken } from "../node/admin-token.js";
import { isLoopback } from "../proxy/loopback.js";
import { UsageError, type Parsed } from "./args.js";

export type Headers = Record<string, string>;

export function adminHeaders(p: Parsed, base: string, env: NodeJS.ProcessEnv = process.env): Headers {
  const flag = typeof p.values["admin-token-file"] === "string" ? p.values["admin-token-file"] : undefined;
  const named = flag !== undefined || Boolean(env.CLIFF_ADMIN_TOKEN_FILE);
  try {
    const file = adminTokenFile(env, flag);
    if (!named && !isLoopback(new URL(base).hostname)) return {};
    const token = named ? readAdminToken(file) : findAdminToken(file);
    return token === undefined ? {} : { authorization: `Bearer ${token}` };
  } catch (e) {
    if (e instanceof AdminTokenError) throw new UsageError(e.message);
    throw e;
  }
}
