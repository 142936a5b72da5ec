/**
 * The web view as served: one self-contained page whose inline script and style are exactly the
 * ones its Content-Security-Policy pins by hash (no unsafe-inline, no unsafe-eval, reads from its
 * own origin only); no session data in the page itself, and a script that writes session text only
 * as text; a session's sawtooth as the report draws it, numbers only; a web page of another origin
 * refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { PAGE_CSP, PAGE_SCRIPT, PAGE_STYLE, sawtoothSvg } from "../../proxy/web/index.js";
import { get, grow, HOSTILE, TOKEN, webRig, type WebRig } from "../helpers/web-sessions.js";

let rig: WebRig;
let cliffed = "";

beforeAll(async () => {
  rig = await webRig();
  await grow(rig.proxy, "hostile-session", 1, 6, HOSTILE);
  const s: any = await (await get(rig.proxy, "/_cliff/status")).json();
  cliffed = s.sessions.find((x: any) => x.cliffs > 0).id;
});
afterAll(async () => {
  await rig.close();
});

const sha = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
/** The text between `<tag>` and `</tag>`, exactly as served. */
function inline(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]);
}
const directives = (csp: string): Map<string, string[]> => new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));

describe("the web view's page", () => {
  it("pins its one inline script and one style by the hashes of the bytes served, and allows nothing else inline", async () => {
    const r = await get(rig.proxy, "/_cliff/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = r.headers.get("content-security-policy")!;
    expect(csp).toBe(PAGE_CSP);
    const html = await r.text();
    const [script, ...moreScripts] = inline(html, "script");
    const [style, ...moreStyles] = inline(html, "style");
    expect(moreScripts).toEqual([]);
    expect(moreStyles).toEqual([]);
    expect(script).toBe(PAGE_SCRIPT);
    expect(style).toBe(PAGE_STYLE);
    const d = directives(csp);
    expect(d.get("default-src")).toEqual(["'none'"]);
    expect(d.get("script-src")).toEqual([sha(script)]);
    expect(d.get("style-src")).toEqual([sha(style)]);
    expect(d.get("connect-src")).toEqual(["'self'"]);
    expect(d.get("img-src")).toEqual(["'self'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|\*|data:|blob:/);
    // Nothing the CSP would block is in the page: no event-handler attribute, no style attribute, nothing fetched from elsewhere.
    expect(html).not.toMatch(/\son[a-z]+=|\sstyle=|\ssrc="(?!\/_cliff\/)|href="(?!\/_cliff\/)/);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  it("holds no session data: the page is the same bytes whatever the sessions say", async () => {
    const html = await (await get(rig.proxy, "/_cliff/")).text();
    for (const piece of ["__pwned", "javascript:alert", cliffed, "claude-sonnet"]) expect(html).not.toContain(piece);
  });

  it("writes session text only as text: no HTML parsing, no eval, no link made, in the script", () => {
    for (const sink of ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "DOMParser", "createContextualFragment", "eval(", "new Function", "setAttribute(\"href", ".href", "srcdoc", "location ="]) {
      expect(PAGE_SCRIPT, sink).not.toContain(sink);
    }
    // Every text it writes goes through textContent; the one src it sets is the proxy's own path with a session id it checked.
    expect(PAGE_SCRIPT).toContain("e.textContent = String(text)");
    expect(PAGE_SCRIPT.match(/\.src = /g)).toHaveLength(1);
    expect(PAGE_SCRIPT).toContain(`$("chart").src = "/_cliff/sessions/" + x.id + "/sawtooth.svg?r="`);
    expect(PAGE_SCRIPT).toContain("filter((x) => ID.test(String(x.id)))");
  });

  it("serves the hostile text to the script as JSON (escaped, never markup) and never in the page or the chart", async () => {
    const r = await get(rig.proxy, `/_cliff/sessions/${cliffed}/last-cliff`);
    expect(r.headers.get("content-type")).toBe("application/json");
    const text = await r.text();
    const c = JSON.parse(text);
    expect(c.summary + c.dropped.map((d: any) => d.text).join(" ")).toContain("<script>window.__pwned = 1</script>");
    const svg = await (await get(rig.proxy, `/_cliff/sessions/${cliffed}/sawtooth.svg`)).text();
    expect(svg).not.toContain("__pwned");
    expect(svg).not.toContain("javascript:");
  });

  it("is refused to a web page of another origin, like every /_cliff/ route", async () => {
    for (const path of ["/_cliff/", `/_cliff/sessions/${cliffed}/sawtooth.svg`, "/_cliff/icon.svg"]) {
      const r = await get(rig.proxy, path, { headers: { origin: "http://evil.example" } });
      expect(r.status, path).toBe(403);
    }
  });

  it("is refused without the token or its cookie, on loopback too; the login's cookie opens it", async () => {
    for (const path of ["/_cliff/", `/_cliff/sessions/${cliffed}/sawtooth.svg`]) {
      const none = await fetch(rig.proxy.url + path);
      expect(none.status, path).toBe(401);
      expect(await none.text()).not.toContain("<script");
      expect((await fetch(rig.proxy.url + path, { headers: { authorization: "Bearer not-the-token" } })).status, path).toBe(401);
      expect((await fetch(rig.proxy.url + path, { headers: { cookie: "cliff_admin=forged" } })).status, path).toBe(401);
    }
    const login = await fetch(rig.proxy.url + `/_cliff/login?token=${TOKEN}&next=/_cliff/`, { redirect: "manual" });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/_cliff/");
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    expect((await fetch(rig.proxy.url + "/_cliff/", { headers: { cookie } })).status).toBe(200);
    expect((await fetch(rig.proxy.url + `/_cliff/sessions/${cliffed}/sawtooth.svg`, { headers: { cookie } })).status).toBe(200);
    // The icon holds nothing and stays open.
    expect((await fetch(rig.proxy.url + "/_cliff/icon.svg")).status).toBe(200);
  });

  it("sends /_cliff to the page", async () => {
    const r = await fetch(rig.proxy.url + "/_cliff", { redirect: "manual" });
    expect(r.status).toBe(308);
    expect(r.headers.get("location")).toBe("/_cliff/");
  });
});

describe("a session's sawtooth", () => {
  it("is the report's chart of the session's context per request, its cliffs marked, as an inert image", async () => {
    const s: any = await (await get(rig.proxy, "/_cliff/status")).json();
    const x = s.sessions.find((v: any) => v.id === cliffed);
    const r = await get(rig.proxy, `/_cliff/sessions/${cliffed}/sawtooth.svg`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(r.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    const svg = await r.text();
    // The sawtooth beside the no-compaction line (each request as the client sent it): the gap is the saving.
    const points = (cls: string) => /points="([^"]*)"/.exec(svg.slice(svg.indexOf(`class="${cls}"`)))![1].split(" ").map((p) => Number(p.split(",")[1]));
    expect(svg.match(/class="cliff"/g)).toHaveLength(x.cliffs);
    expect(points("context")).toHaveLength(x.requests);
    expect(points("baseline")).toHaveLength(x.requests);
    // SVG's y grows downward: the baseline is never below the context sent, and above it after a cliff.
    points("baseline").forEach((y, i) => expect(y).toBeLessThanOrEqual(points("context")[i]));
    expect(points("baseline").some((y, i) => y < points("context")[i])).toBe(true);
    expect(svg).toContain("no compaction");
    expect((await get(rig.proxy, "/_cliff/sessions/0123456789/sawtooth.svg")).status).toBe(404);
  });

  it("says when it shows only the newest requests", () => {
    const svg = sawtoothSvg({ requests: 500, context: [100, 3000, 200], baseline: [100, 3000, 3100], cliffAt: [false, false, true], threshold: 2000 });
    expect(svg).toContain("the newest 3 of 500 requests");
    expect(svg.match(/class="cliff"/g)).toHaveLength(1);
  });
});
