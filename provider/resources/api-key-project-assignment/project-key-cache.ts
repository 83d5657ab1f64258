/**
 * One listing of each project's API keys per deployment, shared by every ApiKeyProjectAssignment of
 * that project, as ../org-api-key/org-key-cache shares an organization's key listing (and under its
 * rule, `mayServe`): refreshing M assignments of one project costs one listing, not M reads. A key
 * missing from it is unassigned only when two listings whose pages agreed both lack it, the second
 * started after the call.
 */
import type { ListedApiKey } from "../../api/api-keys";
import { listProjectApiKeysByPage } from "../../api/project-api-keys";
import type { Transport } from "../../api/transport";
import { mayServe } from "../org-api-key/org-key-cache";

/** One listing of a project's keys, filled page by page, and what this deployment set since. */
class ProjectKeyListing {
  /** Every key any page of any read listed: a key on any page was really there. */
  private readonly seen = new Map<string, ListedApiKey>();
  /** Roles a PATCH or DELETE of this deployment set after the listing started: newer than any page. */
  private readonly written = new Map<string, string[]>();
  readonly done: Promise<void>;

  constructor(
    transport: Transport,
    readonly groupId: string,
    /** Its tick of {@link clock}: later than every call before it, earlier than every call after. */
    readonly startSeq: number,
    readonly startedAt: number,
  ) {
    this.done = listProjectApiKeysByPage(transport, groupId, (keys) => {
      for (const key of keys) this.seen.set(key.id, key);
    });
  }

  /**
   * The key's roles in the project, sorted; `undefined` once a read whose pages agree is in without
   * it. A listing that never agreed still answers for a key one of its pages held.
   */
  async rolesOf(apiKeyId: string): Promise<string[] | undefined> {
    try {
      await this.done;
    } catch (error) {
      if (!this.written.has(apiKeyId) && !this.seen.has(apiKeyId)) throw error;
    }
    const roles = this.written.get(apiKeyId) ?? this.listedRoles(apiKeyId);
    return roles === undefined || roles.length === 0 ? undefined : roles;
  }

  wrote(apiKeyId: string, roles: readonly string[]): void {
    this.written.set(apiKeyId, [...roles].sort());
  }

  private listedRoles(apiKeyId: string): string[] | undefined {
    const listed = this.seen.get(apiKeyId);
    if (listed === undefined) return undefined;
    return listed
      .key()
      .roles.filter((r) => r.groupId === this.groupId)
      .map((r) => r.roleName)
      .sort();
  }
}

// Keyed by client (clients are shared and live as long as the process), then by project.
const listings = new Map<Transport, Map<string, ProjectKeyListing>>();
let clock = 0;

function listing(transport: Transport, groupId: string, after?: number): ProjectKeyListing {
  let projects = listings.get(transport);
  if (projects === undefined) {
    projects = new Map();
    listings.set(transport, projects);
  }
  const existing = projects.get(groupId);
  if (existing !== undefined && mayServe(existing, after)) return existing;
  const entry = new ProjectKeyListing(transport, groupId, ++clock, Date.now());
  const map = projects;
  map.set(groupId, entry);
  // A failed listing is not kept: the next caller tries again.
  entry.done.catch(() => {
    if (map.get(groupId) === entry) map.delete(groupId);
  });
  return entry;
}

/**
 * The roles of key `apiKeyId` in project `groupId`, sorted, from the project's shared listing;
 * `undefined` when the key holds none there (is not assigned), which takes two listings whose pages
 * agreed, the second started after this call and the first.
 */
export async function findAssignment(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
): Promise<string[] | undefined> {
  const call = ++clock;
  const first = listing(transport, groupId);
  const roles = await first.rolesOf(apiKeyId);
  if (roles !== undefined) return roles;
  return listing(transport, groupId, Math.max(call, first.startSeq)).rolesOf(apiKeyId);
}

/** Keep the project's shared listing fresh with roles this deployment just set (none: unassigned). */
export function rememberAssignment(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
  roles: readonly string[],
): void {
  listings.get(transport)?.get(groupId)?.wrote(apiKeyId, roles);
}
