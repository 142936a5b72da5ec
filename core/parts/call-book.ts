/**
 * What the recall rules need to know across messages of one compacted list: the call each result
 * answers (by id, or the nearest earlier call for a result that names none) and which messages
 * hold a plan. Kept by position in the body, so a pass that reuses cached parts still finds the
 * calls an earlier pass over the same list recorded (every pass covers a prefix of the body).
 */

import type { Config } from "../config/index.js";

// A sandbox build whose config never turns back-references on leaves them out (build.mjs defines this).
declare const __CLIFF_BACK_REFS__: boolean | undefined;
// A sandbox build whose config never turns asked-twice on leaves it out (build.mjs defines this).
declare const __CLIFF_ASKED_TWICE__: boolean | undefined;

/** Whether a pass under `cfg` keeps a book: the plan rule needs one (and the pins, to find a result's call). */
export function needsBook(cfg: Config): boolean {
  return cfg.planMaxChars > 0 || (!(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && cfg.askedTwiceMaxChars > 0 && cfg.askedTwiceTotalMaxChars > 0) || cfg.workingSetFileMaxChars > 0 || (!(typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) && cfg.backRefMaxChars > 0) || (cfg.pinMaxChars > 0 && (cfg.keepResultsOf.length > 0 || cfg.keepFiles.length > 0));
}

export interface BookedCall {
  readonly name: unknown;
  readonly args: unknown;
  /** The call's repeat key (core/repeats/call-key.ts), once a rule has made it. */
  key?: string;
}

/** How far back a result without a call id looks for the call it answers. */
const PAIRING_REACH = 16;

export class CallBook {
  private index = 0;
  /**
   * Messages made under this book so far, the one being made included. A message a later pass makes
   * again (the parts cache remakes those that read the focus: each pass's tail gives its own) notes
   * its copies afresh (CopyBook), so they are that pass's, as a fresh compaction's would be.
   */
  making = 0;

  /** Body index of the message being summarised (set before each message: each setting is a new making). */
  get at(): number {
    return this.index;
  }
  set at(i: number) {
    this.index = i;
    this.making++;
  }
  private readonly byId = new Map<unknown, BookedCall>();
  private readonly lastAt = new Map<number, BookedCall>();
  private readonly plans = new Set<number>();

  record(id: unknown, name: unknown, args: unknown): BookedCall {
    const call: BookedCall = { name, args };
    if (typeof id === "string" && id !== "") this.byId.set(id, call);
    this.lastAt.set(this.at, call);
    return call;
  }

  /** The call a result answers: by its id, else the newest call of the nearest earlier message that made one. */
  callOf(id: unknown): BookedCall | undefined {
    if (typeof id === "string" && id !== "") {
      const c = this.byId.get(id);
      if (c !== undefined) return c;
    }
    for (let i = this.index; i >= 0 && i >= this.index - PAIRING_REACH; i--) {
      const c = this.lastAt.get(i);
      if (c !== undefined) return c;
    }
    return undefined;
  }

  /** The message being summarised ends its parts with a plan. */
  notePlan(): void {
    this.plans.add(this.at);
  }

  hasPlan(at: number): boolean {
    return this.plans.has(at);
  }

  /** The newest body index before `end` that holds a plan, or -1. */
  latestPlanBefore(end: number): number {
    let best = -1;
    for (const i of this.plans) if (i < end && i > best) best = i;
    return best;
  }
}
