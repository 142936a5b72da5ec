/**
 * Where a JSON text first goes wrong, as a 1-based line number. JSON.parse on Node 20 often omits
 * the position, and a user with a broken 50 MB file needs to know where to look.
 */

/** A strict JSON walker that throws the offset of the first character it cannot accept. */
class Scanner {
  i = 0;
  constructor(private readonly text: string) {}

  private fail(): never {
    throw this.i;
  }

  ws(): void {
    const t = this.text;
    while (this.i < t.length && (t[this.i] === " " || t[this.i] === "\n" || t[this.i] === "\r" || t[this.i] === "\t")) this.i++;
  }

  value(): void {
    this.ws();
    const c = this.text[this.i];
    if (c === "{" || c === "[") return this.container(c);
    if (c === '"') return this.string();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.i, this.i + 400));
    if (m === null) this.fail();
    this.i += m[0].length;
  }

  private container(open: "{" | "["): void {
    const close = open === "{" ? "}" : "]";
    const t = this.text;
    this.i++;
    this.ws();
    if (t[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      if (open === "{") {
        this.ws();
        if (t[this.i] !== '"') this.fail();
        this.string();
        this.ws();
        if (t[this.i] !== ":") this.fail();
        this.i++;
      }
      this.value();
      this.ws();
      if (t[this.i] === close) {
        this.i++;
        return;
      }
      if (t[this.i] !== ",") this.fail();
      this.i++;
    }
  }

  private string(): void {
    const t = this.text;
    this.i++;
    while (this.i < t.length && t[this.i] !== '"') {
      if (t.charCodeAt(this.i) < 0x20) this.fail();
      this.i += t[this.i] === "\\" ? 2 : 1;
    }
    if (this.i >= t.length) this.fail();
    this.i++;
  }
}

export function jsonErrorLine(text: string): number | undefined {
  const s = new Scanner(text);
  try {
    s.value();
    s.ws();
    if (s.i < text.length) throw s.i;
    return undefined;
  } catch (at) {
    if (typeof at !== "number") return undefined; // too deep to walk: no line to report
    let line = 1;
    for (let k = 0; k < Math.min(at, text.length); k++) if (text.charCodeAt(k) === 10) line++;
    return line;
  }
}
