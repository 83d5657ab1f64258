/**
 * The warnings of the Diagnostics section the CLI prints at the end of a command, each under the row
 * of its resource (`<type> (<name>)`, or the stack's for a warning with no URN): the CLI's progress
 * rows repeat a warning each time a row changes, the section holds each once.
 */
import { expect } from "vitest";

/** One warning of the Diagnostics section, under the row that names its resource. */
export interface Shown {
  /** `<type> (<name>)`: the resource's URN as the CLI names it. */
  row: string;
  message: string;
}

/** The warnings of the Diagnostics section that `pulumi` prints at the end of a command. */
export function diagnostics(stdout: string): Shown[] {
  const section = stdout.split(/\nDiagnostics:\n/)[1]?.split(/\n(?:Resources|Outputs):\n/)[0] ?? "";
  return section.split(/\n(?= {2}\S)/).flatMap((block) => {
    const [head, ...body] = block.split("\n");
    const row = head!.trim().replace(/:$/, "");
    return body
      .join("\n")
      .split(/\n(?= {4}warning: )/)
      .map((text) => text.replace(/\s+/g, " ").trim())
      .filter((text) => text.startsWith("warning: "))
      .map((text) => ({ row, message: text.slice("warning: ".length) }));
  });
}

/** The one warning `pattern` finds in the Diagnostics section of `run`, or a failure showing them all. */
export function theWarning(run: { stdout: string }, pattern: RegExp): Shown {
  const shown = diagnostics(run.stdout);
  const found = shown.filter((w) => pattern.test(w.message));
  expect(found, `the warnings shown:\n${run.stdout}`).toHaveLength(1);
  return found[0]!;
}
