/**
 * One cliff for a host that hands a platform one summary text (the AgentParley plugin; any host that
 * cannot keep the head and the kept turns as messages of their own): the head, the kept turns, the
 * summary's digest and the files to list, planned by the ladder and fitted to the host's budget by
 * the host's own arithmetic over its text. The host parses its input, calls this once, and renders.
 */
import type { Config } from "../config/index.js";
import { plain } from "../dialects/plain.js";
import type { Dialect } from "../dialects/types.js";
import { filesTouched, filesTouchedInPlan, FileTracker, type FileLists, type TouchedFile } from "../files.js";
import { parseFocus } from "../focus.js";
import { planCliff, type Rung } from "../ladder.js";
import { headOf, PartsCache, type CompactResult } from "../compact.js";
import { joinedLength, joinParts } from "../summary.js";

/** The host's arithmetic over its own text: what a candidate costs, what it may shed. */
export interface HandoffFit {
  /** Tokens of the host's text for a candidate (the head, the parts joined in `joined` units, the kept turns), with whatever is not yet shed. */
  tokens(candidate: CompactResult, joined: number): number;
  /** Drops what the host may (a focus line, its oldest files) for `excessTokens`; false once nothing is left. */
  shed(excessTokens: number): boolean;
  /** Tokens of the host's text holding the first `headLen` messages and nothing else. */
  alone(headLen: number): number;
}

export interface HandoffInput<M> {
  /** `{role, content}` messages: the task a previous summary carried (if any), then the live ones. */
  messages: readonly M[];
  /** messages[0, taskLength) are that carried task, the head whatever its turns (undefined: no previous summary). */
  taskLength?: number;
  /** The file lists a previous summary carried, newest first. */
  files?: FileLists;
  /** A focus the platform asked for (its terms' lines are kept from dropped results). */
  focus: string | null;
  /** Tokens the host's text may take. */
  budget: number;
  /** Tokens of what the host's text replaces: a candidate must be smaller. */
  replaces: number;
  /** The host's fit, made once the files its text lists are known (newest first, within the config's bounds). */
  fit(files: TouchedFile[]): HandoffFit;
  /** Called once per message the core summarises (a host's time guard may throw from it). */
  step(): void;
}

/** What the host renders; no `kept` when the head alone, or the best plan (its rung), is over the budget. */
export type Handoff<M> =
  | { head: M[]; digest: string; parts: number; kept: M[]; rung: Rung }
  | { kept?: undefined; rung: Rung };

/** The plain dialect, stepping the host's guard once per message the core summarises. */
function stepping(step: () => void): Dialect {
  const d: Dialect = Object.create(plain);
  d.summarize = (m, c) => {
    step();
    return plain.summarize(m, c);
  };
  return d;
}

/** The plan for `input`; null when no rung could compact. */
export function handOff<M>(input: HandoffInput<M>, config: Config): Handoff<M> | null {
  const { messages: all, taskLength, files: carried, budget } = input;
  // One cache for every pass over these messages: the file lists and each rung decode them once.
  const partsCache = new PartsCache();
  const dialect = stepping(input.step);
  const files = new FileTracker();
  // Lists are written newest first; the tracker takes the oldest first.
  if (carried !== undefined) files.add(carried.read.slice().reverse(), carried.modified.slice().reverse());
  const headLen = headOf(all, dialect, { headLen: taskLength });
  // Where the rungs reuse parts, the file-list pass is also the first rung's: its parts are made once, there.
  if (PartsCache.reusable(config) && headLen !== null) filesTouchedInPlan(all, headLen, dialect, config, partsCache, files);
  else filesTouched(all.slice(taskLength ?? 0), dialect, files, partsCache.decoded);
  const fit = input.fit(files.newest(config.filesMaxPaths, config.filesMaxChars));
  const plan = planCliff(all, dialect, config, Math.min(budget, input.replaces - 1), {
    headLen: headLen ?? undefined,
    focus: parseFocus(input.focus),
    finalKeepRecent: 0,
    mustCompact: true,
    hostJudgesGain: true,
    partsCache,
    measure: (r) => fit.tokens(r, joinedLength(r.parts)),
    shed: (excess) => fit.shed(excess),
    // The head is never cut: when it alone does not fit the budget, no rung runs.
    floor: (h) => (fit.alone(h) > budget ? Infinity : 0),
  });
  const r = plan.result;
  const rung = plan.rung;
  // The plan's size is known by arithmetic: a text the budget refuses is never rendered.
  if (plan.headOverBudget === true || (r !== null && plan.estTokens > budget)) return { rung };
  if (r === null) return null;
  return { head: all.slice(0, r.headLen), digest: joinParts(r.parts), parts: r.parts.length, kept: all.slice(r.cut), rung };
}
