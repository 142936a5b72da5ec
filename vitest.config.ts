import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/summary-reporter.ts";
import { isolatedHome } from "./test/setup/home.ts";

export default defineConfig({
  test: {
    // The tests' own home and XDG folders: a proxy's admin token, the archive, a shell profile or an
    // agent's config that a test makes lands there, never in the user's; the guard checks it did.
    env: isolatedHome(),
    globalSetup: ["./test/setup/home.ts"],
    include: ["test/**/*.test.ts"],
    // Vitest's default is one worker fewer than the cores: one on a two-core machine, where many of
    // the files mostly wait on child processes, sockets and timers. Every file makes its own ports
    // and folders, so they can share the machine.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
