/**
 * The report's cliff view readable at a laptop's width (1,280 px) and a phone's (390 px) on real
 * sessions: every Claude Code, Codex and Pi session of the corpus (skipped when the corpus is
 * absent: ../shared/corpus, or where CLIFF_CORPUS says) and the example session, every cliff open.
 * The page never grows sideways (long lines wrap or scroll inside their own box) and each cliff's
 * summary column keeps at least a third of the width.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LAUNCH = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const CORPUS = process.env.CLIFF_CORPUS ?? fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const FAMILIES = /^(claudecode|codex|pi)[_-].*\.jsonl$/;
const corpus = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => FAMILIES.test(f)).sort() : [];
const WIDTHS = [1280, 390];

let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), "cliff-report-widths-"));
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH });
});
afterAll(async () => {
  await browser?.close();
});

/** The report of `session` at a threshold low enough that it cliffs (30,000 tokens, else 8,000 for a short session). */
function report(session: string, name: string): string {
  const file = join(dir, `${name}.html`);
  for (const threshold of ["30000", "8000"]) {
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "report", session, "--threshold", threshold, "-o", file], { encoding: "utf8", timeout: 300_000 });
    expect(r.status, r.stderr).toBe(0);
    if (readFileSync(file, "utf8").includes('<details id="cliff-1"')) break;
  }
  return file;
}

/** At each width, every cliff open: the page's width, and each cliff's summary column against the viewport. */
async function measure(file: string): Promise<{ width: number; scrollWidth: number; cliffs: number; narrowest: number }[]> {
  const out = [];
  for (const width of WIDTHS) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    try {
      await page.goto(pathToFileURL(file).href);
      await page.evaluate(() => (globalThis as any).document.querySelectorAll("details").forEach((d: any) => d.setAttribute("open", "")));
      const m = await page.evaluate(() => {
        const doc = (globalThis as any).document;
        const columns = [...doc.querySelectorAll("details .summary-text")].map((pre: any) => pre.parentElement.getBoundingClientRect().width as number);
        return { scrollWidth: doc.documentElement.scrollWidth as number, cliffs: columns.length, narrowest: columns.length === 0 ? Infinity : Math.min(...columns) };
      });
      out.push({ width, ...m });
    } finally {
      await page.close();
    }
  }
  return out;
}

const sessions: [string, string][] = [["the example session", fileURLToPath(new URL("../../examples/session.json", import.meta.url))], ...corpus.map((f): [string, string] => [f, join(CORPUS, f)])];

describe("the report's cliff view at 1,280 and 390 px", () => {
  it("covers a Claude Code, a Codex and a Pi session when the corpus is there", () => {
    if (corpus.length === 0) return;
    for (const family of ["claudecode", "codex", "pi"]) expect(corpus.some((f) => f.startsWith(family)), family).toBe(true);
  });

  it.each(sessions)("%s: no sideways page, the summary column at least a third of the width", async (name, session) => {
    const file = report(session, name.replace(/\W+/g, "-"));
    // A transcript that starts after its own compaction may hold too few requests to cliff at all.
    const short = (JSON.parse(readFileSync(file, "utf8").match(/<script type="application\/json" id="cliff-data">([^<]*)<\/script>/)![1]) as { requests: number }).requests < 5;
    for (const m of await measure(file)) {
      if (!short) expect(m.cliffs, `${name} at ${m.width}px: cliffs open`).toBeGreaterThan(0);
      expect(m.scrollWidth, `${name} at ${m.width}px: page width`).toBeLessThanOrEqual(m.width);
      expect(m.narrowest, `${name} at ${m.width}px: narrowest summary column`).toBeGreaterThanOrEqual(m.width / 3);
    }
  }, 600_000);
});
