/**
 * The proxy's web view in headless Chromium (Debian's chromium package): a running proxy fed by a
 * mock upstream, its page at /_cliff/ rendering the sessions, updating when a cliff happens without
 * a reload, showing hostile session text as text with nothing executed, under its CSP with no
 * violation and no request leaving the proxy, usable by keyboard and at a phone's width; a
 * screenshot goes to docs/web-view.png for docs/team.md (the phone's to the temporary folder).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { get, grow, HOSTILE, TOKEN, webRig, type WebRig } from "../helpers/web-sessions.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LAUNCH = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let rig: WebRig;
let browser: Browser;
let hostileId = "";
let plainId = "";
let longId = "";

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
  rig = await webRig();
  await grow(rig.proxy, "hostile-session", 1, 6, HOSTILE);
  await grow(rig.proxy, "plain-session", 1, 3);
  await grow(rig.proxy, "long-session", 1, 30, "(the long one)");
  const s: any = await (await get(rig.proxy, "/_cliff/status")).json();
  const byRequests = (n: number): string => s.sessions.find((x: any) => x.requests === n).id;
  [hostileId, plainId, longId] = [byRequests(6), byRequests(3), byRequests(30)];
  browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH });
});
afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

/** The page opened as a browser does, with every console error, page error, dialog and request off the proxy collected. */
async function open(viewport = { width: 1280, height: 800 }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("dialog", (d) => {
    problems.push("dialog: " + d.message());
    void d.dismiss();
  });
  page.on("request", (r) => !r.url().startsWith(rig.proxy.url + "/_cliff/") && problems.push("request to " + r.url()));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} from ${r.url()}`));
  // As the link `watch --web` prints: the token exchanged once for the cookie, then on to the page.
  const r = await page.goto(rig.proxy.url + `/_cliff/login?token=${TOKEN}&next=/_cliff/`);
  expect(page.url()).toBe(rig.proxy.url + "/_cliff/");
  expect(r?.status()).toBe(200);
  await page.locator(`#sessions tr[data-id="${hostileId}"]`).waitFor();
  return { page, problems };
}

const row = (page: Page, id: string) => page.locator(`#sessions tr[data-id="${id}"]`);

describe("the web view in a browser", () => {
  it("renders the sessions of a running serve: usage, the bill, thresholds, the selected session's sawtooth", async () => {
    const { page, problems } = await open();
    expect(await page.locator("#sessions tr[data-id]").count()).toBe(3);
    expect(await row(page, hostileId).locator("td.cliffs").innerText()).not.toBe("0");
    expect(await row(page, hostileId).locator("td.cost").innerText()).toMatch(/^\$\d/);
    // No session here recalled: each says 0, and the selected one's list says none.
    expect(await page.locator("#sessions td.recalls").allInnerTexts()).toEqual(["0", "0", "0"]);
    expect(await page.locator("#thresholds").innerText()).toContain("claude-sonnet-4-5");
    expect(await page.locator(".note").first().innerText()).toMatch(/one replica/);
    await row(page, longId).click();
    await page.locator("#cliff-head").filter({ hasText: "Last cliff at" }).waitFor();
    expect((await page.locator("#summary").innerText()).length).toBeGreaterThan(20);
    expect(await page.locator("#recalls").innerText()).toBe("none: the model recalled nothing a cliff dropped");
    const chart = page.locator("#chart");
    await expect.poll(() => chart.evaluate((img: any) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect((await chart.boundingBox())!.width).toBeGreaterThan(400);
    await page.screenshot({ path: "docs/web-view.png", fullPage: false });
    expect(problems).toEqual([]);
  });

  it("updates when a cliff happens, without a reload", async () => {
    const { page, problems } = await open();
    await page.evaluate(() => ((globalThis as any).__sameDocument = true));
    expect(await row(page, plainId).locator("td.cliffs").innerText()).toBe("0");
    await grow(rig.proxy, "plain-session", 4, 11);
    await expect.poll(() => row(page, plainId).locator("td.cliffs").innerText(), { timeout: 10_000 }).not.toBe("0");
    await expect.poll(() => page.locator("#events li.cliff").count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
    expect(problems).toEqual([]);
  });

  it("shows hostile session text as visible text and runs none of it", async () => {
    const { page, problems } = await open();
    await row(page, hostileId).focus();
    await page.keyboard.press("Enter");
    const summary = page.locator("#summary");
    await summary.filter({ hasText: "<script>" }).waitFor();
    expect(await summary.innerText()).toContain("<script>window.__pwned = 1</script>");
    expect(await page.locator("#dropped").innerText()).toContain("javascript:alert(1)");
    expect(await page.locator("#dropped").innerText()).toContain(`<img src=x onerror="window.__pwned = 2">`);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    expect(await page.locator("main script, main img:not(#chart), a").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("is usable by keyboard, sorts by cost and by cliffs, and fits a phone's width", async () => {
    const { page, problems } = await open({ width: 390, height: 844 });
    await page.locator('button[data-sort="cliffs"]').focus();
    await page.keyboard.press("Enter");
    const st: any = await (await get(rig.proxy, "/_cliff/status")).json();
    const most: any = st.sessions.reduce((a: any, b: any) => (b.cliffs > a.cliffs ? b : a));
    await expect.poll(() => page.locator("#sessions tr[data-id]").first().getAttribute("data-id")).toBe(most.id);
    const cliffs = (await page.locator("#sessions td.cliffs").allInnerTexts()).map(Number);
    expect(cliffs).toEqual([...cliffs].sort((a, b) => b - a));
    expect(await page.locator('button[data-sort="cliffs"]').getAttribute("aria-pressed")).toBe("true");
    await page.locator('button[data-sort="cost"]').click();
    const costs = await page.locator("#sessions td.cost").allInnerTexts();
    const values = costs.map((c) => Number(c.replace(/[$,]/g, "")));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    await page.locator("#sessions tr[data-id]").first().focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const second = await page.locator("#sessions tr[data-id]").nth(1).getAttribute("data-id");
    await expect.poll(() => page.locator("#sessions tr.selected").getAttribute("data-id")).toBe(second);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(tmpdir(), "cliff-web-view-phone.png"), fullPage: false });
    expect(problems).toEqual([]);
  });

  it("opens on the newest session that has a cliff, shows that session's events, and its table whole at 390 px", async () => {
    let turn = 1;
    for (const width of [1280, 390]) {
      // The newest session has no cliff yet: the view opens on the newest one that has.
      await grow(rig.proxy, "fresh-session", turn, turn + 1);
      turn += 2;
      const st: any = await (await get(rig.proxy, "/_cliff/status?sessions=1000")).json();
      expect(st.sessions[0].cliffs).toBe(0);
      const expected = st.sessions.find((x: any) => x.cliffs > 0).id;
      const { page, problems } = await open({ width, height: 900 });
      await expect.poll(() => page.locator("#sessions tr.selected").getAttribute("data-id")).toBe(expected);
      await expect.poll(() => page.locator("#events-title").innerText()).toBe(`Events of session ${expected}`);
      // Another session's requests are not this session's events.
      await grow(rig.proxy, "fresh-session", turn, turn);
      turn += 1;
      await expect.poll(() => page.locator("#events li").count()).toBeGreaterThan(0);
      for (const text of await page.locator("#events li").allInnerTexts()) if (!/none since/.test(text)) expect(text).toContain(expected);
      await row(page, plainId).click();
      await expect.poll(() => page.locator("#events-title").innerText()).toBe(`Events of session ${plainId}`);
      for (const text of await page.locator("#events li").allInnerTexts()) if (!/none since/.test(text)) expect(text).toContain(plainId);
      const right = await page.evaluate(() => (globalThis as any).document.querySelector("#sessions").closest("table").getBoundingClientRect().right as number);
      expect(right, `sessions table at ${width}px`).toBeLessThanOrEqual(width);
      // At 1,280 px whole in its box too, no column scrolled out of sight (a phone's may scroll sideways).
      const hidden = await page.evaluate(() => {
        const box = (globalThis as any).document.querySelector("#sessions").closest(".scroll");
        return (box.scrollWidth - box.clientWidth) as number;
      });
      if (width === 1280) expect(hidden, "sessions table at 1280px: pixels scrolled out of sight").toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width === 390) await page.screenshot({ path: join(tmpdir(), "cliff-web-view-390.png"), fullPage: false });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("is refused without the cookie or the token, and to a web page of another origin", async () => {
    const page = await browser.newPage();
    const r = await page.goto(rig.proxy.url + "/_cliff/");
    expect(r?.status()).toBe(401);
    expect(await page.locator("#sessions").count()).toBe(0);
    const events = await page.goto(rig.proxy.url + "/_cliff/events");
    expect(events?.status()).toBe(401);
    await page.close();
    expect((await get(rig.proxy, "/_cliff/", { headers: { origin: "http://evil.example" } })).status).toBe(403);
  });

  it("shows a last cliff of unbroken long lines at 1,280 and 390 px: no sideways page, the summary column at least a third of the width", async () => {
    await grow(rig.proxy, "wide-session", 1, 12, "W".repeat(4000));
    const st: any = await (await get(rig.proxy, "/_cliff/status")).json();
    const wide = st.sessions.find((x: any) => x.requests === 12 && x.cliffs > 0);
    expect(wide).toBeDefined();
    for (const width of [1280, 390]) {
      const { page, problems } = await open({ width, height: 900 });
      await row(page, wide.id).click();
      await page.locator("#cliff-head").filter({ hasText: "Last cliff at" }).waitFor();
      expect(await page.locator("#summary").innerText()).toContain("WWWW");
      // Each cliff's bill in words ("over 1 request"), and what its net means.
      expect(await page.locator("#bills").innerText()).toMatch(/over \d+ requests?, rewrote/);
      expect(await page.locator("#bills").innerText()).not.toMatch(/\b1 requests\b/);
      expect(await page.locator("#net-note").innerText()).toContain("nets below zero though it shed many tokens");
      const m = await page.evaluate(() => {
        const doc = (globalThis as any).document;
        return { scroll: doc.documentElement.scrollWidth as number, column: doc.querySelector("#summary").parentElement.getBoundingClientRect().width as number };
      });
      expect(m.scroll, `page at ${width}px`).toBeLessThanOrEqual(width);
      expect(m.column, `summary column at ${width}px`).toBeGreaterThanOrEqual(width / 3);
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
