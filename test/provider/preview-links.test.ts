import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as assignment from "../../provider/resources/api-key-project-assignment/api-key-project-assignment-methods";
import * as key from "../../provider/resources/org-api-key/org-api-key-methods";
import { API_KEY_ID_FROM, NO_KEY, PREVIEW_TOKEN } from "../../provider/resources/shared/preview-links";
import { resetServerMemoryForTests } from "../../provider/resources/shared/server-memory";
import { UNKNOWN } from "../../provider/resources/shared/validate";
import type { Simulator } from "../../simulator/types";
import { simulatorWithProvider } from "./support";

// A dynamic preview: the key's diff runs first and records whether it keeps its id; the dependent's
// `apiKeyId` arrives unknown (the dynamic host answers no preview), with the key's token beside it.
describe("a dynamic preview's link between a key and the assignment that takes its id", () => {
  let sim: Simulator;
  const KEY_ID = "6b0f3b03acf4a571a6c4ff63";
  const GROUP = "5f0000000000000000000002";
  const keyState = {
    orgId: "5f0000000000000000000001",
    apiKeyId: KEY_ID,
    publicKey: "abcdefgh",
    desc: "CI",
    roles: ["ORG_MEMBER"],
    privateKey: "********-****-****-000000000000",
    projectRoles: [],
    restoreOnDelete: false,
    adopted: { desc: "", roles: [] },
    managed: { desc: true, roles: true, by: "created" },
    keepers: { rotated: "1" },
    stateVersion: 2,
  };
  const created = { orgId: keyState.orgId, desc: "CI", roles: ["ORG_MEMBER"], keepers: { rotated: "1" } };
  const assignmentState = {
    apiKeyId: KEY_ID,
    groupId: GROUP,
    roles: ["GROUP_READ_ONLY"],
    restoreOnDelete: false,
    previous: { recorded: false, roles: [] },
  };
  const dependent = (from: string | undefined) => ({
    apiKeyId: UNKNOWN,
    groupId: GROUP,
    roles: ["GROUP_READ_ONLY"],
    ...(from === undefined ? {} : { [API_KEY_ID_FROM]: from }),
  });
  const warned = vi.spyOn(console, "warn").mockImplementation(() => {});

  beforeEach(async () => {
    sim ??= await simulatorWithProvider();
    resetServerMemoryForTests();
    warned.mockClear();
  });
  afterAll(async () => {
    warned.mockRestore();
    await sim?.close();
  });

  it("check hands the links on to diff and checks the declared inputs without them", async () => {
    const checked = await key.check({}, { ...created, [PREVIEW_TOKEN]: "t1" });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ [PREVIEW_TOKEN]: "t1", desc: "CI" });
    const checkedDependent = await assignment.check({}, dependent("t1"));
    expect(checkedDependent.failures).toEqual([]);
    expect(checkedDependent.inputs).toMatchObject({ [API_KEY_ID_FROM]: "t1" });
  });

  it("a key updated in place keeps its id: the assignment is no change", async () => {
    const keyDiff = await key.fieldDiff(
      KEY_ID,
      keyState as never,
      {
        ...created,
        desc: "changed",
        [PREVIEW_TOKEN]: "t1",
      } as never,
    );
    expect(keyDiff).toMatchObject({ replaces: [], updates: ["desc"] });
    const diff = await assignment.fieldDiff(
      `${GROUP}/${KEY_ID}`,
      assignmentState as never,
      dependent("t1") as never,
    );
    expect(diff).toEqual({ replaces: [], updates: [], deleteBeforeReplace: false });
    expect(warned).not.toHaveBeenCalled();
    expect(sim.requests).toEqual([]);
  });

  it("a key replaced (a new keeper) gives a new id: the assignment is replaced, with no warning", async () => {
    const keyDiff = await key.fieldDiff(
      KEY_ID,
      keyState as never,
      {
        ...created,
        keepers: { rotated: "2" },
        [PREVIEW_TOKEN]: "t1",
      } as never,
    );
    expect(keyDiff.replaces).toEqual(["keepers"]);
    const diff = await assignment.fieldDiff(
      `${GROUP}/${KEY_ID}`,
      assignmentState as never,
      dependent("t1") as never,
    );
    expect(diff.replaces).toEqual(["apiKeyId"]);
    expect(warned).not.toHaveBeenCalled();
  });

  it("a key checked and never diffed is made anew (a new key, or --replace): the assignment is replaced, with no warning", async () => {
    await key.check({}, { ...created, [PREVIEW_TOKEN]: "t3" });
    const diff = await assignment.fieldDiff(
      `${GROUP}/${KEY_ID}`,
      assignmentState as never,
      dependent("t3") as never,
    );
    expect(diff.replaces).toEqual(["apiKeyId"]);
    expect(warned).not.toHaveBeenCalled();
  });

  it("another key kept in place is another id: the assignment is replaced", async () => {
    await key.fieldDiff(
      "6b0f3b03acf4a571a6c4ff99",
      { ...keyState, apiKeyId: "6b0f3b03acf4a571a6c4ff99" } as never,
      {
        ...created,
        desc: "changed",
        [PREVIEW_TOKEN]: "t2",
      } as never,
    );
    const diff = await assignment.fieldDiff(
      `${GROUP}/${KEY_ID}`,
      assignmentState as never,
      dependent("t2") as never,
    );
    expect(diff.replaces).toEqual(["apiKeyId"]);
  });

  it("an id from no key's output, or from a key no diff answered for: replaced, and a warning says why", async () => {
    for (const from of [NO_KEY, "a token no key diffed"]) {
      warned.mockClear();
      const diff = await assignment.fieldDiff(
        `${GROUP}/${KEY_ID}`,
        assignmentState as never,
        dependent(from) as never,
      );
      expect(diff.replaces).toEqual(["apiKeyId"]);
      expect(warned).toHaveBeenCalledOnce();
      expect(String(warned.mock.calls[0]?.[0])).toContain(
        `ApiKeyProjectAssignment (API key ${KEY_ID} in project ${GROUP}): this preview cannot tell whether apiKeyId changes`,
      );
    }
  });

  it("an unknown id with no link (the plugin, whose previews know each output) is a replacement, with no warning", async () => {
    const diff = await assignment.fieldDiff(
      `${GROUP}/${KEY_ID}`,
      assignmentState as never,
      dependent(undefined) as never,
    );
    expect(diff.replaces).toEqual(["apiKeyId"]);
    expect(warned).not.toHaveBeenCalled();
  });
});
