/**
 * Sizing envelope candidates for the ladder arithmetically: the envelope's length is a sum of known
 * parts, so no candidate is rendered or checksummed (the plugin renders once, at the end). It also
 * holds what may be shed under pressure (the focus text, then the oldest files) and the time guard.
 */
import type { CompactResult, FileLists, TouchedFile } from "../core/platform/index.js";
import { platformTokens } from "./budget.js";
import { escapedLength, TEXT_UNSAFE, unsafeCount } from "./escape.js";
import { blockLength, envelopeLength, filesContent, type EnvelopeMessage } from "./envelope.js";

/** Milliseconds, from whatever clock the host has. */
export type Clock = () => number;

/** Thrown between steps once the time limit has passed. */
export class TimeUp extends Error {}

// The characters escapeText escapes that the core's parts may hold (lone surrogates the core already
// replaced): three plain searches per message, far cheaper in QuickJS than a regex or a full count.
const unsafe = (s: string): boolean => TEXT_UNSAFE.some((ch) => s.indexOf(ch) >= 0);

/**
 * The time guard: `tick` between steps of the plan, `step` inside long loops (the sizer's, and the
 * core's parts through the plugin's dialect: a read of the clock every 1,024 steps), so no single
 * step of the plan runs on past the deadline unseen.
 */
export interface Guard {
  tick(): void;
  step(): void;
}

export function timeGuard(now: Clock, deadline: number): Guard {
  let steps = 0;
  const tick = (): void => {
    if (now() > deadline) throw new TimeUp();
  };
  return { tick, step: () => void (++steps % 1024 === 0 && tick()) };
}

/** The envelope's two file lists from the touched files, newest first (the order the core gives them in). */
function listed(touched: readonly TouchedFile[]): FileLists {
  const lists: FileLists = { read: [], modified: [] };
  for (const f of touched) (f.modified ? lists.modified : lists.read).push(f.path);
  return lists;
}

export class EnvelopeSizer {
  /** The file lists the envelope will carry, newest first. */
  files: FileLists;
  focus: string | null;
  private touched: TouchedFile[];
  private filesChars: number;
  /** No handed text holds a character the envelope escapes, so parts are their own escaped length. */
  private readonly clean: boolean;
  private readonly blocks = new Map<string, number>();
  /** Rendered block length of each message, counted once per plan (-1: not yet). */
  private readonly blockChars: number[];
  /** Units each escaped part adds, counted once per part (only when some text is not clean). */
  private readonly partExtra = new Map<string, number>();
  /** Candidates sized so far (each without rendering). */
  probes = 0;

  constructor(private readonly all: readonly EnvelopeMessage[], touched: TouchedFile[], focus: string | null, private readonly guard: Guard) {
    guard.tick();
    this.touched = touched;
    this.files = listed(touched);
    this.filesChars = filesContent(this.files).length;
    this.focus = focus;
    this.clean = !all.some((m) => unsafe(m.content) || unsafe(m.role)) && (focus === null || !unsafe(focus));
    this.blockChars = new Array<number>(all.length).fill(-1);
  }


  /** Rendered length of the message blocks of all[from, to): each message counted once per plan, each range summed once. */
  private blocksLength(from: number, to: number): number {
    const key = from + ":" + to;
    let n = this.blocks.get(key);
    if (n === undefined) {
      n = 0;
      for (let i = from; i < to; i++) {
        if (this.blockChars[i] < 0) this.blockChars[i] = blockLength(this.all[i].role, escapedLength(this.all[i].content));
        n += this.blockChars[i];
        this.guard.step();
      }
      this.blocks.set(key, n);
    }
    return n;
  }

  /** Length of the escaped digest, by arithmetic: each part's escapes are counted once, never written. */
  private digestChars(parts: readonly string[], joined: number): number {
    let n = joined;
    if (this.clean) return n;
    for (const p of parts) {
      let extra = this.partExtra.get(p);
      if (extra === undefined) {
        extra = 4 * unsafeCount(p);
        this.partExtra.set(p, extra);
      }
      n += extra;
      this.guard.step();
    }
    return n;
  }

  /** Tokens of the envelope holding the first `headLen` messages as its task and nothing else. */
  alone(headLen: number): number {
    this.guard.tick();
    return platformTokens(envelopeLength({
      taskChars: this.blocksLength(0, headLen), taskCount: headLen, recentChars: 0, recentCount: 0, digestChars: 0, filesChars: 0, focusChars: null,
    }));
  }

  /** Tokens of the envelope for a candidate, with the files and focus not yet shed. */
  tokens(r: CompactResult, joined: number): number {
    this.guard.tick();
    this.probes++;
    const focusChars = this.focus === null ? null : escapedLength(this.focus);
    return platformTokens(envelopeLength({
      taskChars: this.blocksLength(0, r.headLen), taskCount: r.headLen,
      recentChars: this.blocksLength(r.cut, this.all.length), recentCount: this.all.length - r.cut,
      digestChars: this.digestChars(r.parts, joined), filesChars: this.filesChars, focusChars,
    }));
  }

  /** Drops the focus text, then as many of the oldest files as `excessTokens` asks; false once nothing is left. */
  shed(excessTokens: number): boolean {
    this.guard.tick();
    if (this.focus !== null) {
      this.focus = null;
      return true;
    }
    if (this.touched.length === 0) return false;
    // Each path costs its length and a line break; the section's tags go with the last path.
    let free = 0;
    let keep = this.touched.length;
    while (keep > 0 && free < excessTokens * 4) free += this.touched[--keep].path.length + 1;
    this.touched = this.touched.slice(0, keep);
    this.files = listed(this.touched);
    this.filesChars = filesContent(this.files).length;
    return true;
  }
}
