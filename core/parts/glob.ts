/**
 * Globs for the pins: `*` any run within one path segment, `**` any run at all, `?` one character.
 * A pattern without a slash is matched against a path's last segment (`*.md` pins every Markdown
 * file, wherever it is), one with a slash against the whole path. Tool names match in any case
 * (agents spell the same tool `Read` or `read`); paths match case-sensitively.
 */

const compiled = new Map<string, RegExp>();

function toRegExp(glob: string, flags: string): RegExp {
  const key = flags + ":" + glob;
  let re = compiled.get(key);
  if (re === undefined) {
    const src = glob.replace(/[\\^$.|+()[\]{}]/g, "\\$&").replace(/\*\*|\*|\?/g, (m) => (m === "**" ? ".*" : m === "*" ? "[^/]*" : "[^/]"));
    compiled.set(key, (re = new RegExp("^" + src + "$", flags)));
  }
  return re;
}

/** Whether a tool name (`path` false) or a path matches one of the globs. */
export function globMatches(text: unknown, globs: readonly string[], path: boolean): boolean {
  if (typeof text !== "string") return false;
  const base = path ? text.slice(text.lastIndexOf("/") + 1) : text;
  for (const g of globs) if (toRegExp(g, path ? "" : "i").test(path && g.indexOf("/") < 0 ? base : text)) return true;
  return false;
}
