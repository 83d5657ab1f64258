/**
 * ApiKeyProjectAssignment's state brought to today's shape by its one upgrade (as
 * ./state-upgrade.test.ts does for the other resources).
 */
import { describe, expect, it } from "vitest";
import {
  assignmentId,
  idParts,
  upgradeAssignmentState,
} from "../../provider/resources/api-key-project-assignment/state";
import type { ApiKeyProjectAssignmentProviderOutputs } from "../../provider/resources/api-key-project-assignment/types";

const GROUP = "5f0000000000000000000002";
const KEY = "5f00000000000000000000aa";

const today: ApiKeyProjectAssignmentProviderOutputs = {
  apiKeyId: KEY,
  groupId: GROUP,
  roles: ["GROUP_OWNER", "GROUP_READ_ONLY"],
  restoreOnDelete: true,
  previous: { recorded: true, roles: ["GROUP_READ_ONLY"] },
};

describe("upgradeAssignmentState", () => {
  it("leaves today's state as it is", () => {
    expect(upgradeAssignmentState(today, assignmentId(GROUP, KEY), "read")).toEqual(today);
  });

  it("fills what is missing with what puts nothing back: restoreOnDelete false, previous not recorded", () => {
    expect(
      upgradeAssignmentState({ apiKeyId: KEY, groupId: GROUP, roles: ["GROUP_OWNER"] }, "", "read"),
    ).toEqual({
      apiKeyId: KEY,
      groupId: GROUP,
      roles: ["GROUP_OWNER"],
      restoreOnDelete: false,
      previous: { recorded: false, roles: [] },
    });
    // Roles recorded without saying they were recorded are not trusted to be put back.
    expect(
      upgradeAssignmentState({ ...today, previous: { roles: ["GROUP_OWNER"] } as never }, "", "read")
        .previous,
    ).toEqual({
      recorded: false,
      roles: [],
    });
  });

  it("takes the project and key from the id when the state has none (Resource.get)", () => {
    expect(upgradeAssignmentState({}, `${GROUP}/${KEY}`, "read")).toMatchObject({
      groupId: GROUP,
      apiKeyId: KEY,
      roles: [],
    });
    expect(idParts("a/b/c")).toEqual({ groupId: "", apiKeyId: "" });
  });

  it("reads roles as a set and drops what is not a role name", () => {
    const odd = { ...today, roles: ["GROUP_READ_ONLY", 3, "GROUP_OWNER", "GROUP_READ_ONLY"] as never };
    expect(upgradeAssignmentState(odd, "", "read").roles).toEqual(["GROUP_OWNER", "GROUP_READ_ONLY"]);
  });
});
