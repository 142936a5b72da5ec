import { defineConfig } from "vitest/config";
import { isolatedHome } from "./test/setup/home.ts";

// Opt-in tests that drive a real browser (npm run test:browser); never part of npm test.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    testTimeout: 120_000,
    env: isolatedHome(),
    globalSetup: ["./test/setup/home.ts"],
  },
});
