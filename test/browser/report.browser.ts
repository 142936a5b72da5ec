/**
 * The HTML report in headless Chromium (Debian's chromium package): it opens from disk with no
 * console errors and no request leaving the page, the chart area is drawn, and a screenshot goes
 * to docs/report.png for the README.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe("the report in a browser", () => {
  it("opens without console errors, draws its chart, and is screenshotted", async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
    }
    const file = join(mkdtempSync(join(tmpdir(), "cliff-browser-")), "report.html");
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "report", "examples/session.json", "--threshold", "20000", "-o", file], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1180, height: 1400 } });
      const problems: string[] = [];
      page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
      page.on("pageerror", (e) => problems.push(String(e)));
      page.on("request", (req) => !req.url().startsWith("file:") && problems.push("request to " + req.url()));
      await page.goto(pathToFileURL(file).href);
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
});
