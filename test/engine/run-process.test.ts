/**
 * The engine suite's way of running a command (support/stack.ts), without the CLI: a program that
 * ends without reading its input is an exit code to assert on, never an unhandled EPIPE that ends the
 * whole test run (as a preview failing its check at once did in a clean-clone run).
 */
import { describe, expect, it } from "vitest";
import { runProcess } from "./support/stack";

describe("runProcess", () => {
  it("gives the exit code of a program that ends without reading its input, larger than a pipe holds", async () => {
    // More than a pipe's buffer (64 KiB on Linux): the write cannot finish before `false` exits, so
    // the pipe is closed under it, every time.
    const result = await runProcess("false", [], {
      cwd: process.cwd(),
      env: process.env,
      input: "x".repeat(1 << 20),
    });
    expect(result.code).toBe(1);
    expect(result.signal).toBeNull();
  });

  it("still hands its input to a program that reads it", async () => {
    const result = await runProcess("cat", [], { cwd: process.cwd(), env: process.env, input: "piped\n" });
    expect(result).toMatchObject({ code: 0, stdout: "piped\n" });
  });
});
