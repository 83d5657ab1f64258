/**
 * The simulator's data: organizations, groups, API keys and log collection jobs, seeded
 * deterministically and optionally kept in a JSON file (./state-file).
 */
import * as fs from "node:fs";
import { Prng } from "./prng";
import { StateFile, type StateSnapshot } from "./state-file";
import type {
  NewSimLogCollectionJob,
  SeedOptions,
  SimApiKey,
  SimJobChange,
  SimLogCollectionJob,
  SimRole,
} from "./types";

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
/** How long a log collection job stays `IN_PROGRESS`, unless the simulator's options say otherwise. */
export const DEFAULT_JOB_DURATION_MS = 30_000;
/**
 * How long a job lives before it expires: the job records of MongoDB's Go client's tests
 * (opsmngr/logs_test.go) expire 30 days after their creation.
 */
export const JOB_LIFETIME_MS = 30 * 24 * 3600_000;

function copyKey(key: SimApiKey): SimApiKey {
  return { ...key, roles: key.roles.map((r) => ({ ...r })) };
}

function copyJob(job: SimLogCollectionJob): SimLogCollectionJob {
  return { ...job, logTypes: [...job.logTypes] };
}

const iso = (ms: number) => new Date(ms).toISOString();

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
  private readonly jobList: SimLogCollectionJob[] = [];
  private readonly jobIds = new Map<string, SimLogCollectionJob>();
  /** How long a job stays `IN_PROGRESS` (the simulator's `jobDurationMs`). */
  jobDurationMs = DEFAULT_JOB_DURATION_MS;
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
  }

  /** Loads `stateFile` when it exists, else seeds from `seed`. */
  static open(seed: SeedOptions = {}, stateFile?: string): SimState {
    if (stateFile !== undefined && fs.existsSync(stateFile)) return SimState.load(stateFile);
    const state = new SimState(
      stateFile,
      seed.orgId ?? DEFAULT_ORG_ID,
      seed.groupId ?? DEFAULT_GROUP_ID,
      DEFAULT_ADMIN_KEY_ID,
      seed.randomSeed ?? DEFAULT_RANDOM_SEED,
    );
    state.addOrg(state.orgId);
    state.addGroup(state.groupId);
    state.addApiKey({
      id: DEFAULT_ADMIN_KEY_ID,
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
    for (const job of data.jobs) state.insertJob(state.completeJob(job));
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

  /** Removes a key; an unknown id is ignored. */
  removeApiKey(id: string): void {
    const key = this.keys.get(id);
    if (!key) return;
    this.keys.delete(id);
    this.byPublicKey.delete(key.publicKey);
    const list = this.orgs.get(key.orgId);
    if (list) {
      const index = list.indexOf(key);
      if (index >= 0) list.splice(index, 1);
    }
    this.changed();
  }

  /** Stores a new log collection job, with a fresh id unless it names one; the rest as {@link completeJob}. */
  addJob(job: NewSimLogCollectionJob): SimLogCollectionJob {
    if (job.id !== undefined && this.jobIds.has(job.id)) {
      throw new Error(`a log collection job with id ${job.id} already exists`);
    }
    const stored = this.completeJob(job);
    this.insertJob(stored);
    this.changed();
    return copyJob(stored);
  }

  /**
   * A whole job from `job`: a fresh id, created now by the admin key, `IN_PROGRESS` for
   * {@link jobDurationMs}, then `SUCCESS`, expiring {@link JOB_LIFETIME_MS} after creation, unless
   * `job` says otherwise.
   */
  completeJob(job: NewSimLogCollectionJob): SimLogCollectionJob {
    let id = job.id;
    if (id === undefined) {
      do id = this.prng.hex(24);
      while (this.jobIds.has(id));
    }
    const createdAt = job.createdAt ?? iso(Date.now());
    const created = Date.parse(createdAt);
    return {
      ...job,
      id,
      logTypes: [...job.logTypes],
      createdAt,
      userId: job.userId ?? this.adminKeyId,
      expirationDate: job.expirationDate ?? iso(created + JOB_LIFETIME_MS),
      status: job.status ?? "IN_PROGRESS",
      finishDate: job.finishDate ?? iso(created + this.jobDurationMs),
      outcome: job.outcome ?? "SUCCESS",
    };
  }

  /** Copies of the log collection jobs of one group (default all), in creation order, as of now. */
  jobs(groupId?: string): SimLogCollectionJob[] {
    return this.jobList
      .filter((j) => groupId === undefined || j.groupId === groupId)
      .map((j) => copyJob(this.advance(j)));
  }

  /** A copy of one job as of now. */
  job(id: string): SimLogCollectionJob | undefined {
    const job = this.jobIds.get(id);
    return job === undefined ? undefined : copyJob(this.advance(job));
  }

  /** Changes a job; throws for an unknown id. A job put back `IN_PROGRESS` finishes anew. */
  updateJob(id: string, change: SimJobChange): SimLogCollectionJob {
    const job = this.jobIds.get(id);
    if (!job) throw new Error(`no log collection job with id ${id}`);
    if (change.status === "IN_PROGRESS" && change.finishDate === undefined) {
      job.finishDate = iso(Date.now() + this.jobDurationMs);
    }
    Object.assign(job, change);
    this.changed();
    return copyJob(this.advance(job));
  }

  /** Removes a job; an unknown id is ignored. */
  removeJob(id: string): void {
    const job = this.jobIds.get(id);
    if (!job) return;
    this.jobIds.delete(id);
    this.jobList.splice(this.jobList.indexOf(job), 1);
    this.changed();
  }

  /** Moves a job on as time has passed: a running job finishes, a job past its expiration expires. */
  private advance(job: SimLogCollectionJob): SimLogCollectionJob {
    const now = Date.now();
    let moved = false;
    if (job.status === "IN_PROGRESS" && now >= Date.parse(job.finishDate)) {
      job.status = job.outcome;
      moved = true;
    }
    if (job.status !== "EXPIRED" && now >= Date.parse(job.expirationDate)) {
      job.status = "EXPIRED";
      moved = true;
    }
    if (moved) this.changed();
    return job;
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

  private insertJob(job: SimLogCollectionJob): void {
    this.jobList.push(job);
    this.jobIds.set(job.id, job);
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
      jobs: this.jobList,
    };
  }
}
