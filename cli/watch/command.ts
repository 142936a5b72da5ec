/**
 * `cliffcompaction watch`: a live view of a running proxy in the terminal (its status polled, its
 * events followed), redrawn at most four times a second and at each change of the terminal's
 * size; keys to pause, select a session, open its last cliff and quit. The terminal is restored on
 * every way out (q, Ctrl-C, a signal, an error). `--once` prints one plain frame and exits.
 */
import { numberFlag, UsageError, type Parsed } from "../args.js";
import { cliffFrame, type CliffView } from "./cliff.js";
import { followEvents, getJson, ProxyUnreachable, type EventStream } from "./client.js";
import { frame, type FrameState, type WatchEvent } from "./frame.js";
import { printWebUrl, tokenOf } from "./web.js";
import { adminHeaders, listenerHolds, NotProven } from "../admin-auth.js";

const MIN_REDRAW_MS = 250;
const POLL_MS = 1000;
const KEEP_EVENTS = 200;
const ONCE_EVENTS_MS = 2000;
const STATUS_PATH = "/_cliff/status?sessions=200";

function baseUrl(p: Parsed): string {
  if (typeof p.values.proxy === "string") {
    let u: URL;
    try {
      u = new URL(p.values.proxy);
    } catch {
      throw new UsageError(`--proxy must be a URL such as http://127.0.0.1:8257, got ${JSON.stringify(p.values.proxy)}`);
    }
    if (u.protocol !== "http:") throw new UsageError(`--proxy must be an http:// URL, got ${p.values.proxy}`);
    return u.origin;
  }
  return `http://127.0.0.1:${numberFlag(p.values, "port", 8257, 1, 65535, true)}`;
}

/** The proxy watched: its base URL and the headers that carry the admin token (when there is one to send). */
interface Target {
  base: string;
  headers: Record<string, string>;
}

/** What to say when the proxy refused the event stream: it wants the token. */
const refusedStream = (why: string): string | null => (/ 401$/.test(why) ? "the event stream needs the proxy's admin token (--admin-token-file FILE, or CLIFF_ADMIN_TOKEN_FILE)" : null);

/** The backlog of events, read until the stream says it is live (or a moment passes). */
function backlog(t: Target): Promise<{ events: WatchEvent[]; problem: string | null }> {
  return new Promise((resolve) => {
    const events: WatchEvent[] = [];
    let stream: EventStream | null = null;
    let problem: string | null = null;
    const done = (): void => {
      clearTimeout(timer);
      stream?.close();
      resolve({ events, problem });
    };
    const timer = setTimeout(done, ONCE_EVENTS_MS);
    // The proxy's backlog is at most 1,024 events: more is not a proxy of ours, and only the newest are shown.
    const onEvent = (e: WatchEvent): void => void (events.push(e) > KEEP_EVENTS && events.splice(0, events.length - KEEP_EVENTS));
    stream = followEvents(t.base, t.headers, { onEvent, onLive: done, onEnd: (why) => ((problem = refusedStream(why)), done()) });
  });
}

async function once(t: Target): Promise<number> {
  const status = await getJson(t.base, STATUS_PATH, t.headers);
  const { events, problem } = await backlog(t);
  const width = process.stdout.columns || 120;
  const lines = frame({ url: t.base, status, events, paused: false, selected: -1, problem, now: Date.now() }, width, 10_000, true);
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

export async function watchCommand(p: Parsed): Promise<number> {
  if (p.positionals.length > 0 || p.rest.length > 0) throw new UsageError("watch takes no FILE or command");
  const base = baseUrl(p);
  try {
    const t: Target = { base, headers: await adminHeaders(p, base) };
    if (p.values.web === true) return await printWebUrl(base, tokenOf(t.headers), t.headers);
    if (p.values.once === true) return await once(t);
    if (process.stdout.isTTY !== true || process.stdin.isTTY !== true) throw new UsageError("watch needs a terminal; for one plain frame, use watch --once");
    const status = await getJson(base, STATUS_PATH, t.headers);
    return await new Live(t, status).run();
  } catch (e) {
    if (!(e instanceof ProxyUnreachable) && !(e instanceof NotProven)) throw e;
    process.stderr.write(`cliffcompaction: ${e.message}\n`);
    return 1;
  }
}

/** The keys in one read from the terminal (a fast typist or a paste sends several): escape sequences kept whole. */
export function keys(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const m = text[i] === "\x1b" ? /^\x1b(\[[0-9;]*[A-Za-z~]|O[A-Za-z])?/.exec(text.slice(i)) : null;
    const k = m !== null ? m[0] : text[i];
    out.push(k);
    i += k.length;
  }
  return out;
}

const ENTER_SCREEN = "\x1b[?1049h\x1b[?25l";
const LEAVE_SCREEN = "\x1b[?25h\x1b[?1049l";

/** The live view: its state, its timers, the terminal it borrowed. */
class Live {
  private readonly state: FrameState;
  private cliff: CliffView | null = null;
  private readonly held: WatchEvent[] = [];
  private scroll = 0;
  private lastDraw = 0;
  private drawTimer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stream: EventStream | null = null;
  private finish: (code: number) => void = () => undefined;
  private restored = false;
  /** Why the proxy refused the event stream (it asks for the token): not asked again. */
  private refused: string | null = null;
  private readonly onKey = (data: Buffer): void => {
    for (const k of keys(data.toString("utf8"))) if (!this.restored) this.key(k);
  };
  private readonly onResize = (): void => this.redraw();
  private readonly onSignal = (): void => this.quit(130);
  private readonly onExit = (): void => this.restore();
  /** The listener proved it holds the token since the last failed request (a squatter may take the port while the proxy is away). */
  private proven = true;

  constructor(private readonly t: Target, status: unknown) {
    this.state = { url: t.base, status, events: [], paused: false, selected: 0, problem: null, now: Date.now() };
  }

  run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    process.stdout.write(ENTER_SCREEN);
    process.stdin.setRawMode(true);
    process.stdin.resume();
    process.stdin.on("data", this.onKey);
    process.stdout.on("resize", this.onResize);
    for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(s, this.onSignal);
    process.on("exit", this.onExit);
    this.follow();
    this.poll = setInterval(() => void this.refresh(), POLL_MS);
    this.redraw();
    return done;
  }

  private follow(): void {
    this.stream = followEvents(this.t.base, this.t.headers, {
      onEvent: (e) => {
        this.held.push(e);
        if (!this.state.paused) this.take();
      },
      onLive: () => this.redraw(),
      // The proxy went away: say so, and follow again at the next poll that finds it.
      onEnd: (why) => {
        this.stream = null;
        this.refused = refusedStream(why);
        this.proven = false;
      },
    });
  }

  /** Events that came while paused are shown on resuming. */
  private take(): void {
    const events = this.state.events as WatchEvent[];
    events.push(...this.held.splice(0));
    if (events.length > KEEP_EVENTS) events.splice(0, events.length - KEEP_EVENTS);
    this.redraw();
  }

  private async refresh(): Promise<void> {
    if (this.state.paused) return;
    try {
      await this.prove();
      this.state.status = await getJson(this.t.base, STATUS_PATH, this.t.headers);
      this.state.problem = this.refused;
      if (this.stream === null && this.refused === null) this.follow();
    } catch (e) {
      this.proven = false;
      this.state.problem = `${(e as Error).message}; retrying`;
    }
    this.redraw();
  }

  /** After a failure, the token goes out again only once the listener has proved it holds it. */
  private async prove(): Promise<void> {
    const token = tokenOf(this.t.headers);
    if (this.proven || token === undefined) return;
    const held = await listenerHolds(this.t.base, token);
    if (held === null) throw new ProxyUnreachable(`no proxy answers at ${this.t.base}`);
    if (!held) throw new NotProven(`${this.t.base} did not prove that it holds your admin token; not sending it`);
    this.proven = true;
  }

  /** Draws now, or at the earliest moment four-a-second allows. */
  private redraw(): void {
    if (this.restored || this.drawTimer !== null) return;
    const wait = this.lastDraw + MIN_REDRAW_MS - Date.now();
    if (wait > 0) {
      this.drawTimer = setTimeout(() => {
        this.drawTimer = null;
        this.redraw();
      }, wait);
      return;
    }
    this.lastDraw = Date.now();
    const width = process.stdout.columns || 100;
    const height = process.stdout.rows || 30;
    this.state.now = Date.now();
    const lines = this.cliff !== null ? cliffFrame(this.cliff, width, height, this.scroll) : frame(this.state, width, height, false);
    process.stdout.write("\x1b[H" + lines.map((l) => l + "\x1b[K").join("\r\n") + "\x1b[J");
  }

  private key(k: string): void {
    if (k === "q" || k === "\x03") return this.quit(0);
    const sessions: { id: string }[] = this.state.status?.sessions ?? [];
    const up = k === "\x1b[A" || k === "k";
    const down = k === "\x1b[B" || k === "j";
    if (this.cliff !== null) {
      if (k === "\x1b" || k === "\x1b[D" || k === "\x7f") this.cliff = null;
      else if (up) this.scroll = Math.max(0, this.scroll - 1);
      else if (down) this.scroll++;
    } else if (k === "p") {
      this.state.paused = !this.state.paused;
      if (!this.state.paused) this.take();
    }
    else if (up) this.state.selected = Math.max(0, this.state.selected - 1);
    else if (down) this.state.selected = Math.min(sessions.length - 1, this.state.selected + 1);
    else if ((k === "\r" || k === "\n") && sessions[this.state.selected] !== undefined) return void this.open(sessions[this.state.selected].id);
    this.redraw();
  }

  private async open(id: string): Promise<void> {
    try {
      await this.prove();
      this.cliff = (await getJson(this.t.base, `/_cliff/sessions/${id}/last-cliff`, this.t.headers)) as CliffView;
      this.scroll = 0;
    } catch (e) {
      this.state.problem = (e as Error).message;
    }
    this.redraw();
  }

  private quit(code: number): void {
    this.restore();
    this.finish(code);
  }

  /** Gives the terminal back as it was: cursor shown, main screen, cooked mode, stdin released. */
  private restore(): void {
    if (this.restored) return;
    this.restored = true;
    if (this.drawTimer !== null) clearTimeout(this.drawTimer);
    if (this.poll !== null) clearInterval(this.poll);
    this.stream?.close();
    process.stdin.off("data", this.onKey);
    process.stdout.off("resize", this.onResize);
    for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.off(s, this.onSignal);
    process.off("exit", this.onExit);
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    process.stdin.pause();
    process.stdout.write(LEAVE_SCREEN);
  }
}
