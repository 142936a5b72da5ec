/**
 * `simulate` on a session that never reaches its threshold says so (the threshold, where it came
 * from, the peak) and offers one that would show cliffs, instead of a bare "0.0% less".
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";

const EXAMPLE = new URL("../../examples/session.json", import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", "simulate", EXAMPLE, ...args], { encoding: "utf8" });
const NOTE = /^note      the session never reached (the default threshold|its threshold), ([\d,]+) \((.*)\): its context peaked at ([\d,]+) tokens, (\d+)% of it, so there was nothing to compact and the bills are the same\. To see where it would cliff, try --threshold (\d+) \(half its peak\)\.$/m;

describe("simulate below its threshold", () => {
  it("at the default threshold: names it and its source, the peak, and a threshold to try, in place of the saving", () => {
    const r = cli();
    expect(r.status).toBe(0);
    const m = r.stdout.match(NOTE);
    expect(m, r.stdout).not.toBeNull();
    expect(m![1]).toBe("the default threshold");
    expect(m![3]).toMatch(/^the proxy's default for /);
    const threshold = Number(m![2].replace(/,/g, ""));
    const peak = Number(m![4].replace(/,/g, ""));
    expect(peak).toBeLessThanOrEqual(threshold);
    expect(Number(m![5])).toBe(Math.floor((100 * peak) / threshold));
    expect(r.stdout).toMatch(/^cliffs    0 /m);
    expect(r.stdout).not.toContain("% less than no compaction");
    // The threshold offered does show cliffs.
    const tried = cli("--threshold", m![6]);
    expect(tried.stdout).not.toMatch(NOTE);
    expect(tried.stdout).toMatch(/^cliffs    [1-9]/m);
    expect(tried.stdout).toContain("% less than no compaction");
  });

  it("at a threshold that was set: says it was set, and --json says whether the session reached it", () => {
    const r = cli("--threshold", "900000");
    expect(r.stdout.match(NOTE)?.[1]).toBe("its threshold");
    expect(r.stdout.match(NOTE)?.[3]).toBe("set by --threshold");
    expect(JSON.parse(cli("--threshold", "900000", "--json").stdout).reachedThreshold).toBe(false);
    expect(JSON.parse(cli("--threshold", "12000", "--json").stdout).reachedThreshold).toBe(true);
  });
});
