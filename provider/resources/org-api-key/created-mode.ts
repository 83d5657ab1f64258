/**
 * The rules of a *created* OrgApiKey, one that names no existing key: what `check` refuses, what
 * `diff` replaces, and its outputs. It is made with one POST (./create-key.ts), its private key kept
 * from that answer (the only one that shows it), replaced when its `keepers` change (the new key
 * first, then the old one deleted), and deleted on destroy.
 */
import { maskPrivateKey } from "../../api/schemas";
import { type CheckFailure, UNKNOWN } from "../shared/validate";
import type { KeyState } from "./state";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs } from "./types";

type Inputs = Pick<OrgApiKeyProviderInputs, "apiKeyId" | "publicKey">;

/** Whether inputs declare a key to create: they name no existing key. */
export function declaresCreated(inputs: Inputs): boolean {
  return inputs.apiKeyId === undefined && inputs.publicKey === undefined;
}

/** Whether the state is of a key this resource created (state of earlier versions never is). */
export function isCreatedState(state: Pick<KeyState, "managed">): boolean {
  return state.managed?.by === "created";
}

/**
 * `check`'s rules of the mode the inputs declare: a key to create needs its `desc` and `roles` (the
 * server requires both) and cannot be restored on delete (it is deleted); `keepers` only replace a key
 * this resource creates.
 */
export function modeFailures(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (declaresCreated(news as Inputs)) {
    for (const property of ["desc", "roles"] as const) {
      if (news[property] === undefined) {
        failures.push({
          property,
          reason: `${property} is required to create a key (neither apiKeyId nor publicKey names an existing one); to adopt an existing key instead, give its apiKeyId or publicKey`,
        });
      }
    }
    if (news.restoreOnDelete === true) {
      failures.push({
        property: "restoreOnDelete",
        reason:
          "restoreOnDelete applies to an adopted key (named by apiKeyId or publicKey); a key this resource creates is deleted on destroy, so there is nothing to restore",
      });
    }
  } else if (news.keepers !== undefined) {
    failures.push({
      property: "keepers",
      reason:
        "keepers replace a key this resource creates when they change; an adopted key (named by apiKeyId or publicKey) cannot be replaced by a new one, so remove keepers or remove apiKeyId and publicKey to create the key",
    });
  }
  return failures;
}

const keepersOf = (value: unknown): Record<string, string> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, string>)
    : {};

/** Whether two `keepers` maps differ; a map or a value not known yet may differ. */
function keepersDiffer(news: unknown, olds: unknown): boolean {
  if (news === UNKNOWN) return true;
  const a = keepersOf(news);
  const b = keepersOf(olds);
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].some((name) => a[name] === UNKNOWN || a[name] !== b[name]);
}

/**
 * The replacements particular to created keys: a key created and one adopted are different resources
 * (switching is a replacement), and a created key's `keepers` changing replaces it. Naming the created
 * key itself by its `apiKeyId` or `publicKey` adopts it in place (an update): a replacement would adopt
 * it, then delete it as the old resource.
 */
export function createdReplaces(state: KeyState, news: OrgApiKeyProviderInputs) {
  const replaces: string[] = [];
  const created = isCreatedState(state);
  if (declaresCreated(news)) {
    if (!created) replaces.push(state.managed?.by === "publicKey" ? "publicKey" : "apiKeyId");
    else if (keepersDiffer(news.keepers, state.keepers)) replaces.push("keepers");
  } else if (created) {
    const sameKey =
      news.apiKeyId !== undefined ? news.apiKeyId === state.apiKeyId : news.publicKey === state.publicKey;
    if (!sameKey) replaces.push(news.apiKeyId !== undefined ? "apiKeyId" : "publicKey");
  }
  return replaces;
}

/**
 * The updates particular to created keys: naming the created key adopts it in place, an update of the
 * inputs the program changed to do so: the one that names the key (`apiKeyId`, else `publicKey`), and
 * `keepers` dropped (an adopted key takes none).
 */
export function createdUpdates(state: KeyState, news: OrgApiKeyProviderInputs) {
  const updates: string[] = [];
  if (isCreatedState(state) && !declaresCreated(news)) {
    updates.push(news.apiKeyId !== undefined ? "apiKeyId" : "publicKey");
    if (Object.keys(keepersOf(state.keepers)).length > 0) updates.push("keepers");
  }
  return updates;
}

/**
 * The outputs of a created key, from the outputs an adopted key would have: its private key from the
 * create (the server shows it redacted ever after), its keepers, nothing to restore.
 */
export function asCreated(
  outs: KeyState,
  privateKey: string,
  keepers: Record<string, string> | undefined,
): OrgApiKeyProviderOutputs {
  return {
    ...outs,
    privateKey,
    keepers: { ...(keepers ?? {}) },
    restoreOnDelete: false,
    adopted: { desc: "", roles: [] },
    managed: { desc: true, roles: true, by: "created" },
  };
}

/** What a refresh of a created key says the program declares: no key named, its keepers kept. */
export function createdReadInputs(inputs: OrgApiKeyProviderInputs, state: KeyState): OrgApiKeyProviderInputs {
  const { apiKeyId: _id, publicKey: _publicKey, restoreOnDelete: _restore, ...rest } = inputs;
  const keepers = keepersOf(state.keepers);
  return Object.keys(keepers).length > 0 ? { ...rest, keepers } : rest;
}

/**
 * An update's outputs as the mode has them: a created key keeps its private key and records its
 * keepers; a created key adopted in place shows its private key masked, as an adopted key does.
 */
export function afterUpdate(
  state: KeyState,
  news: OrgApiKeyProviderInputs,
  outs: OrgApiKeyProviderOutputs,
): OrgApiKeyProviderOutputs {
  if (!isCreatedState(state)) return outs;
  if (declaresCreated(news)) return asCreated(outs, state.privateKey, news.keepers);
  return { ...outs, privateKey: maskPrivateKey(state.privateKey) };
}

/** A refresh of a created key: everything from the server but its private key and keepers. */
export function afterRead(
  state: KeyState,
  props: KeyState,
  inputs: OrgApiKeyProviderInputs,
): { props: KeyState; inputs: OrgApiKeyProviderInputs } {
  if (!isCreatedState(state)) return { props, inputs };
  return {
    props: asCreated(props, state.privateKey, state.keepers),
    inputs: createdReadInputs(inputs, state),
  };
}
