/**
 * The HTML report in headless Chromium (Debian's chromium package): it opens from disk with no
 * console errors and no request leaving the page, the chart area is drawn, and a screenshot goes
 * to docs/report.png for the README. The retention parts (what each cliff's next turns needed that
 * it dropped, the two profiles side by side) render on a corpus session when the corpus is present,
 * else on a generated agent session.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LAUNCH = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const CORPUS_SESSION = join(process.env.CLIFF_CORPUS ?? fileURLToPath(new URL("../../../shared/corpus/", import.meta.url)), "pi-large-session.jsonl");

/** A session for the retention parts: the corpus Pi session, or a generated one when the corpus is absent. */
/** The report opened from disk, with every console error, page error and network request it makes collected. */
async function openReport(browser: Browser, file: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1180, height: 1400 } });
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("request", (req) => !req.url().startsWith("file:") && problems.push("request to " + req.url()));
  await page.goto(pathToFileURL(file).href);
  return { page, problems };
}

async function retentionSession(dir: string): Promise<[string, string[]]> {
  if (existsSync(CORPUS_SESSION)) return [CORPUS_SESSION, ["--threshold", "60000"]];
  const { agentSession } = await import("../../bench/agent-dialects.js");
  const file = join(dir, "generated.json");
  writeFileSync(file, JSON.stringify({ model: "m", messages: agentSession("anthropic", 11) }));
  return [file, ["--threshold", "20000"]];
}

describe("the report in a browser", () => {
  it("opens without console errors, draws its chart, and is screenshotted", async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
    }
    const file = join(mkdtempSync(join(tmpdir(), "cliff-browser-")), "report.html");
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "report", "examples/session.json", "--threshold", "20000", "-o", file], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH });
    try {
      const { page, problems } = await openReport(browser, file);
      const chart = await page.locator("#chart svg polyline.context").boundingBox();
      expect(chart).not.toBeNull();
      expect(chart!.width).toBeGreaterThan(400);
      expect(chart!.height).toBeGreaterThan(50);
      const points = await page.locator("#chart svg polyline.context").getAttribute("points");
      expect(points!.split(" ").length).toBeGreaterThan(100);
      await page.locator("details").first().evaluate((d) => d.setAttribute("open", ""));
      await page.screenshot({ path: "docs/report.png", fullPage: false });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("shows what each cliff's next turns needed that it dropped, and the two profiles", async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
    const dir = mkdtempSync(join(tmpdir(), "cliff-browser-"));
    const [session, flags] = await retentionSession(dir);
    const file = join(dir, "retention.html");
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "report", session, ...flags, "-o", file], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH });
    try {
      const { page, problems } = await openReport(browser, file);
      // The comparison: one drawn row per profile, each with its figures.
      for (const profile of ["reference", "recall"]) {
        const row = page.locator(`#profiles tr.profile-${profile}`);
        const box = await row.boundingBox();
        expect(box, profile).not.toBeNull();
        expect(box!.height).toBeGreaterThan(10);
        expect(await row.locator("td").count()).toBeGreaterThanOrEqual(6);
        // At the same cliffs: held out of one denominator.
        expect(await page.locator(`#same-cliffs tr.same-${profile} td`).nth(1).innerText()).toMatch(/^\d[\d,]* \/ \d[\d,]* \(/);
      }
      expect(await page.locator("#profile-verdict").innerText()).toMatch(/did better on this session/);
      // Each cliff, opened, shows its needed-tokens block; at least one lists a dropped item with tokens.
      const details = page.locator("details[id^=cliff-]");
      const count = await details.count();
      expect(count).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) await details.nth(i).evaluate((d) => d.setAttribute("open", ""));
      expect(await page.locator("details .needed").count()).toBe(count);
      const item = page.locator("details .needed li.needed-item").first();
      expect(await item.isVisible()).toBe(true);
      expect(await item.innerText()).toMatch(/^message \d[\d,]*, [a-z ]+ \((dropped|cut)\): \S/);
      expect(await item.locator("code").count()).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
