/**
 * The texts a request's history holds, by ref: exactly the texts a cliff hands the archive (a
 * dropped result as the model saw it, a cut call's full arguments), found by summarising each
 * message through the same part rules with every result dropped and every call cut, and the
 * archive hook collecting what it is given. One code path names a text in a summary and finds it
 * here, so every ref a summary writes is found. Built only when a recall is answered; linear in the
 * history's size (each message summarised once, each distinct text hashed once).
 */
import type { ArchivedKind } from "../archive.js";
import type { Config } from "../config/index.js";
import type { Dialect } from "../dialects/types.js";
import type { PartContext } from "../parts/context.js";
import { refOf } from "./ref.js";

/** One text the history holds: its ref, the text, what it was, and the first message that holds it. */
export interface RecallText {
  readonly ref: string;
  readonly text: string;
  readonly kind: ArchivedKind;
  readonly at: number;
}

// Every result past the length cap and no rule keeping any; every call over one character cut.
const EVERYTHING_DROPPED: Partial<Config> = {
  resultMaxChars: 0, cmdMaxChars: 1, editMaxChars: 0, planMaxChars: 0, errorTailMaxChars: 0, keepResultsOf: [], keepFiles: [],
  workingSetFileMaxChars: 0, askedTwiceMaxChars: 0, listingMaxChars: 0, backRefMaxChars: 0, outlineFileMaxChars: 0,
  keepThinking: false, thoughtMaxChars: 1, humanMaxChars: 1, tailFocus: false,
};

/** The texts of one history, by ref and in history order. */
export class RecallTexts {
  private readonly byRef = new Map<string, RecallText>();
  private readonly refOfText = new Map<string, string>();
  /** Distinct texts, oldest first. */
  readonly list: RecallText[] = [];

  /**
   * The texts of `messages[from, end)` as `dialect` reads them under `cfg` (the host's config; the
   * length caps are lifted here, so what a rule keeps of a text never hides it).
   */
  static of(messages: readonly unknown[], dialect: Dialect, cfg: Config, end = messages.length, from = 0): RecallTexts {
    const texts = new RecallTexts();
    let at = Math.max(0, from);
    const ctx: PartContext = {
      cfg: { ...cfg, ...EVERYTHING_DROPPED },
      archive: (text, kind) => {
        texts.add(text, kind, at);
        return "-";
      },
      onCall: (_name, args) => {
        // A whole write a re-read stub points at is kept as its new text alone (core/parts/stubbed-reads.ts).
        const content = args !== null && typeof args === "object" ? (args as { content?: unknown }).content : undefined;
        if (typeof content === "string" && content !== "") texts.add(content, "call", at);
      },
    };
    for (; at < end && at < messages.length; at++) dialect.summarize(messages[at], ctx);
    return texts;
  }

  private add(text: string, kind: ArchivedKind, at: number): void {
    if (this.refOfText.has(text)) return;
    const ref = refOf(text);
    this.refOfText.set(text, ref);
    // Two texts sharing 48 bits of hash: the older keeps the ref, as the history first named it.
    if (this.byRef.has(ref)) return;
    const t: RecallText = { ref, text, kind, at };
    this.byRef.set(ref, t);
    this.list.push(t);
  }

  get(ref: string): RecallText | undefined {
    return this.byRef.get(ref);
  }

  get size(): number {
    return this.list.length;
  }
}
