import { createRequire } from "node:module";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

// The built package and the SDK through Node's own require, so that the program, the resources and
// the mocks share one @pulumi/pulumi instance, as in a real program.
const req = createRequire(__filename);
const pulumi = req("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const om = req("../../dist/provider/index.js") as typeof import("../../provider");

/** The name of the resource whose registration the mocks refuse, as an engine can. */
const REFUSED = "refused";

beforeAll(() => {
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        if (args.name === REFUSED) throw new Error("the engine refused it");
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    false,
  );
});

/**
 * The program's own stack formatter, as Pulumi's Node runner installs source-map-support: it marks each
 * frame it writes, and records the function at the top of each stack it was given.
 */
const formatted: string[] = [];
function programFormatter(error: Error, frames: NodeJS.CallSite[]): string {
  formatted.push(frames[0]?.getFunctionName() ?? "");
  return `${error.name}: ${error.message}${frames.map((f) => `\n    at mapped ${f}`).join("")}`;
}

let before: typeof Error.prepareStackTrace;
beforeEach(() => {
  before = Error.prepareStackTrace;
  Error.prepareStackTrace = programFormatter;
  formatted.length = 0;
});
afterEach(() => {
  Error.prepareStackTrace = before;
  delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
});

/** One resource of each class of ours, as a program declares it. */
const declare = {
  OrgApiKey: (name: string) => new om.OrgApiKey(name, { orgId: "o", apiKeyId: "a", desc: "d" }),
  LogCollectionJob: (name: string) =>
    new om.LogCollectionJob(name, {
      resourceType: "PROCESS",
      resourceName: "host:27017",
      groupId: "g",
      redacted: true,
      sizeRequestedPerFileBytes: 1_000,
      logTypes: ["MONGODB"],
    }),
  ApiKeyProjectAssignment: (name: string) =>
    new om.ApiKeyProjectAssignment(name, { groupId: "g", apiKeyId: "a", roles: ["GROUP_READ_ONLY"] }),
};

describe("the stacks the SDK takes while a resource of ours registers", () => {
  for (const [kind, make] of Object.entries(declare)) {
    it(`${kind}: the four promise stacks of each property skip the program's formatter; the source position does not`, () => {
      make(`plain-${kind}`);
      // Each property's promises are made in the constructor: none of their stacks was mapped…
      expect(formatted.filter((f) => f === "debuggablePromise")).toEqual([]);
      // …while the SDK's source position of the resource was, once.
      expect(formatted.filter((f) => f === "callsites")).toEqual(["callsites"]);
      // And the program's formatter is back once the constructor returns.
      expect(Error.prepareStackTrace).toBe(programFormatter);
    });
  }

  it("under PULUMI_DEBUG_PROMISE_LEAKS every stack is the program's, as the leak report prints them", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    declare.OrgApiKey("leak-debugging");
    // Four for each of the key's 17 properties.
    expect(formatted.filter((f) => f === "debuggablePromise").length).toBeGreaterThanOrEqual(4 * 17);
    expect(Error.prepareStackTrace).toBe(programFormatter);
  });

  it("a program with no formatter of its own keeps V8's", () => {
    (Error as { prepareStackTrace?: unknown }).prepareStackTrace = undefined;
    declare.OrgApiKey("no-formatter");
    expect(Error.prepareStackTrace).toBeUndefined();
  });

  it("a failed registration's error is written by the program's formatter when read, and names the program's line", async () => {
    const key = declare.OrgApiKey(REFUSED);
    // Every output of the refused key fails with it: handled, as a program's runner handles them.
    for (const value of Object.values(key)) {
      if (!pulumi.Output.isInstance(value)) continue;
      const output = value as unknown as Record<"isKnown" | "isSecret", Promise<boolean>> & {
        promise(): Promise<unknown>;
        allResources?(): Promise<unknown>;
      };
      for (const settled of [output.promise(), output.isKnown, output.isSecret, output.allResources?.()]) {
        settled?.catch(() => undefined);
      }
    }
    const error = await (key.urn as unknown as { promise(): Promise<string> }).promise().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("failed to register new resource refused");
    expect(error?.message).toContain("the engine refused it");
    const stack = String(error?.stack);
    expect(stack).toContain("at mapped");
    expect(stack).toContain("promise-stacks.test.ts");
  });
});
