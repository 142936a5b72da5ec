import { defineConfig } from "vitest/config";

// Opt-in tests that drive a real browser (npm run test:browser); never part of npm test.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    testTimeout: 120_000,
  },
});
