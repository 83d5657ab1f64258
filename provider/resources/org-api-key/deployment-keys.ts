/**
 * What this deployment knows of the organization's keys, for a create whose answer was lost
 * (./uncertain-key.ts): the keys its resources created or manage, which are never the one that create
 * made, and the creates of keys alike (the same server, organization, desc and roles) under way, which
 * could have made any key alike that the listing shows.
 */
import { managedName, rememberOriginal } from "../shared/replacement";
import { identityOf } from "../shared/server-input";
import { perDeployment } from "../shared/server-memory";
import { isCreatedState } from "./created-mode";
import { roleSet } from "./org-api-key-inputs";
import type { KeyState } from "./state";

/**
 * The organization API keys a resource of this deployment created, adopted, read, updated or deleted,
 * as `{server's identity} {key id}`: a create whose answer was lost never takes one of them for the key
 * it may have made.
 */
const keysInDeployment = perDeployment(() => new Set<string>());

/**
 * The creates of this deployment by what they make (the key's server, organization, desc and roles):
 * kept for the life of the process, since a create whose answer was lost may make its key any time.
 */
const createsInDeployment = perDeployment(() => new Map<string, KeyCreate[]>());

/** The key as this deployment's memory names it on its server (../shared/replacement.ts). */
export const keyName = (server: string | undefined, id: string) => managedName(server, `key ${id}`);

/**
 * Note what an adopted key's state recorded as the key's before the program managed it (`adopted`):
 * a replacement adopting the same key in this process carries it.
 */
export function rememberAdopted(state: KeyState): void {
  if (isCreatedState(state) || state.apiKeyId === "") return;
  const { adopted } = state;
  // State that recorded nothing to put back (written before `adopted` was) carries nothing.
  if (adopted.desc === "" && adopted.roles.length === 0 && adopted.accessList === undefined) return;
  rememberOriginal(keyName(state.server, state.apiKeyId), adopted);
}

/** Note that a resource of this deployment created, adopted, read, updated or deleted key `id`. */
export function noteDeploymentKey(server: string | undefined, id: string): void {
  if (id !== "") keysInDeployment().add(keyName(server, id));
}

/** Whether key `id` is one a resource of this deployment created or manages. */
export function isDeploymentKey(server: string | undefined, id: string): boolean {
  return keysInDeployment().has(keyName(server, id));
}

/** One POST of a new key by this deployment. */
export interface KeyCreate {
  /** Local time just before the POST, in ms. */
  sentAt: number;
  /** Settles when the POST's answer has been read or has failed. */
  done: Promise<void>;
  /** Whether its answer was lost (it may have made a key nobody knows); set once `done` settles. */
  uncertain?: boolean;
}

/** A create of this deployment under way, and what it learns of the others alike. */
export interface TrackedCreate {
  /** Ends it: the key its answer named, or none when the answer was lost or refused. */
  end(outcome: { madeId?: string; uncertain: boolean }): void;
  /**
   * The other creates alike sent before `failedAt`, once each has been answered or has failed: those
   * still uncertain may have made any key alike that a listing shows.
   */
  uncertainOthers(failedAt: number): Promise<KeyCreate[]>;
}

const signature = (server: string | undefined, orgId: string, desc: string, roles: readonly string[]) =>
  `${identityOf(server) ?? ""} ${orgId} ${JSON.stringify(desc)} ${roleSet(roles).join(",")}`;

/** Starts a create of a key with `desc` and `roles`, which others alike can wait for. */
export function trackCreate(
  server: string | undefined,
  attempt: { orgId: string; desc: string; roles: readonly string[]; sentAt: number },
): TrackedCreate {
  const creates = createsInDeployment();
  const key = signature(server, attempt.orgId, attempt.desc, attempt.roles);
  let finish = () => {};
  const create: KeyCreate = { sentAt: attempt.sentAt, done: new Promise<void>((r) => (finish = r)) };
  creates.set(key, [...(creates.get(key) ?? []), create]);
  return {
    end({ madeId, uncertain }) {
      // Noted before anyone waiting on `done` goes on: the key made is then never another's.
      if (madeId !== undefined) noteDeploymentKey(server, madeId);
      create.uncertain = uncertain;
      finish();
    },
    async uncertainOthers(failedAt) {
      const others = (creates.get(key) ?? []).filter((c) => c !== create && c.sentAt <= failedAt);
      await Promise.all(others.map((c) => c.done));
      return others.filter((c) => c.uncertain === true);
    },
  };
}
