/**
 * Each resource's state as earlier versions wrote it, brought to today's shape by its one upgrade:
 * state without a version is version 0, read by which fields are present; state at today's version is
 * read as written. Adding a version adds the previous version's state here (CONTRIBUTING.md).
 */
import { describe, expect, it } from "vitest";
import type { OrgRole } from "../../provider/api/types";
import {
  ASSIGNMENT_STATE,
  upgradeAssignmentState,
} from "../../provider/resources/api-key-project-assignment/state";
import { JOB_STATE, upgradeJobState } from "../../provider/resources/log-collection-job/state";
import { KEY_STATE, managedFor, upgradeKeyState } from "../../provider/resources/org-api-key/state";
import { currentVersion } from "../../provider/resources/shared/state-version";

const ORG = "5f0000000000000000000001";
const KEY = "5f00000000000000000000aa";
const JOB = "5f00000000000000000000j1";

/**
 * An OrgApiKey's state in today's shape, as the versions before state versions wrote it (no
 * `stateVersion`: the previous release, the old-stack engine test's commit, wrote these fields).
 */
const today = {
  orgId: ORG,
  apiKeyId: KEY,
  publicKey: "abcdefgh",
  desc: "kept",
  roles: ["ORG_MEMBER"] as OrgRole[],
  privateKey: "********-****-****-****-********8a2c",
  projectRoles: [{ groupId: "5f0000000000000000000002", roleName: "GROUP_READ_ONLY" }],
  restoreOnDelete: true,
  adopted: { desc: "before", roles: ["ORG_READ_ONLY"] as OrgRole[] },
  managed: { desc: true, roles: false, by: "publicKey" as const },
  keepers: {},
};

describe("upgradeKeyState", () => {
  it("leaves today's state as it is", () => {
    expect(upgradeKeyState(today, KEY, "read")).toEqual(today);
  });

  it("keeps a managed access list, its entries and the list adopted; state without one manages none and gains no field", () => {
    const withList = {
      ...today,
      adopted: { ...today.adopted, accessList: ["10.0.0.1"] },
      accessList: ["10.0.0.0/24"],
      accessListEntries: [
        {
          entry: "10.0.0.0/24",
          created: "2026-01-01T00:00:00Z",
          lastUsed: "",
          lastUsedAddress: "",
          count: 0,
        },
      ],
    };
    expect(upgradeKeyState(withList, KEY, "read")).toEqual(withList);
    const state = upgradeKeyState(today, KEY, "read");
    expect("accessList" in state || "accessListEntries" in state || "accessList" in state.adopted).toBe(
      false,
    );
  });

  it("keeps a missing managed unrecorded, for the program to settle, and takes nothing as managed without one", () => {
    const { managed: _absent, ...older } = today;
    const state = upgradeKeyState(older, KEY, "read");
    expect(state).toEqual(older);
    expect("managed" in state).toBe(false);
    expect(managedFor(state, { orgId: ORG, apiKeyId: KEY, roles: ["ORG_MEMBER"] })).toEqual({
      desc: false,
      roles: true,
      by: "apiKeyId",
    });
    expect(managedFor(state, { orgId: ORG, publicKey: "abcdefgh", desc: "kept" })).toEqual({
      desc: true,
      roles: false,
      by: "publicKey",
    });
    expect(managedFor(state)).toEqual({ desc: false, roles: false, by: "apiKeyId" });
  });

  it("records state as written wherever the program says otherwise", () => {
    expect(managedFor(upgradeKeyState(today, KEY, "read"), { orgId: ORG, apiKeyId: KEY })).toEqual(
      today.managed,
    );
  });

  it("gives state without adopted, restoreOnDelete, projectRoles or privateKey their empty defaults", () => {
    const { adopted: _a, restoreOnDelete: _r, projectRoles: _p, privateKey: _k, ...older } = today;
    expect(upgradeKeyState(older, KEY, "read")).toEqual({
      ...older,
      privateKey: "",
      projectRoles: [],
      restoreOnDelete: false,
      adopted: { desc: "", roles: [] },
    });
  });

  it("reads the orgId alone that OrgApiKey.get gives as a lookup that manages nothing", () => {
    expect(upgradeKeyState({ orgId: ORG }, KEY, "read")).toEqual({
      orgId: ORG,
      apiKeyId: "",
      publicKey: "",
      desc: "",
      roles: [],
      privateKey: "",
      projectRoles: [],
      restoreOnDelete: false,
      adopted: { desc: "", roles: [] },
      managed: { desc: false, roles: false, by: "apiKeyId" },
      keepers: {},
    });
  });

  it("gives state written before keys could be created no keepers, and keeps a created key's as written", () => {
    const { keepers: _k, ...older } = today;
    expect(upgradeKeyState(older, KEY, "read")).toEqual(today);
    const created = {
      ...today,
      restoreOnDelete: false,
      managed: { desc: true, roles: true, by: "created" as const },
      keepers: { rotated: "2026-11" },
    };
    expect(upgradeKeyState(created, KEY, "read")).toEqual(created);
  });
});

/** A LogCollectionJob's create inputs, as every version recorded them. */
const GROUP = "5f0000000000000000000002";
const jobInputs = {
  groupId: "5f0000000000000000000002",
  resourceType: "REPLICASET" as const,
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 1000,
  logTypes: ["FTDC", "MONGODB"] as ("FTDC" | "MONGODB")[],
  redacted: true,
};

const followed = {
  ...jobInputs,
  logCollectionFromDate: 1_700_000_000_000,
  jobId: "5f00000000000000000000j1",
  status: "SUCCESS",
  creationDate: "2026-11-01T00:00:00Z",
  expirationDate: "2026-12-01T00:00:00Z",
  downloadUrl: "https://om.example/download",
  userId: "5f00000000000000000000u1",
  rootResourceName: "rs0",
  rootResourceType: "replicaset",
  uncompressedSizeTotalBytes: 42,
  managed: { expirationDate: true },
};

describe("upgradeJobState", () => {
  it("leaves today's state as it is", () => {
    expect(upgradeJobState(followed, JOB, "read")).toEqual(followed);
  });

  it("gives state written before jobs were followed the server's fields as not shown and no managed expiration", () => {
    const older = { ...jobInputs, jobId: "5f00000000000000000000j1" };
    expect(upgradeJobState(older, JOB, "read")).toEqual({
      ...older,
      status: "",
      creationDate: "",
      expirationDate: "",
      downloadUrl: "",
      userId: "",
      rootResourceName: "",
      rootResourceType: "",
      uncompressedSizeTotalBytes: 0,
      managed: { expirationDate: false },
    });
  });

  it("puts a resourceType written before check normalized its case in the spec's upper case", () => {
    const older = { ...followed, resourceType: "replicaset" as never };
    expect(upgradeJobState(older, JOB, "read")).toEqual(followed);
  });
});

/** An ApiKeyProjectAssignment's state in today's shape, as the previous release wrote it (no version). */
const assigned = {
  apiKeyId: KEY,
  groupId: GROUP,
  roles: ["GROUP_OWNER" as const, "GROUP_READ_ONLY" as const],
  restoreOnDelete: true,
  previous: { recorded: true, roles: ["GROUP_READ_ONLY"] },
};

describe("state versions", () => {
  it("an OrgApiKey's state is at version 2 today (pendingCreate came), the others' at version 1, after the one step that reads state without a version", () => {
    expect([KEY_STATE, JOB_STATE, ASSIGNMENT_STATE].map(currentVersion)).toEqual([2, 1, 1]);
  });

  it("version 0 (no stateVersion): each resource's older state gets today's defaults from its first step", () => {
    const { keepers: _k, adopted: _a, restoreOnDelete: _r, ...key } = today;
    expect(upgradeKeyState(key, KEY, "read")).toEqual({
      ...today,
      keepers: {},
      adopted: { desc: "", roles: [] },
      restoreOnDelete: false,
    });
    const job = { ...jobInputs, jobId: JOB, resourceType: "replicaset" as never };
    expect(upgradeJobState(job, JOB, "diff")).toMatchObject({
      resourceType: "REPLICASET",
      status: "",
      managed: { expirationDate: false },
    });
    const { previous: _p, restoreOnDelete: _o, ...assignment } = assigned;
    expect(upgradeAssignmentState(assignment, `${GROUP}/${KEY}`, "update")).toEqual({
      ...assigned,
      restoreOnDelete: false,
      previous: { recorded: false, roles: [] },
    });
    // Resource.get gives an id and no state at all: version 0 too, the assignment named by its id.
    expect(upgradeAssignmentState({}, `${GROUP}/${KEY}`, "read")).toMatchObject({
      groupId: GROUP,
      apiKeyId: KEY,
    });
  });

  it("version 1: each resource's state as this version writes it round-trips, its version aside", () => {
    expect(upgradeKeyState({ ...today, stateVersion: 1 }, KEY, "read")).toEqual(today);
    const created = {
      ...today,
      managed: { desc: true, roles: true, by: "created" as const },
      keepers: { a: "1" },
    };
    expect(upgradeKeyState({ ...created, stateVersion: 1 }, KEY, "delete")).toEqual(created);
    expect(upgradeJobState({ ...followed, stateVersion: 1 }, JOB, "read")).toEqual(followed);
    expect(upgradeAssignmentState({ ...assigned, stateVersion: 1 }, `${GROUP}/${KEY}`, "read")).toEqual(
      assigned,
    );
  });

  it("version 2: an OrgApiKey's state, a create still to settle (pendingCreate) included, round-trips, its version aside", () => {
    expect(upgradeKeyState({ ...today, stateVersion: 2 }, KEY, "read")).toEqual(today);
    const pending = {
      ...today,
      apiKeyId: "",
      publicKey: "",
      desc: "CI [pulumi create 0123456789abcdef]",
      managed: { desc: true, roles: true, by: "created" as const },
      pendingCreate: { desc: "CI [pulumi create 0123456789abcdef]", sentAt: "2026-11-27T21:00:00.000Z" },
    };
    expect(
      upgradeKeyState({ ...pending, stateVersion: 2 }, "pending-create-0123456789abcdef", "delete"),
    ).toEqual(pending);
  });
});
