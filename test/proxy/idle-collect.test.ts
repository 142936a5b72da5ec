import { afterEach, describe, expect, it, vi } from "vitest";
import { idleCollector, QUIET_MS, ROUNDS, v8Collect } from "../../proxy/http/idle-collect.js";

describe("the collection after a burst (proxy/http/idle-collect.ts)", () => {
  afterEach(() => void vi.useRealTimers());

  it("collects ROUNDS times, QUIET_MS apart, once the last request in flight ended", () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const idle = idleCollector(collect);
    idle.begin();
    idle.begin();
    idle.end(1);
    vi.advanceTimersByTime(QUIET_MS * 2);
    expect(collect).not.toHaveBeenCalled();
    idle.end(0);
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(QUIET_MS * 10);
    expect(collect).toHaveBeenCalledTimes(ROUNDS);
    expect(ROUNDS).toBe(2);
  });

  it("waits again when a request comes within the quiet time, and never after stop", () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const idle = idleCollector(collect, 100);
    idle.begin();
    idle.end(0);
    vi.advanceTimersByTime(60);
    idle.begin();
    vi.advanceTimersByTime(100);
    expect(collect).not.toHaveBeenCalled();
    idle.end(0);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.begin();
    vi.advanceTimersByTime(1000);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.end(0);
    idle.stop();
    vi.advanceTimersByTime(1000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it("reaches V8's collector without --expose-gc, and leaves the process's own globals as they were", () => {
    const had = typeof (globalThis as { gc?: unknown }).gc;
    const gc = v8Collect();
    expect(typeof gc).toBe("function");
    expect(() => gc()).not.toThrow();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(had);
  });
});
