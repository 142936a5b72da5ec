/** What a recall gives back, whichever way it was asked: the tool result's text and what it recalled. */
export interface RecallAnswer {
  /** The tool result's text. */
  readonly text: string;
  /** A tool error: the input was not one the tool takes, or the ref names no text the history holds. */
  readonly isError: boolean;
  /** For a ref answered: which text, its whole length, and how many characters this answer gave of it. */
  readonly recalled?: { readonly ref: string; readonly chars: number; readonly given: number };
  /** For a search answered: how many lines matched. */
  readonly matches?: number;
}

