import { describe, expect, it } from "vitest";
import { boundCalibration, CALIBRATION_MAX, CALIBRATION_MIN, Engine, observedCalibration, type PrepareContext } from "../../core/index.js";
import { aBody, aSession } from "../helpers/sessions.js";

const bytes = (ctx: PrepareContext): string => JSON.stringify(ctx.outgoingBody());
const CFG = { thresholdTokens: 2000, keepRecent: 1 };

describe("calibration of the estimate", () => {
  it("is bounded and rounded to hundredths; anything unusable is 1", () => {
    expect([CALIBRATION_MIN, CALIBRATION_MAX]).toEqual([0.5, 2]);
    for (const bad of [undefined, null, NaN, Infinity, -1, 0, "1.5"]) expect(boundCalibration(bad)).toBe(1);
    expect([boundCalibration(0.1), boundCalibration(7), boundCalibration(1.234), boundCalibration(1.236)]).toEqual([0.5, 2, 1.23, 1.24]);
    expect(observedCalibration(1300, 1000)).toBe(1.3);
    expect(observedCalibration(10_000, 1000)).toBe(2);
    expect([observedCalibration(0, 1000), observedCalibration(1000, 0)]).toEqual([null, null]);
  });

  it("scales the estimate against the threshold: a body of about 1,500 tokens cliffs at 1.5, not at 1", () => {
    const s = aSession(4);
    const plain = new Engine(CFG).prepare(aBody(s), "anthropic");
    expect(plain.estTokensIn).toBeGreaterThan(1400);
    expect(plain.estTokensIn).toBeLessThan(2000);
    expect([plain.modified, plain.calibration]).toEqual([false, 1]);
    const scaled = new Engine(CFG).prepare(aBody(s), "anthropic", { calibration: 1.5 });
    expect([scaled.compacted, scaled.calibration]).toEqual([true, 1.5]);
    expect(Math.ceil(scaled.estTokensOut * 1.5)).toBeLessThanOrEqual(2000);
    expect(bytes(new Engine(CFG).prepare(aBody(s), "anthropic", { calibration: 1 }))).toBe(bytes(plain));
  });

  it("is part of what a stored cliff is keyed by", () => {
    const s = aSession(20);
    const e = new Engine(CFG);
    expect(e.prepare(aBody(s.slice(0, 31)), "anthropic", { calibration: 1.2 }).compacted).toBe(true);
    expect(e.prepare(aBody(s.slice(0, 33)), "anthropic", { calibration: 1.2 }).matched).toBe(true);
    expect(e.prepare(aBody(s.slice(0, 33)), "anthropic", { calibration: 1.3 }).matched).toBe(false);
    expect(e.prepare(aBody(s.slice(0, 33)), "anthropic").matched).toBe(false);
  });

  it("changes only at a cliff: a newer ratio is taken when the request cliffs, kept out when it does not", () => {
    const s = aSession(30);
    const e = new Engine(CFG);
    const first = e.prepare(aBody(s.slice(0, 31)), "anthropic", { calibration: 1, recalibrate: 1.3 });
    expect([first.compacted, first.calibration]).toEqual([true, 1.3]);
    const same = new Engine(CFG).prepare(aBody(s.slice(0, 31)), "anthropic", { calibration: 1.3 });
    expect(bytes(first)).toBe(bytes(same));
    const next = e.prepare(aBody(s.slice(0, 33)), "anthropic", { calibration: 1.3, recalibrate: 1.6 });
    expect([next.compacted, next.matched, next.calibration]).toEqual([false, true, 1.3]);
    const below = new Engine(CFG).prepare(aBody(s.slice(0, 5)), "anthropic", { calibration: 1, recalibrate: 1.9 });
    expect([below.modified, below.calibration]).toEqual([false, 1]);
  });

  it("scales the minimum gain too", () => {
    const s = aSession(40);
    const count = (calibration: number): number => {
      const e = new Engine({ ...CFG, minGainTokens: 3000 });
      let cliffs = 0;
      for (let n = 3; n <= s.length; n += 2) if (e.prepare(aBody(s.slice(0, n)), "anthropic", { calibration }).compacted) cliffs++;
      return cliffs;
    };
    expect(count(2)).toBeGreaterThan(count(1));
  });
});
