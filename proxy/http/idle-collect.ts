/**
 * A full collection once the proxy has been quiet for a while after serving requests. Under a
 * burst V8 grows its heap for the garbage of the bodies in flight (a parsed history is a few
 * times its bytes); when the burst ends nothing allocates, so nothing collects, and a replica sat
 * idle on that garbage (and on the buffers it keeps alive) for as long as no request came. Two
 * collections once QUIET_MS passed without a request in flight give it back: tens of milliseconds
 * of a process with nothing else to do, twice per burst.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export const QUIET_MS = 5_000;
/**
 * Collections per quiet spell, QUIET_MS apart. The first frees the burst's garbage; V8 gives back
 * the pages it emptied, and the buffers those objects held go back to the allocator, only with the
 * next (measured: 89 MiB of heap committed after one, 41 after two).
 */
export const ROUNDS = 2;

/** V8's own full collection, reached without starting node with `--expose-gc`. */
export function v8Collect(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  // Only the new context gets `gc`; the flag goes back off so nothing else in the process changes.
  setFlagsFromString("--no-expose-gc");
  return gc;
}

export interface IdleCollector {
  /** A request began. */
  begin(): void;
  /** A request ended; `inFlight` is how many are still being served. */
  end(inFlight: number): void;
  stop(): void;
}

export function idleCollector(collect: () => void, quietMs = QUIET_MS): IdleCollector {
  let timer: NodeJS.Timeout | undefined;
  const cancel = (): void => {
    clearTimeout(timer);
    timer = undefined;
  };
  // A timer of housekeeping never keeps the process alive.
  const schedule = (rounds: number): void => {
    timer = setTimeout(() => {
      timer = undefined;
      collect();
      if (rounds > 1) schedule(rounds - 1);
    }, quietMs);
    timer.unref();
  };
  return {
    begin: cancel,
    end(inFlight) {
      if (inFlight > 0) return;
      cancel();
      schedule(ROUNDS);
    },
    stop: cancel,
  };
}
