/** A progress bar on stderr, only when stderr is a terminal and the work is long enough to watch. */

export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

const SILENT: Progress = { update() {}, done() {} };

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr, enabled = stream.isTTY === true): Progress {
  if (!enabled) return SILENT;
  const started = Date.now();
  let last = -1;
  let shown = false;
  return {
    update(done, total) {
      if (Date.now() - started < 300) return; // short jobs print nothing
      const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
      if (pct === last) return;
      last = pct;
      shown = true;
      const width = 30;
      const fill = Math.round((pct / 100) * width);
      stream.write(`\r${label} [${"#".repeat(fill)}${".".repeat(width - fill)}] ${String(pct).padStart(3)}%`);
    },
    done() {
      if (shown) stream.write("\r" + " ".repeat(label.length + 40) + "\r");
    },
  };
}
