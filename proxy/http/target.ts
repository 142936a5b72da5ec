/**
 * The URL a request goes to. A request target names a path on one of the configured upstreams and
 * nothing else: anything that could be read as another host (`//host`, a backslash, an absolute
 * URI, dot segments, encoded slashes or dots, whitespace, a missing leading `/`) is refused before
 * anything is sent. The URL is built from the configured origin, its base path and the checked
 * path, and its origin is compared with the configured one once more after parsing.
 */

/** A request target split into a checked path and its query (without the `?`), or null when it is not a plain path. */
export interface PlainTarget {
  path: string;
  query: string | null;
}

// RFC 3986 pchar (unreserved, sub-delims, ':' '@') and '/' and pct-encoded triplets: nothing else may appear in the path.
const PATH_CHARS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
// A query may hold anything printable but '#' and '\' (neither can change the host after the path, but no client sends them).
const QUERY_CHARS = /^[\x21-\x7e]*$/;

function plainSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  // Encoded separators or dots could become a path change, or a host, after someone else decodes them.
  return decoded !== "." && decoded !== ".." && !/[/\\]/.test(decoded) && !/^\.+$/.test(decoded) && !/[\x00-\x20\x7f]/.test(decoded);
}

export function plainTarget(target: string): PlainTarget | null {
  if (!target.startsWith("/") || target.startsWith("//")) return null;
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? null : target.slice(q + 1);
  if (!PATH_CHARS.test(path) || path.includes("//")) return null;
  if (query !== null && (!QUERY_CHARS.test(query) || query.includes("#") || query.includes("\\"))) return null;
  const segments = path.split("/").slice(1);
  for (let i = 0; i < segments.length; i++) {
    // An empty last segment is a trailing slash; an empty one elsewhere was refused above.
    if (segments[i] === "" && i === segments.length - 1) continue;
    if (!plainSegment(segments[i])) return null;
  }
  return { path, query };
}

/** The upstream's base path joined with the request's: a path that already starts with the base, or with its trailing /v1, is not given it twice. */
export function joinedPath(basePath: string, path: string): string {
  const base = basePath.replace(/\/+$/, "");
  if (base === "") return path;
  if (path === base || path.startsWith(base + "/")) return path;
  if (base.endsWith("/v1") && (path === "/v1" || path.startsWith("/v1/"))) return base.slice(0, -3) + path;
  return base + path;
}

/** The URL for a checked target on `upstream`, or null when the result would leave the upstream's origin. */
export function targetUrl(upstream: URL, target: PlainTarget): URL | null {
  const path = joinedPath(upstream.pathname, target.path);
  let url: URL;
  try {
    url = new URL(upstream.origin + path + (target.query === null ? "" : "?" + target.query));
  } catch {
    return null;
  }
  return url.origin === upstream.origin && url.pathname === path ? url : null;
}
