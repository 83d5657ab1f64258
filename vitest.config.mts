import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two files at a time on the two cores CI has: most suites wait on child processes and sockets, and
    // none depends on a quiet machine (CONTRIBUTING.md).
    maxWorkers: 2,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
