/**
 * The bad-input catalogue: inputs of both resources and provider settings that must be refused before
 * any request leaves the machine, each with the property the failure must name and the rule it must
 * state. The same rows run through Pulumi's real dynamic-provider host and in-process.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

export const ORG_ID = "5f0000000000000000000001";
export const GROUP_ID = "5f0000000000000000000002";

/** Inputs of an OrgApiKey that pass `check`. */
export const GOOD_KEY: Record<string, unknown> = {
  orgId: ORG_ID,
  apiKeyId: "5f00000000000000000000aa",
  desc: "CI pipeline",
  roles: ["ORG_MEMBER"],
  restoreOnDelete: false,
};

/** Inputs of a LogCollectionJob that pass `check`. */
export const GOOD_JOB: Record<string, unknown> = {
  groupId: GROUP_ID,
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["DATABASE", "FTDC"],
  redacted: true,
};

/** Inputs of an ApiKeyProjectAssignment that pass `check`. */
export const GOOD_ASSIGNMENT: Record<string, unknown> = {
  apiKeyId: "5f00000000000000000000aa",
  groupId: GROUP_ID,
  roles: ["GROUP_READ_ONLY"],
  restoreOnDelete: false,
};

/** The good inputs of each resource, which a row's `set` and `omit` change. */
export const GOOD = {
  OrgApiKey: GOOD_KEY,
  LogCollectionJob: GOOD_JOB,
  ApiKeyProjectAssignment: GOOD_ASSIGNMENT,
} as const;

/** Stack config of a provider, as `pulumi config` holds it. `{url}` stands for the simulator's URL. */
export type StackConfig = Record<string, string>;

interface RowBase {
  /** What is wrong, in a few words (the test's name). */
  name: string;
  /** The property (or, for settings, the stack config key) the failure must name. */
  property: string;
  /** The rule the reason or message must state. */
  rule: RegExp;
  /** Text that must not appear in the failure (a credential given in the wrong place). */
  secret?: string;
}

/** An input row: `set` is merged over the good inputs; `omit` removes inputs. */
export interface InputRow extends RowBase {
  target: "OrgApiKey" | "LogCollectionJob" | "ApiKeyProjectAssignment";
  set?: Record<string, unknown>;
  omit?: string[];
}

/** A settings row: `config` replaces the good stack config (`{url}` → the simulator's URL). */
export interface ConfigRow extends RowBase {
  target: "config";
  config: StackConfig;
}

export type Row = InputRow | ConfigRow;

/** The inputs a row sends. */
export function inputsOf(row: InputRow): Record<string, unknown> {
  const inputs = { ...GOOD[row.target], ...row.set };
  for (const name of row.omit ?? []) delete inputs[name];
  return inputs;
}

// Files the CA-certificate rows point at.
const files = mkdtempSync(path.join(tmpdir(), "opsm-bad-inputs-"));
process.once("exit", () => rmSync(files, { recursive: true, force: true }));
export const NOT_PEM = path.join(files, "not-pem.pem");
writeFileSync(NOT_PEM, "this is not a certificate\n");
export const MISSING_FILE = path.join(files, "no-such-ca.pem");

const ANY_ID_CHAR = /must not contain '\/', '\?', '#', '%', spaces or control characters/;
const key = (name: string, property: string, rule: RegExp, set?: Record<string, unknown>, omit?: string[]) =>
  ({ target: "OrgApiKey", name, property, rule, set, omit }) satisfies InputRow;
const job = (name: string, property: string, rule: RegExp, set?: Record<string, unknown>, omit?: string[]) =>
  ({ target: "LogCollectionJob", name, property, rule, set, omit }) satisfies InputRow;
const assign = (
  name: string,
  property: string,
  rule: RegExp,
  set?: Record<string, unknown>,
  omit?: string[],
) => ({ target: "ApiKeyProjectAssignment", name, property, rule, set, omit }) satisfies InputRow;

const good: StackConfig = {
  "opsmanager:baseUrl": "{url}",
  "opsmanager:publicKey": "pub",
  "opsmanager:privateKey": "priv",
};
const config = (
  name: string,
  property: string,
  rule: RegExp,
  change: Record<string, string | null>,
  secret?: string,
): ConfigRow => {
  const c: StackConfig = { ...good };
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete c[k];
    else c[k] = v;
  }
  return { target: "config", name, property, rule, config: c, secret };
};

export const ROWS: Row[] = [
  // OrgApiKey: orgId
  key("orgId missing", "orgId", /orgId is required/, undefined, ["orgId"]),
  key("orgId a number", "orgId", /orgId must be the organization's id, a string \(got 42\)/, { orgId: 42 }),
  key("orgId empty", "orgId", /orgId must not be empty/, { orgId: "" }),
  key("orgId with /", "orgId", ANY_ID_CHAR, { orgId: "5f00/0000000000000000001" }),
  key("orgId with ?", "orgId", ANY_ID_CHAR, { orgId: "5f00?x=1" }),
  key("orgId with %2F", "orgId", ANY_ID_CHAR, { orgId: "..%2F..%2Fadmin" }),
  key("orgId with a space", "orgId", ANY_ID_CHAR, { orgId: "5f00 0001" }),
  key("orgId 129 characters", "orgId", /orgId must be at most 128 characters/, { orgId: "a".repeat(129) }),
  // OrgApiKey: apiKeyId and publicKey
  key("apiKeyId empty", "apiKeyId", /apiKeyId must not be empty/, { apiKeyId: "" }),
  key("apiKeyId with ?", "apiKeyId", ANY_ID_CHAR, { apiKeyId: "5f00?pretty=true" }),
  key("apiKeyId with %2F", "apiKeyId", ANY_ID_CHAR, { apiKeyId: "5f00%2F5f01" }),
  key("apiKeyId with a newline", "apiKeyId", ANY_ID_CHAR, { apiKeyId: "5f00\n" }),
  key("apiKeyId a boolean", "apiKeyId", /apiKeyId must be the API key's id, a string \(got true\)/, {
    apiKeyId: true,
  }),
  key("publicKey with a space", "publicKey", ANY_ID_CHAR, { publicKey: "abc defg" }, ["apiKeyId"]),
  key(
    "publicKey a number",
    "publicKey",
    /publicKey must be the API key's public key, a string \(got 12345678\)/,
    { publicKey: 12345678 },
    ["apiKeyId"],
  ),
  key("both apiKeyId and publicKey", "apiKeyId", /exactly one of apiKeyId and publicKey/, {
    publicKey: "abcdefgh",
  }),
  // OrgApiKey: a key to create (neither apiKeyId nor publicKey), and keepers
  key("a key to create without desc", "desc", /desc is required to create a key/, undefined, [
    "apiKeyId",
    "desc",
  ]),
  key("a key to create without roles", "roles", /roles is required to create a key/, undefined, [
    "apiKeyId",
    "roles",
  ]),
  key(
    "restoreOnDelete on a key to create",
    "restoreOnDelete",
    /a key this resource creates is deleted on destroy, so there is nothing to restore/,
    { restoreOnDelete: true },
    ["apiKeyId"],
  ),
  key("keepers on an adopted key", "keepers", /an adopted key .* cannot be replaced by a new one/, {
    keepers: { rotated: "2026-11" },
  }),
  key(
    "keepers not a map",
    "keepers",
    /keepers must be a map of strings \(got \["a"\]\)/,
    { keepers: ["a"] },
    ["apiKeyId"],
  ),
  key(
    "a keeper not a string",
    "keepers",
    /keepers\.rotated must be a string \(got 2026\)/,
    { keepers: { rotated: 2026 } },
    ["apiKeyId"],
  ),
  // OrgApiKey: desc
  key("desc empty", "desc", /desc must not be empty or only white space/, { desc: "" }),
  key("desc only white space", "desc", /desc must not be empty or only white space/, { desc: " \t \n" }),
  key("desc of 251 characters", "desc", /desc must be at most 250 characters \(got 251\)/, {
    desc: "d".repeat(251),
  }),
  key("desc a number", "desc", /desc must be a string \(got 7\)/, { desc: 7 }),
  key("desc null", "desc", /desc must be a string \(got null\)/, { desc: null }),
  // OrgApiKey: roles
  key("roles empty", "roles", /roles must name at least one organization role/, { roles: [] }),
  key("roles a string", "roles", /roles must be a list of organization role names \(got "ORG_OWNER"\)/, {
    roles: "ORG_OWNER",
  }),
  key("roles with a project role", "roles", /roles\[1\] .*GROUP_OWNER.* is a project role/, {
    roles: ["ORG_MEMBER", "GROUP_OWNER"],
  }),
  key(
    "roles with an unknown role",
    "roles",
    /roles\[0\] must be an organization role: one of ORG_OWNER.*\(got "ORG_ADMIN"\)$/,
    {
      roles: ["ORG_ADMIN"],
    },
  ),
  key("roles in lower case", "roles", /roles\[0\] must be an organization role.*did you mean "ORG_MEMBER"/, {
    roles: ["org_member"],
  }),
  key(
    "roles with ORG_READONLY, a near miss of ORG_READ_ONLY",
    "roles",
    /roles\[0\] must be an organization role.*\(got "ORG_READONLY"; did you mean "ORG_READ_ONLY"\?\)/,
    { roles: ["ORG_READONLY"] },
  ),
  key(
    "roles with the typo ORG_OWNR",
    "roles",
    /roles\[0\] .*\(got "ORG_OWNR"; did you mean "ORG_OWNER"\?\)/,
    {
      roles: ["ORG_OWNR"],
    },
  ),
  key(
    "roles with two bad items, both named",
    "roles",
    /roles\[0\] .*\(got "ORG_OWNR"; did you mean "ORG_OWNER"\?\), and roles\[2\] .*\(got "ORG_READONLY"; did you mean "ORG_READ_ONLY"\?\)$/,
    { roles: ["ORG_OWNR", "ORG_MEMBER", "ORG_READONLY"] },
  ),
  key("roles holding a number", "roles", /roles\[0\] must be an organization role.*\(got 1\)/, {
    roles: [1],
  }),
  // OrgApiKey: accessList (every bad item in one failure)
  key(
    "accessList a string",
    "accessList",
    /accessList must be a list of IP addresses and CIDR blocks \(got "10.0.0.1"\)/,
    { accessList: "10.0.0.1" },
  ),
  key(
    "accessList with a block that is not its network",
    "accessList",
    /accessList\[0\] "10.0.0.5\/24" is not a canonical CIDR block: it has bits set past its prefix; write "10.0.0.0\/24"/,
    { accessList: ["10.0.0.5/24"] },
  ),
  key(
    "accessList with an IPv6 block that is not its network",
    "accessList",
    /accessList\[0\] "2001:db8::1\/32" is not a canonical CIDR block.*; write "2001:db8::\/32"/,
    { accessList: ["2001:db8::1/32"] },
  ),
  key(
    "accessList with a host name",
    "accessList",
    /accessList\[0\] "ci.example.com" is not an IPv4 or IPv6 address or CIDR block/,
    { accessList: ["ci.example.com"] },
  ),
  key(
    "accessList with an address in short form",
    "accessList",
    /accessList\[0\] "10.1" is not an IPv4 or IPv6 address or CIDR block/,
    { accessList: ["10.1"] },
  ),
  key(
    "accessList with a prefix too long",
    "accessList",
    /accessList\[0\] "10.0.0.0\/33" is not a CIDR block: the prefix after "\/" must be a whole number from 0 to 32/,
    { accessList: ["10.0.0.0/33"] },
  ),
  key(
    "accessList with an address and its /32",
    "accessList",
    /accessList\[1\] "10.0.0.1\/32" is the same entry as accessList\[0\] "10.0.0.1" \(10.0.0.1\)/,
    { accessList: ["10.0.0.1", "10.0.0.1/32"] },
  ),
  key(
    "accessList with ::1 spelt twice",
    "accessList",
    /accessList\[1\] "0:0:0:0:0:0:0:1\/128" is the same entry as accessList\[0\] "::1"/,
    { accessList: ["::1", "0:0:0:0:0:0:0:1/128"] },
  ),
  key(
    "accessList with every kind of bad item, each named",
    "accessList",
    /accessList\[1\] "10.0.0.5\/24" .*; accessList\[2\] 7 is not a string; accessList\[3\] "nope" is not .*; accessList\[4\] "10.0.0.1\/32" is the same entry as accessList\[0\]/,
    { accessList: ["10.0.0.1", "10.0.0.5/24", 7, "nope", "10.0.0.1/32"] },
  ),
  key(
    "accessList with a zone",
    "accessList",
    /accessList\[0\] "fe80::1%eth0" is not an IPv4 or IPv6 address/,
    { accessList: ["fe80::1%eth0"] },
  ),
  key(
    "accessList with an IPv4-mapped IPv6 address",
    "accessList",
    /accessList\[0\] "::ffff:10.0.0.1" is an IPv4 address written as IPv6.*; write "10.0.0.1"/,
    { accessList: ["::ffff:10.0.0.1"] },
  ),
  key("accessList with 0.0.0.0", "accessList", /accessList\[0\] "0.0.0.0\/32" is the unspecified address/, {
    accessList: ["0.0.0.0/32"],
  }),
  // OrgApiKey: restoreOnDelete and unknown properties
  key("restoreOnDelete the string true", "restoreOnDelete", /restoreOnDelete must be true or false.*"true"/, {
    restoreOnDelete: "true",
  }),
  key("restoreOnDelete a number", "restoreOnDelete", /restoreOnDelete must be true or false \(got 1\)/, {
    restoreOnDelete: 1,
  }),
  key("unknown property description", "description", /description is not an input of OrgApiKey/, {
    description: "x",
  }),
  key("output privateKey given as input", "privateKey", /privateKey is not an input of OrgApiKey/, {
    privateKey: "x",
  }),

  // LogCollectionJob: groupId
  job("groupId missing", "groupId", /groupId is required/, undefined, ["groupId"]),
  job("groupId a number", "groupId", /groupId must be the project's id, a string/, { groupId: 5 }),
  job("groupId of 23 characters", "groupId", /groupId must be 24 hexadecimal digits/, {
    groupId: GROUP_ID.slice(1),
  }),
  job("groupId of 25 characters", "groupId", /groupId must be 24 hexadecimal digits/, {
    groupId: `${GROUP_ID}0`,
  }),
  job("groupId not hexadecimal", "groupId", /groupId must be 24 hexadecimal digits/, {
    groupId: "5f000000000000000000000g",
  }),
  job("groupId with /", "groupId", /groupId must be 24 hexadecimal digits/, {
    groupId: "5f0000000000/00000000002",
  }),
  job("groupId with %2F", "groupId", /groupId must be 24 hexadecimal digits/, {
    groupId: "5f00000000000%2F000000002",
  }),
  job("groupId empty", "groupId", /groupId must be 24 hexadecimal digits/, { groupId: "" }),
  // LogCollectionJob: resourceType and resourceName
  job("resourceType unknown", "resourceType", /resourceType must be one of CLUSTER, PROCESS, REPLICASET/, {
    resourceType: "NODE",
  }),
  // In any case it is a resource type (mongocli sends lower case): only an unknown one is refused.
  job(
    "resourceType unknown, in lower case",
    "resourceType",
    /resourceType must be one of .*\(got "shard"\)/,
    {
      resourceType: "shard",
    },
  ),
  job("resourceType REPLICA_SET", "resourceType", /\(got "REPLICA_SET"; did you mean "REPLICASET"\?\)/, {
    resourceType: "REPLICA_SET",
  }),
  job("resourceType missing", "resourceType", /resourceType is required/, undefined, ["resourceType"]),
  job("resourceName empty", "resourceName", /resourceName must not be empty or only white space/, {
    resourceName: "",
  }),
  job("resourceName white space", "resourceName", /resourceName must not be empty or only white space/, {
    resourceName: "   ",
  }),
  job("resourceName with a newline", "resourceName", /resourceName must not contain control characters/, {
    resourceName: "rs0\nshard0",
  }),
  job("resourceName with NUL", "resourceName", /resourceName must not contain control characters/, {
    resourceName: "rs0\u0000",
  }),
  job("resourceName a number", "resourceName", /resourceName must be a string/, { resourceName: 0 }),
  // LogCollectionJob: sizeRequestedPerFileBytes
  job("size negative", "sizeRequestedPerFileBytes", /must be positive \(got -1\)/, {
    sizeRequestedPerFileBytes: -1,
  }),
  job("size zero", "sizeRequestedPerFileBytes", /must be positive \(got 0\)/, {
    sizeRequestedPerFileBytes: 0,
  }),
  job("size fractional", "sizeRequestedPerFileBytes", /must be a whole number of bytes \(got 1.5\)/, {
    sizeRequestedPerFileBytes: 1.5,
  }),
  job("size 1e20", "sizeRequestedPerFileBytes", /must be at most 9007199254740991 bytes/, {
    sizeRequestedPerFileBytes: 1e20,
  }),
  job("size 2^53", "sizeRequestedPerFileBytes", /must be at most 9007199254740991 bytes/, {
    sizeRequestedPerFileBytes: 2 ** 53,
  }),
  // JSON has no Infinity or NaN (a Pulumi state file cannot hold them), but a google.protobuf.Struct
  // carries any double: these reach `check` through the host as they are.
  job("size Infinity", "sizeRequestedPerFileBytes", /must be a whole number of bytes.*\(got Infinity\)/, {
    sizeRequestedPerFileBytes: Number.POSITIVE_INFINITY,
  }),
  job("size -Infinity", "sizeRequestedPerFileBytes", /must be a whole number of bytes.*\(got -Infinity\)/, {
    sizeRequestedPerFileBytes: Number.NEGATIVE_INFINITY,
  }),
  job("size NaN", "sizeRequestedPerFileBytes", /must be a whole number of bytes.*\(got NaN\)/, {
    sizeRequestedPerFileBytes: Number.NaN,
  }),
  job(
    "size a numeric string",
    "sizeRequestedPerFileBytes",
    /must be a whole number of bytes.*\(got "1000"\)/,
    {
      sizeRequestedPerFileBytes: "1000",
    },
  ),
  // LogCollectionJob: logTypes and redacted
  job("logTypes empty", "logTypes", /logTypes must name at least one log type/, { logTypes: [] }),
  job("logTypes not a list", "logTypes", /logTypes must be a list of log types \(got "DATABASE"\)/, {
    logTypes: "DATABASE",
  }),
  job(
    "logTypes with an unknown type",
    "logTypes",
    /logTypes\[1\] must be one of AUTOMATION_AGENT, .*\(got "SYSLOG"\)$/,
    {
      logTypes: ["FTDC", "SYSLOG"],
    },
  ),
  job("logTypes in lower case", "logTypes", /logTypes\[0\] must be one of .*did you mean "DATABASE"/, {
    logTypes: ["database"],
  }),
  job(
    "logTypes with the typo AUTOMATION_AGNET",
    "logTypes",
    /logTypes\[0\] .*\(got "AUTOMATION_AGNET"; did you mean "AUTOMATION_AGENT"\?\)/,
    { logTypes: ["AUTOMATION_AGNET"] },
  ),
  job(
    "logTypes with two typos, both named",
    "logTypes",
    /logTypes\[0\] .*\(got "MONGOD"; did you mean "MONGODB"\?\), and logTypes\[1\] .*\(got "AUTOMATION_AGNET"; did you mean "AUTOMATION_AGENT"\?\)$/,
    { logTypes: ["MONGOD", "AUTOMATION_AGNET"] },
  ),
  job("logTypes repeated", "logTypes", /logTypes must not repeat a log type: "FTDC" is given 2 times/, {
    logTypes: ["FTDC", "DATABASE", "FTDC"],
  }),
  job(
    "logTypes naming the database log twice",
    "logTypes",
    /logTypes must not repeat a log type: "MONGODB" and "DATABASE" both name the database log/,
    { logTypes: ["MONGODB", "DATABASE"] },
  ),
  job("logTypes holding null", "logTypes", /logTypes\[0\] must be one of .*\(got null\)/, {
    logTypes: [null],
  }),
  job("redacted the string true", "redacted", /redacted must be true or false.*"true"/, { redacted: "true" }),
  job("redacted missing", "redacted", /redacted is required/, undefined, ["redacted"]),
  // ApiKeyProjectAssignment
  assign("apiKeyId missing", "apiKeyId", /apiKeyId is required/, undefined, ["apiKeyId"]),
  assign(
    "apiKeyId not 24 hex digits",
    "apiKeyId",
    /apiKeyId must be 24 hexadecimal digits, the organization API key's id \(got "abcdefgh"\)/,
    {
      apiKeyId: "abcdefgh",
    },
  ),
  assign(
    "apiKeyId a number",
    "apiKeyId",
    /apiKeyId must be the organization API key's id, a string \(got 5\)/,
    { apiKeyId: 5 },
  ),
  assign("apiKeyId with a path", "apiKeyId", /apiKeyId must be 24 hexadecimal digits/, {
    apiKeyId: "../../orgs/5f000000000000000001",
  }),
  assign("groupId missing, the project to assign to", "groupId", /groupId is required/, undefined, [
    "groupId",
  ]),
  assign(
    "groupId of 23 digits",
    "groupId",
    /groupId must be 24 hexadecimal digits, the project \(group\) id \(got "5f000000000000000000000"\)/,
    {
      groupId: "5f000000000000000000000",
    },
  ),
  assign("roles missing", "roles", /roles is required/, undefined, ["roles"]),
  assign(
    "project roles empty",
    "roles",
    /roles must name at least one project role \(to take the key out of the project, delete the resource\)/,
    {
      roles: [],
    },
  ),
  assign(
    "project roles a string",
    "roles",
    /roles must be a list of project role names \(got "GROUP_OWNER"\)/,
    {
      roles: "GROUP_OWNER",
    },
  ),
  assign(
    "roles with an organization role",
    "roles",
    /roles\[0\] must be a project role: one of GROUP_OWNER, .*\(got "ORG_OWNER", which is an organization role; ApiKeyProjectAssignment sets project roles only/,
    {
      roles: ["ORG_OWNER"],
    },
  ),
  assign(
    "roles with three bad items, each named",
    "roles",
    /roles\[0\] .*\(got "GROUP_OWNR"; did you mean "GROUP_OWNER"\?\), and roles\[2\] .*\(got "group_read_only"; did you mean "GROUP_READ_ONLY"\?\), and roles\[3\] .*\(got 7\)$/,
    { roles: ["GROUP_OWNR", "GROUP_BACKUP_ADMIN", "group_read_only", 7] },
  ),
  assign(
    "restoreOnDelete a string",
    "restoreOnDelete",
    /restoreOnDelete must be true or false \(got "yes"\)/,
    { restoreOnDelete: "yes" },
  ),
  assign(
    "an input it does not have",
    "orgId",
    /orgId is not an input of ApiKeyProjectAssignment; its inputs are apiKeyId, groupId, roles, restoreOnDelete/,
    {
      orgId: "5f0000000000000000000001",
    },
  ),
  job("unknown property redact", "redact", /redact is not an input of LogCollectionJob/, { redact: true }),
  // LogCollectionJob: the optional time window
  job(
    "logCollectionFromDate fractional",
    "logCollectionFromDate",
    /logCollectionFromDate must be a time in whole milliseconds since the epoch \(got 1.5\)/,
    { logCollectionFromDate: 1.5 },
  ),
  job(
    "logCollectionFromDate a date string",
    "logCollectionFromDate",
    /logCollectionFromDate must be a time in whole milliseconds since the epoch \(got "2026-03-01"\)/,
    { logCollectionFromDate: "2026-03-01" },
  ),
  job(
    "logCollectionToDate negative",
    "logCollectionToDate",
    /logCollectionToDate must be positive \(got -1\)/,
    {
      logCollectionToDate: -1,
    },
  ),
  job(
    "logCollectionToDate past what a Date holds",
    "logCollectionToDate",
    /logCollectionToDate must be at most 8640000000000000, the latest time a Date holds/,
    { logCollectionToDate: 8.64e15 + 1 },
  ),
  job(
    "time window ending before it starts",
    "logCollectionFromDate",
    /logCollectionFromDate must be before logCollectionToDate \(got 1700000000000 and 1690000000000\)/,
    { logCollectionFromDate: 1_700_000_000_000, logCollectionToDate: 1_690_000_000_000 },
  ),
  // LogCollectionJob: expirationDate, an ISO 8601 time that names one instant
  job(
    "expirationDate in ms since the epoch",
    "expirationDate",
    /expirationDate must be an ISO 8601 time with a zone, in whole seconds.*\(got 1700000000000\)/,
    { expirationDate: 1_700_000_000_000 },
  ),
  job(
    "expirationDate without a zone",
    "expirationDate",
    /expirationDate must be an ISO 8601 time with a zone.*\(got "2026-03-01T00:00:00"\)/,
    { expirationDate: "2026-03-01T00:00:00" },
  ),
  job(
    "expirationDate a date without a time",
    "expirationDate",
    /expirationDate must be an ISO 8601 time with a zone.*\(got "2026-03-01"\)/,
    { expirationDate: "2026-03-01" },
  ),
  job(
    "expirationDate in words",
    "expirationDate",
    /expirationDate must be an ISO 8601 time with a zone.*\(got "next tuesday"\)/,
    { expirationDate: "next tuesday" },
  ),
  job(
    "expirationDate on a day the month does not have",
    "expirationDate",
    /expirationDate must be a date that exists .*\(got "2026-02-30T00:00:00Z"\)/,
    { expirationDate: "2026-02-30T00:00:00Z" },
  ),
  job(
    "expirationDate at 24:00",
    "expirationDate",
    /expirationDate must be a time of day that exists .*\(got "2026-03-01T24:00:00Z"\)/,
    { expirationDate: "2026-03-01T24:00:00Z" },
  ),
  job(
    "expirationDate with a fraction of a second",
    "expirationDate",
    /expirationDate must be a whole number of seconds \(the server refuses fractions of a second\)/,
    { expirationDate: "2026-03-01T00:00:00.5Z" },
  ),

  // server: the name of a server in opsmanager:servers (the good stack config names none)
  key(
    "server a number",
    "server",
    /server must be the name of a server in opsmanager:servers, a string \(got 1\)/,
    {
      server: 1,
    },
  ),
  key("server with a dot", "server", /server must be a server's name: 1 to 63 letters, digits, '-' or '_'/, {
    server: "dc2.baseUrl",
  }),
  job("server empty", "server", /server must be a server's name/, { server: "" }),
  job(
    "server no server is configured as",
    "server",
    /server names the server "dc9", but no server is configured under opsmanager:servers: add it with pulumi config set --path 'opsmanager:servers\.dc9\.baseUrl' URL/,
    { server: "dc9" },
  ),
  assign("server with a space", "server", /server must be a server's name/, { server: "dc 2" }),
  assign("server 64 characters", "server", /server must be a server's name: 1 to 63/, {
    server: "d".repeat(64),
  }),
  // Provider settings
  config("base URL without a scheme", "opsmanager:baseUrl", /must start with http:\/\/ or https:\/\//, {
    "opsmanager:baseUrl": "om.example.com:8443",
  }),
  config("base URL with another scheme", "opsmanager:baseUrl", /must start with http:\/\/ or https:\/\//, {
    "opsmanager:baseUrl": "ftp://om.example.com",
  }),
  config("base URL with a query string", "opsmanager:baseUrl", /must not have a query string or fragment/, {
    "opsmanager:baseUrl": "https://om.example.com?pretty=true",
  }),
  config(
    "base URL with credentials",
    "opsmanager:baseUrl",
    /must not carry credentials/,
    { "opsmanager:baseUrl": "https://admin:Hunter2-in-the-url@om.example.com" },
    "Hunter2-in-the-url",
  ),
  config(
    "base URL with credentials and no scheme",
    "opsmanager:baseUrl",
    /must start with http:\/\/ or https:\/\//,
    { "opsmanager:baseUrl": "admin:Hunter2-in-the-url@om.example.com" },
    "Hunter2-in-the-url",
  ),
  config(
    "base URL with credentials holding a /",
    "opsmanager:baseUrl",
    /opsmanager:baseUrl must/,
    { "opsmanager:baseUrl": "https://admin:Hunter2/in-the-url@om.example.com" },
    "Hunter2",
  ),
  config("base URL missing", "opsmanager:baseUrl", /settings missing: opsmanager:baseUrl\./, {
    "opsmanager:baseUrl": null,
  }),
  config(
    "both keys missing",
    "opsmanager:publicKey",
    /settings missing: opsmanager:publicKey, opsmanager:privateKey/,
    { "opsmanager:publicKey": null, "opsmanager:privateKey": null },
  ),
  config("private key empty", "opsmanager:privateKey", /settings missing: opsmanager:privateKey\./, {
    "opsmanager:privateKey": "",
  }),
  config("CA file unreadable", "opsmanager:caCertificate", /cannot be read \(ENOENT\)/, {
    "opsmanager:caCertificate": MISSING_FILE,
  }),
  config("CA file a directory", "opsmanager:caCertificate", /cannot be read \(EISDIR\)/, {
    "opsmanager:caCertificate": files,
  }),
  config("CA file not PEM", "opsmanager:caCertificate", /holds no PEM certificate/, {
    "opsmanager:caCertificate": NOT_PEM,
  }),
  config(
    "timeout not a number",
    "opsmanager:timeoutSeconds",
    /must be a number of seconds.*\(got "thirty"\)/,
    {
      "opsmanager:timeoutSeconds": "thirty",
    },
  ),
  config("timeout zero", "opsmanager:timeoutSeconds", /must be a number of seconds greater than 0/, {
    "opsmanager:timeoutSeconds": "0",
  }),
  config("timeout negative", "opsmanager:timeoutSeconds", /must be a number of seconds.*\(got "-5"\)/, {
    "opsmanager:timeoutSeconds": "-5",
  }),
  config("timeout too long", "opsmanager:timeoutSeconds", /at most 3600.*\(got "1e9"\)/, {
    "opsmanager:timeoutSeconds": "1e9",
  }),
];

/** Every input of both resources wrong at once, and the properties `check` must name. */
export const ALL_BAD: Record<InputRow["target"], { inputs: Record<string, unknown>; properties: string[] }> =
  {
    ApiKeyProjectAssignment: {
      inputs: {
        apiKeyId: "key",
        groupId: 12,
        roles: ["ORG_MEMBER", "GROUP_OWNR"],
        restoreOnDelete: 1,
        desc: "x",
      },
      properties: ["apiKeyId", "desc", "groupId", "restoreOnDelete", "roles"],
    },
    OrgApiKey: {
      inputs: {
        orgId: "a/b",
        apiKeyId: "",
        publicKey: "x y",
        desc: "   ",
        roles: ["GROUP_OWNER"],
        restoreOnDelete: "yes",
        accessList: ["10.0.0.5/24"],
        colour: "blue",
      },
      properties: [
        "accessList",
        "apiKeyId",
        "apiKeyId",
        "colour",
        "desc",
        "orgId",
        "publicKey",
        "restoreOnDelete",
        "roles",
      ],
    },
    LogCollectionJob: {
      inputs: {
        groupId: "123",
        resourceType: "NODE",
        resourceName: "\t",
        sizeRequestedPerFileBytes: 0.5,
        logTypes: ["FTDC", "FTDC"],
        redacted: "no",
        expirationDate: "tomorrow",
        extra: 1,
      },
      properties: [
        "expirationDate",
        "extra",
        "groupId",
        "logTypes",
        "redacted",
        "resourceName",
        "resourceType",
        "sizeRequestedPerFileBytes",
      ],
    },
  };
