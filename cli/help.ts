/** The help texts, made from the flag table so every flag is listed with its default. */
import { appliesTo, FLAGS, type Command } from "./args.js";
import { FORMATS } from "./readers/index.js";

declare const __CLIFF_VERSION__: string;
export const VERSION = typeof __CLIFF_VERSION__ === "string" ? __CLIFF_VERSION__ : "dev";

const USAGE: Record<Command, { line: string; what: string; examples: string[] }> = {
  compact: {
    line: "compact FILE|- [options]",
    what: "compact once at the end of the session and report what was kept, excerpted and dropped",
    examples: [
      "cliffcompaction compact ~/.pi/agent/sessions/--home-me-repo--/2026-11-30T10-00-00-000Z_1234.jsonl",
      "cliffcompaction compact run.traj.json --keep-recent 1 --thought-max-chars 300 --lines 40",
      'cliffcompaction compact examples/session.json --host agentparley --focus "database port"',
      "cat request.json | cliffcompaction compact - --json > result.json",
    ],
  },
  simulate: {
    line: "simulate FILE|- [--threshold N] [options]",
    what: "replay the session request by request, cliff whenever the context crosses the threshold (each model's own unless --threshold N), and compare the bill",
    examples: ["cliffcompaction simulate examples/session.json --threshold 20000 --svg cliffs.svg --csv cliffs.csv"],
  },
  report: {
    line: "report FILE|- [-o report.html] [options]",
    what: "write one self-contained HTML report: the sawtooth, every cliff, the token anatomy, the bill",
    examples: ["cliffcompaction report ~/.codex/sessions/2026/11/30/rollout-2026-11-30T10-00-00-1234.jsonl -o report.html"],
  },
  serve: {
    line: "serve [--port 8257] [options]",
    what: "run the compacting proxy for API clients (Anthropic Messages, OpenAI Chat and Responses, Gemini generateContent)",
    examples: ["cliffcompaction serve --threshold 150000"],
  },
  run: {
    line: "run [options] -- COMMAND [ARGS…]",
    what: "start the proxy on a free loopback port and run an agent through it",
    examples: ["cliffcompaction run -- claude", "cliffcompaction run -- codex", "cliffcompaction run -- opencode", "cliffcompaction run -- copilot"],
  },
  enable: {
    line: "enable [--port 8257] [--name NAME] [--no-env] [--shell-profile FILE] [--codex] [serve's options]",
    what: "run the proxy always (a systemd user service or a launchd agent) and point the shell's base URLs at it",
    examples: ["cliffcompaction enable", "cliffcompaction enable --codex --threshold 100000", "cliffcompaction enable --name team --port 8258 --no-env"],
  },
  disable: {
    line: "disable [--name NAME]",
    what: "stop and remove the service, and take out exactly what enable added to the shell profile and Codex's config",
    examples: ["cliffcompaction disable"],
  },
  restart: {
    line: "restart [--name NAME]",
    what: "restart the service with the flags it was enabled with (after an upgrade, the new build)",
    examples: ["cliffcompaction restart", "cliffcompaction restart --name team"],
  },
  status: {
    line: "status [--name NAME] [--port N]",
    what: "whether the service runs, the proxy answers (and its settings), the shell is wired, and who holds the port",
    examples: ["cliffcompaction status"],
  },
  watch: {
    line: "watch [--port 8257] [--once | --web]",
    what: "a live view of a running proxy: its sessions, their context and cliffs, the bill, the newest events",
    examples: ["cliffcompaction watch", "cliffcompaction watch --once --port 8300", "cliffcompaction watch --web"],
  },
};

function flagLines(command: Command | undefined): string[] {
  const flags = FLAGS.filter((f) => command === undefined ? f.name === "help" || f.name === "version" : appliesTo(f, command));
  const left = flags.map((f) => `${f.short ? `-${f.short}, ` : ""}--${f.name}${f.value ? " " + f.value : ""}`);
  const width = Math.max(...left.map((l) => l.length)) + 2;
  return flags.map((f, i) => `  ${left[i].padEnd(width)}${f.help}${f.default !== undefined ? ` (default ${f.default})` : ""}`);
}

/** What every help text says first: the profile in force unless one is asked for, and the other. */
export const PROFILE_NOTE = "Profile: recall, the default (on sessions from unseen sources it holds 77% of what the next turns\n" +
  "use, in 31% of the history); --profile reference gives the reference's output, byte for byte (51%, in 19%).";

/** `cliffcompaction --help`, or `cliffcompaction COMMAND --help`. */
export function helpText(command?: Command): string {
  const head = `cliffcompaction ${VERSION} — mechanical context compaction for agent sessions\n\n${PROFILE_NOTE}\n`;
  if (command === undefined) {
    const commands = (Object.keys(USAGE) as Command[]).map((c) => `  cliffcompaction ${USAGE[c].line}\n      ${USAGE[c].what}`);
    const examples = (Object.keys(USAGE) as Command[]).flatMap((c) => USAGE[c].examples.map((e) => "  " + e));
    return [head, "Usage:", ...commands, "", "Examples:", ...examples, "", `Session formats (detected from the content, or forced with --format NAME):\n  ${FORMATS.join(", ")}`, "", "Options:", ...flagLines(undefined), "", 'Run "cliffcompaction COMMAND --help" for a command\'s options.', ""].join("\n");
  }
  const u = USAGE[command];
  const formats = !["compact", "simulate", "report"].includes(command) ? [] : [`Session formats (detected, or --format NAME): ${FORMATS.join(", ")}`, ""];
  return [head, `Usage: cliffcompaction ${u.line}`, `  ${u.what}`, "", ...formats, "Options:", ...flagLines(command), "", "Examples:", ...u.examples.map((e) => "  " + e), ""].join("\n");
}

/** The short usage printed (to stderr) when no command was given. */
export const SHORT_USAGE = `usage: cliffcompaction ${(Object.keys(USAGE) as Command[]).join("|")} … (cliffcompaction --help for more)`;
