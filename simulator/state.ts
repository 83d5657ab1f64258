/**
 * The simulator's data: organizations, groups, API keys (their project roles are their project
 * assignments), the keys' access lists (./access-list-store) and the log collection jobs
 * (./job-store), seeded deterministically and optionally kept in a JSON file (./state-file).
 */
import * as fs from "node:fs";
import { AccessListStore } from "./access-list-store";
import { JobStore } from "./job-store";
import { Prng } from "./prng";
import { StateFile, type StateSnapshot } from "./state-file";
import type { SeedOptions, SimApiKey, SimRole } from "./types";

/** Organization role names, in the spec's order. */
export const ORG_ROLES = ["ORG_OWNER", "ORG_MEMBER", "ORG_GROUP_CREATOR", "ORG_READ_ONLY"] as const;

/** Project (group) role names, in the spec's order. */
export const GROUP_ROLES = [
  "GROUP_OWNER",
  "GROUP_READ_ONLY",
  "GROUP_DATA_ACCESS_ADMIN",
  "GROUP_DATA_ACCESS_READ_WRITE",
  "GROUP_DATA_ACCESS_READ_ONLY",
  "GROUP_AUTOMATION_ADMIN",
  "GROUP_BACKUP_ADMIN",
  "GROUP_MONITORING_ADMIN",
  "GROUP_USER_ADMIN",
] as const;

/** The seeded organization id. */
export const DEFAULT_ORG_ID = "5f0000000000000000000001";
/** The seeded group (project) id. */
export const DEFAULT_GROUP_ID = "5f0000000000000000000002";
/** The id of the seeded admin key. */
export const DEFAULT_ADMIN_KEY_ID = "5f0000000000000000000003";
/** The admin key's public key (digest user name). */
export const DEFAULT_PUBLIC_KEY = "simadmin";
/** The admin key's private key (digest password) of this local test server; not a real secret. */
export const DEFAULT_PRIVATE_KEY = "00000000-sim0-4000-8000-000000000001";
/** How many keys are generated besides the admin key. */
export const DEFAULT_KEY_COUNT = 5;
/** Seed of the generator behind generated ids, keys and roles. */
export const DEFAULT_RANDOM_SEED = 1;

function copyKey(key: SimApiKey): SimApiKey {
  return { ...key, roles: key.roles.map((r) => ({ ...r })) };
}

/** In-memory state with O(1) lookups and creation-ordered key lists per organization. */
export class SimState {
  orgId: string;
  groupId: string;
  adminKeyId: string;
  private prng: Prng;
  private generated = 0;
  private readonly orgs = new Map<string, SimApiKey[]>();
  private readonly groups = new Set<string>();
  private readonly keys = new Map<string, SimApiKey>();
  private readonly byPublicKey = new Map<string, SimApiKey>();
  /** The log collection jobs and their life (./job-store). */
  readonly jobStore: JobStore;
  /** The access lists of the organization API keys (./access-list-store). */
  readonly accessLists: AccessListStore;
  // Every private key the state has ever held, kept after removal so the request log can still be
  // scrubbed of it.
  private readonly secrets = new Set<string>();
  private readonly file: StateFile | undefined;

  private constructor(
    stateFile: string | undefined,
    orgId: string,
    groupId: string,
    adminKeyId: string,
    seed: number,
  ) {
    this.file = stateFile === undefined ? undefined : new StateFile(stateFile, () => this.snapshot());
    this.orgId = orgId;
    this.groupId = groupId;
    this.adminKeyId = adminKeyId;
    this.prng = new Prng(seed);
    this.jobStore = new JobStore(this.prng, adminKeyId, () => this.changed());
    this.accessLists = new AccessListStore(() => this.changed());
  }

  /** Loads `stateFile` when it exists, else seeds from `seed`. */
  static open(seed: SeedOptions = {}, stateFile?: string): SimState {
    if (stateFile !== undefined && fs.existsSync(stateFile)) return SimState.load(stateFile);
    const state = new SimState(
      stateFile,
      seed.orgId ?? DEFAULT_ORG_ID,
      seed.groupId ?? DEFAULT_GROUP_ID,
      seed.adminKeyId ?? DEFAULT_ADMIN_KEY_ID,
      seed.randomSeed ?? DEFAULT_RANDOM_SEED,
    );
    state.addOrg(state.orgId);
    state.addGroup(state.groupId);
    state.addApiKey({
      id: state.adminKeyId,
      orgId: state.orgId,
      desc: "simulator admin key",
      publicKey: seed.publicKey ?? DEFAULT_PUBLIC_KEY,
      privateKey: seed.privateKey ?? DEFAULT_PRIVATE_KEY,
      // An Organization Owner with a project role that allows log collection (./roles).
      roles: [
        { orgId: state.orgId, roleName: "ORG_OWNER" },
        { groupId: state.groupId, roleName: "GROUP_OWNER" },
      ],
    });
    state.addApiKeys(seed.keys ?? DEFAULT_KEY_COUNT);
    state.file?.changed();
    return state;
  }

  private static load(stateFile: string): SimState {
    const data = StateFile.read(stateFile);
    const state = new SimState(stateFile, data.orgId, data.groupId, data.adminKeyId, 0);
    state.prng.state = data.prng >>> 0;
    state.generated = data.generated;
    for (const org of data.orgs) state.addOrg(org);
    for (const group of data.groups) state.addGroup(group);
    for (const key of data.apiKeys) state.insertKey(copyKey(key));
    // State files written before jobs had a life (status, expiration) get one as of their creation.
    for (const job of data.jobs) state.jobStore.insertJob(state.jobStore.completeJob(job));
    state.accessLists.load(data.accessLists);
    state.file?.saved();
    return state;
  }

  /** The admin key (the credentials the simulator prints). */
  adminKey(): SimApiKey {
    const key = this.keys.get(this.adminKeyId);
    if (!key) throw new Error("the simulator state has no admin key");
    return copyKey(key);
  }

  /** Whether the organization exists. */
  hasOrg(orgId: string): boolean {
    return this.orgs.has(orgId);
  }

  /** Whether the group exists. */
  hasGroup(groupId: string): boolean {
    return this.groups.has(groupId);
  }

  /** Adds an organization; an existing one is kept as it is. */
  addOrg(orgId: string): void {
    if (this.orgs.has(orgId)) return;
    this.orgs.set(orgId, []);
    this.changed();
  }

  /** Adds a group; an existing one is kept as it is. */
  addGroup(groupId: string): void {
    if (this.groups.has(groupId)) return;
    this.groups.add(groupId);
    this.changed();
  }

  /** Copies of the keys of one organization (default all), in creation order. */
  apiKeys(orgId?: string): SimApiKey[] {
    if (orgId !== undefined) return (this.orgs.get(orgId) ?? []).map(copyKey);
    return [...this.keys.values()].map(copyKey);
  }

  /** Number of keys of an organization. */
  countApiKeys(orgId: string): number {
    return this.orgs.get(orgId)?.length ?? 0;
  }

  /** One page of an organization's keys, in creation order, without copying the whole list. */
  pageOfApiKeys(orgId: string, start: number, count: number): SimApiKey[] {
    return (this.orgs.get(orgId) ?? []).slice(start, start + count).map(copyKey);
  }

  /** A copy of one key, in any organization. */
  apiKey(id: string): SimApiKey | undefined {
    const key = this.keys.get(id);
    return key ? copyKey(key) : undefined;
  }

  /** The key with this public key, as stored (no copy: read only). */
  apiKeyByPublicKey(publicKey: string): SimApiKey | undefined {
    return this.byPublicKey.get(publicKey);
  }

  /** The private key of the key with this public key (digest password lookup). */
  privateKeyOf(publicKey: string): string | undefined {
    return this.byPublicKey.get(publicKey)?.privateKey;
  }

  /** Whether `text` is (or was) the private key of some key. */
  isSecret(text: string): boolean {
    return this.secrets.has(text);
  }

  /** Adds a key; missing fields are generated, an unknown org is created. */
  addApiKey(partial: Partial<SimApiKey> & { orgId?: string }): SimApiKey {
    const orgId = partial.orgId ?? this.orgId;
    let id = partial.id;
    if (id === undefined) {
      do id = this.prng.hex(24);
      while (this.keys.has(id));
    } else if (this.keys.has(id)) {
      throw new Error(`an API key with id ${id} already exists`);
    }
    let publicKey = partial.publicKey;
    if (publicKey === undefined) {
      do publicKey = this.prng.letters(8);
      while (this.byPublicKey.has(publicKey));
    } else if (this.byPublicKey.has(publicKey)) {
      throw new Error(`an API key with public key ${publicKey} already exists`);
    }
    let desc = partial.desc;
    if (desc === undefined) {
      this.generated += 1;
      desc = `generated key ${this.generated}`;
    }
    const key: SimApiKey = {
      id,
      orgId,
      desc,
      publicKey,
      privateKey: partial.privateKey ?? this.prng.uuid(),
      roles: partial.roles ? partial.roles.map((r) => ({ ...r })) : this.generateRoles(orgId),
    };
    this.addOrg(orgId);
    this.insertKey(key);
    this.changed();
    return copyKey(key);
  }

  /**
   * A new key id shaped as the server's ids are, a MongoDB ObjectId: its first 8 hex digits are `ms` in
   * whole seconds, the other 16 come from the seeded generator, so a created key's id carries its
   * creation time (as a deployed server's does) and the rest of the state stays deterministic.
   */
  objectIdAt(ms: number): string {
    const time = Math.floor(ms / 1000)
      .toString(16)
      .padStart(8, "0")
      .slice(-8);
    let id: string;
    do id = `${time}${this.prng.hex(16)}`;
    while (this.keys.has(id));
    return id;
  }

  /** Adds `count` generated keys to an organization (default the seeded one). */
  addApiKeys(count: number, orgId?: string): SimApiKey[] {
    const added: SimApiKey[] = [];
    for (let i = 0; i < count; i++) added.push(this.addApiKey(orgId === undefined ? {} : { orgId }));
    return added;
  }

  /** Changes a key's desc and/or roles; throws for an unknown id. */
  updateApiKey(id: string, change: Partial<Pick<SimApiKey, "desc" | "roles">>): SimApiKey {
    const key = this.keys.get(id);
    if (!key) throw new Error(`no API key with id ${id}`);
    if (change.desc !== undefined) key.desc = change.desc;
    if (change.roles !== undefined) key.roles = change.roles.map((r) => ({ ...r }));
    this.changed();
    return copyKey(key);
  }

  /** Removes a key, and with it its project assignments and its access list; an unknown id is ignored. */
  removeApiKey(id: string): void {
    const key = this.keys.get(id);
    if (!key) return;
    this.accessLists.removeKey(id);
    this.keys.delete(id);
    this.byPublicKey.delete(key.publicKey);
    const list = this.orgs.get(key.orgId);
    if (list) {
      const index = list.indexOf(key);
      if (index >= 0) list.splice(index, 1);
    }
    this.changed();
  }

  /** Writes any pending change now and waits for it. */
  async flush(): Promise<void> {
    await this.file?.flush();
  }

  private generateRoles(orgId: string): SimRole[] {
    const first = this.prng.pick(ORG_ROLES);
    const roles: SimRole[] = [{ orgId, roleName: first }];
    if (this.prng.next() < 0.3) {
      const second = this.prng.pick(ORG_ROLES);
      if (second !== first) roles.push({ orgId, roleName: second });
    }
    if (this.prng.next() < 0.3) roles.push({ groupId: this.groupId, roleName: this.prng.pick(GROUP_ROLES) });
    return roles;
  }

  private insertKey(key: SimApiKey): void {
    this.keys.set(key.id, key);
    this.byPublicKey.set(key.publicKey, key);
    this.secrets.add(key.privateKey);
    let list = this.orgs.get(key.orgId);
    if (!list) {
      list = [];
      this.orgs.set(key.orgId, list);
    }
    list.push(key);
  }

  private changed(): void {
    this.file?.changed();
  }

  /** The state as its file holds it. */
  private snapshot(): StateSnapshot {
    return {
      orgId: this.orgId,
      groupId: this.groupId,
      adminKeyId: this.adminKeyId,
      prng: this.prng.state,
      generated: this.generated,
      orgs: [...this.orgs.keys()],
      groups: [...this.groups],
      apiKeys: [...this.keys.values()],
      jobs: this.jobStore.records(),
      accessLists: this.accessLists.records(),
    };
  }
}
