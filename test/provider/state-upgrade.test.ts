/**
 * Each resource's state as earlier versions wrote it, brought to today's shape by its one upgrade.
 */
import { describe, expect, it } from "vitest";
import type { OrgRole } from "../../provider/api/types";
import { upgradeJobState } from "../../provider/resources/log-collection-job/state";
import { managedFor, upgradeKeyState } from "../../provider/resources/org-api-key/state";

const ORG = "5f0000000000000000000001";
const KEY = "5f00000000000000000000aa";

/** An OrgApiKey's state as this version writes it. */
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
    expect(upgradeKeyState(today)).toEqual(today);
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
    expect(upgradeKeyState(withList)).toEqual(withList);
    const state = upgradeKeyState(today);
    expect("accessList" in state || "accessListEntries" in state || "accessList" in state.adopted).toBe(
      false,
    );
  });

  it("keeps a missing managed unrecorded, for the program to settle, and takes nothing as managed without one", () => {
    const { managed: _absent, ...older } = today;
    const state = upgradeKeyState(older);
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
    expect(managedFor(upgradeKeyState(today), { orgId: ORG, apiKeyId: KEY })).toEqual(today.managed);
  });

  it("gives state without adopted, restoreOnDelete, projectRoles or privateKey their empty defaults", () => {
    const { adopted: _a, restoreOnDelete: _r, projectRoles: _p, privateKey: _k, ...older } = today;
    expect(upgradeKeyState(older)).toEqual({
      ...older,
      privateKey: "",
      projectRoles: [],
      restoreOnDelete: false,
      adopted: { desc: "", roles: [] },
    });
  });

  it("reads the orgId alone that OrgApiKey.get gives as a lookup that manages nothing", () => {
    expect(upgradeKeyState({ orgId: ORG })).toEqual({
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
    expect(upgradeKeyState(older)).toEqual(today);
    const created = {
      ...today,
      restoreOnDelete: false,
      managed: { desc: true, roles: true, by: "created" as const },
      keepers: { rotated: "2026-11" },
    };
    expect(upgradeKeyState(created)).toEqual(created);
  });
});

/** A LogCollectionJob's create inputs, as every version recorded them. */
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
    expect(upgradeJobState(followed)).toEqual(followed);
  });

  it("gives state written before jobs were followed the server's fields as not shown and no managed expiration", () => {
    const older = { ...jobInputs, jobId: "5f00000000000000000000j1" };
    expect(upgradeJobState(older)).toEqual({
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
    expect(upgradeJobState(older)).toEqual(followed);
  });
});
