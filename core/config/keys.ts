/**
 * The configuration record: one object, camelCase, each key with what it means. Its defaults are
 * in defaults.ts, how each key is written in kinds.ts, validation and merging in resolve.ts;
 * reading files or the environment is each host's job.
 */

/** Named groups of defaults: "reference" is the reference's behaviour byte for byte. */
export type Profile = "reference" | "recall";

export interface Config {
  /** Which group of defaults the other keys start from; an explicit key always wins over it. */
  profile: Profile;
  /** false: hosts step aside and let their own compaction run. */
  enabled: boolean;
  /** Context size (estimated tokens) at which the engine compacts; hosts use it for strict mode and overBudget. */
  thresholdTokens: number;
  /** Newest assistant-step turns kept verbatim. */
  keepRecent: number;
  /** Cap on assistant text in a summary; 0 = unlimited (the paper used 300). */
  thoughtMaxChars: number;
  /** Cap on a tool-call signature's arguments. */
  cmdMaxChars: number;
  /** Tool results up to this length (after stripping) are kept; longer ones are dropped. */
  resultMaxChars: number;
  /** Sanity cap on human text in a summary. */
  humanMaxChars: number;
  /** Fold thinking into the summary as text. */
  keepThinking: boolean;
  /** Cap on thinking text; 0 = unlimited. */
  thinkingMaxChars: number;
  /** Report what would happen, change nothing. */
  shadow: boolean;
  /** Walk rung 3 (truncate the summary itself) when still over the threshold. */
  strict: boolean;
  /** Prefix store bounds (engine). */
  storeMaxEntries: number;
  storeMaxBytes: number;
  /** AgentParley: the summary must stay within this fraction of the compaction threshold. */
  maxSummaryRatio: number;
  /** Focus excerpts: at most this many characters from one dropped result, and in all. */
  focusResultMaxChars: number;
  focusTotalMaxChars: number;
  /** Focus excerpts: lines of context kept either side of a matching line. */
  focusContextLines: number;
  /** File lists a summary carries forward (AgentParley envelope, engine when appendFileLists): at most this many paths, newest kept. */
  filesMaxPaths: number;
  /** …and at most this many characters of paths. */
  filesMaxChars: number;
  /** Engine: append the files read and modified to the summary (off: the reference's byte-exact summary). */
  appendFileLists: boolean;
  /**
   * Name each dropped tool result and each cut call in a summary by its ref (the first 12 hex digits
   * of the SHA-256 of its text), which the recall tool answers; off: the reference's lines, no refs.
   */
  refs: boolean;
  /**
   * An export, off unless asked for: write every dropped tool result and cut call to a folder too
   * (the summary names each by its ref whether or not it is written).
   */
  archive: boolean;
  /**
   * Hosts that answer a recall (the proxy, Pi/OMP): a compacted request offers the model the
   * `cliff_recall` tool, which brings back a dropped text by the ref its summary names, or
   * searches the earlier history; the host answers it from the history it holds.
   */
  recallTool: boolean;
  /** The export's folder ("" = the host's default). */
  archiveDir: string;
  /** Bound on the archive folder's bytes; the least recently archived files go first. */
  archiveMaxBytes: number;
  /**
   * After a cliff, the next one waits until the context has grown this many tokens beyond what
   * the cliff left (0: every crossing cliffs, the reference's rule). Hosts that serve sessions
   * default it to a tenth of the threshold.
   */
  minGainTokens: number;
  /** Proxy: scale the estimate per session by the provider's reported input tokens (bounded; changes only at a cliff). */
  calibrate: boolean;
  /** Recall rule: an edit or write call shows its new text (the input's own lines) up to this many characters; 0 = off. */
  editMaxChars: number;
  /** Recall rule: a failed result too long to keep shows its last lines (and a stated exit code) up to this many characters; 0 = off. */
  errorTailMaxChars: number;
  /** Recall rule: the newest plan (todo list, plan update) in the span kept whole up to this many characters, older ones dropped; 0 = off. */
  planMaxChars: number;
  /** Recall rule: the distinctive terms of the kept tail act as a focus on results the length rule drops. */
  tailFocus: boolean;
  /** Pins: results of tools whose name matches one of these globs are kept whole, up to pinMaxChars. */
  keepResultsOf: readonly string[];
  /** Pins: results of reads of files whose path matches one of these globs are kept whole, up to pinMaxChars. */
  keepFiles: readonly string[];
  /** Cap on a pinned result (longer ones keep their start); 0 = pins off. */
  pinMaxChars: number;
  /**
   * Claude Code's re-read stubs: when a kept tool result says a file is unchanged since an earlier
   * Read, the newest whole Read of it that the cliff dropped is kept in the summary (as a pin, within
   * pinMaxChars). A correctness rule: on in every profile, the reference one included.
   */
  keepStubbedReads: boolean;
  /** Recall rule: a kept Edit/Write result that says the file's state is in context keeps the file's newest text the cliff dropped (as a pin). */
  keepEditedFiles: boolean;
  /** Recall rule (the working set): the newest read or whole write of each file in the span keeps its text up to this many characters, older copies are superseded; 0 = off. */
  workingSetFileMaxChars: number;
  /** …and the newest copies share at most this many characters, newest first (the rest keep what the other rules keep). */
  workingSetMaxChars: number;
  /**
   * Recall rule (outlines, with the working set): a file the span read or wrote whose newest copy the
   * summary does not hold whole keeps its defining lines (functions, classes, types, exported names,
   * headings), verbatim, up to this many characters a file; 0 = off.
   */
  outlineFileMaxChars: number;
  /** …at most this many characters over all files, newest first. */
  outlineMaxChars: number;
  /** Recall rule (listings): a dropped result that is mostly paths or `path:line:` hits keeps its distinct paths and anchors, up to this many characters; 0 = off. */
  listingMaxChars: number;
  /** Recall rule (back-references): a dropped result gives the lines a later message of the span names, up to this many characters; 0 = off. */
  backRefMaxChars: number;
  /** …at most this many characters over all results, newest first. */
  backRefTotalMaxChars: number;
  /** Recall rule (asked twice): the newest result of a call the history repeats (the same file read again, the same tool and arguments) keeps up to this many characters; 0 = off. */
  askedTwiceMaxChars: number;
  /** …at most this many characters over all such results, newest first (a file read twice that the working set lets fall back past its own total draws on it too). */
  askedTwiceTotalMaxChars: number;
}
