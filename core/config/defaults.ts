/**
 * The defaults (the recall profile's), the reference proxy's own defaults, and the profiles: named
 * groups of defaults laid over them.
 */
import type { Config, Profile } from "./keys.js";

// A sandbox build whose config never turns back-references on leaves their keys out (build.mjs defines this).
declare const __CLIFF_BACK_REFS__: boolean | undefined;
type BackRefKeys = Pick<Config, "backRefMaxChars" | "backRefTotalMaxChars">;
// A sandbox build whose config never turns asked-twice on leaves it out, its keys included (build.mjs defines this).
declare const __CLIFF_ASKED_TWICE__: boolean | undefined;
type AskedKeys = Pick<Config, "askedTwiceMaxChars" | "askedTwiceTotalMaxChars">;

/** The reference proxy's defaults: what `profile: "reference"` gives, byte for byte. */
export const REFERENCE_CONFIG: Readonly<Config> = Object.freeze({
  profile: "reference" as Profile,
  enabled: true,
  thresholdTokens: 200000,
  keepRecent: 3,
  thoughtMaxChars: 0,
  cmdMaxChars: 150,
  resultMaxChars: 500,
  humanMaxChars: 20000,
  keepThinking: true,
  thinkingMaxChars: 0,
  shadow: false,
  strict: false,
  storeMaxEntries: 4096,
  storeMaxBytes: 67108864,
  maxSummaryRatio: 0.45,
  focusResultMaxChars: 800,
  focusTotalMaxChars: 6000,
  focusContextLines: 1,
  filesMaxPaths: 200,
  filesMaxChars: 16000,
  appendFileLists: false,
  refs: false,
  archive: false,
  recallTool: false,
  archiveDir: "",
  archiveMaxBytes: 268435456,
  minGainTokens: 0,
  calibrate: false,
  // The recall rules: off (the reference's output), on in the recall profile.
  editMaxChars: 0, errorTailMaxChars: 0, planMaxChars: 0, tailFocus: false,
  keepResultsOf: Object.freeze([]) as readonly string[], keepFiles: Object.freeze([]) as readonly string[], pinMaxChars: 4000,
  // The one rule on in the reference profile too: its output changes only for a history that holds a stub.
  keepStubbedReads: true, keepEditedFiles: false,
  workingSetFileMaxChars: 0, workingSetMaxChars: 40000,
  ...((typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ ? {} : { askedTwiceMaxChars: 0, askedTwiceTotalMaxChars: 16000 }) as AskedKeys),
  outlineFileMaxChars: 0, outlineMaxChars: 6000, listingMaxChars: 0,
  ...((typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ ? {} : { backRefMaxChars: 0, backRefTotalMaxChars: 2000 }) as BackRefKeys),
});

/**
 * What the recall profile sets over the reference's defaults. The values are tuned by the retention bench on the corpus's tuning half and kept where they also
 * pay on its checking half (docs/retention.md): edits and whole writes to 16,000 characters, the
 * working set (each file's newest read or write, older copies superseded), commands to 1,000;
 * long user text (tool output some agents send as user messages) and assistant text are capped,
 * the tail focus kept small (errorTailMaxChars gained nothing and stays off); back-references pay
 * a little on the checking half (+0.6 held for +1.1 kept) and lower no family. The pins cost nothing
 * where no such file is read. Each dropped text is named by its ref, which a host that holds the history answers.
 */
const RECALL: Readonly<Partial<Config>> = Object.freeze({
  editMaxChars: 16000, workingSetFileMaxChars: 16000, workingSetMaxChars: 40000, planMaxChars: 3000, cmdMaxChars: 1000,
  humanMaxChars: 1000, thoughtMaxChars: 2000, keepThinking: false, resultMaxChars: 200,
  tailFocus: true, focusContextLines: 1, focusResultMaxChars: 500, focusTotalMaxChars: 1000, keepFiles: Object.freeze(["AGENTS.md", "CLAUDE.md"]), refs: true, recallTool: true,
  keepEditedFiles: true, outlineFileMaxChars: 1500, outlineMaxChars: 6000, listingMaxChars: 1500,
  ...((typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ ? {} : { askedTwiceMaxChars: 8000, askedTwiceTotalMaxChars: 16000 }) as AskedKeys),
  ...((typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ ? {} : { backRefMaxChars: 800, backRefTotalMaxChars: 2000 }) as BackRefKeys),
});

/** The reference's own value of every key the recall profile sets: laid over the defaults, they give REFERENCE_CONFIG. */
function referenceValues(): Partial<Config> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(RECALL)) out[key] = (REFERENCE_CONFIG as unknown as Record<string, unknown>)[key];
  return Object.freeze(out) as Partial<Config>;
}

/**
 * What each profile supplies over the defaults. The one place a profile is defined: rules read
 * their own keys, never the profile's name. Recall is the default; reference sets back every key
 * recall changes, so `profile: "reference"` gives the reference's output whatever the defaults are.
 */
export const PROFILES: { readonly [P in Profile]: Readonly<Partial<Config>> } = { reference: referenceValues(), recall: RECALL };

/** The defaults every host starts from: the recall profile over the reference's defaults. */
export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({ ...REFERENCE_CONFIG, ...RECALL, profile: "recall" as Profile });
