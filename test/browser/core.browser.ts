/**
 * The core in headless Chromium, as a page imports dist/core.mjs: the estimate's SIMD scan runs
 * there (WebAssembly and TextEncoder), counts exactly, and hands the browser's encoder each
 * character once (Blink copies all of the source it is handed, so pieces must be sliced to size).
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function serveCore(): Promise<http.Server> {
  const core = readFileSync("dist/core.mjs", "utf8");
  const server = http.createServer((req, res) => {
    const isCore = req.url === "/core.mjs";
    res.writeHead(200, { "content-type": isCore ? "text/javascript" : "text/html" });
    res.end(isCore ? core : "<!doctype html><title>core</title>");
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("the core in a browser", () => {
  it("counts every string exactly with the scan, and hands the encoder each character once", async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package or set CHROMIUM_PATH`);
    const server = await serveCore();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      // A string, not a function: the test runner would rewrite a dynamic import inside a function.
      const result = (await page.evaluate(`(async () => {
        const handed = [];
        const encodeInto = TextEncoder.prototype.encodeInto;
        TextEncoder.prototype.encodeInto = function (source, out) {
          handed.push(source.length);
          return encodeInto.call(this, source, out);
        };
        const core = await import("/core.mjs");
        const strings = ['a"b\\\\c\\n\\t\\r', "😀\\ud800x".repeat(50), "\\u0001".repeat(30) + "y".repeat(40), "plain text ".repeat(1000), 'é"😀\\n'.repeat(100000)];
        const exact = strings.map((s) => core.pythonJsonLength(s) === JSON.stringify(s).length);
        handed.length = 0;
        const long = 'code "x"\\n'.repeat(1000000);
        const counted = core.pythonJsonLength(long) === JSON.stringify(long).length;
        return { exact, counted, handed: handed.reduce((a, b) => a + b, 0), length: long.length };
      })()`)) as { exact: boolean[]; counted: boolean; handed: number; length: number };
      expect(result.exact).toEqual([true, true, true, true, true]);
      expect(result.counted).toBe(true);
      // The scan ran (the encoder was used) and read the 9 MB string once, not once per piece.
      expect(result.handed).toBe(result.length);
    } finally {
      await browser.close();
      server.close();
    }
  });
});
