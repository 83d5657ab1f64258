/**
 * OrgApiKey's provider methods, as the dynamic-provider host calls them. Loaded in the host by
 * `pulumi-opsmanager/host`, never captured by a serialized provider.
 */
import { isApiKeyGone } from "../../api/api-key-gone";
import type { ApiKeySelector } from "../../api/api-keys";
import { idRule } from "../../api/ids";
import type { ApiKey, OrgRole } from "../../api/schemas";
import { asDynamicDiff, type FieldDiff } from "../shared/field-diff";
import { noteKeyChecked, noteKeyVerdict } from "../shared/preview-links";
import { carriedOriginal, noteManagedHere } from "../shared/replacement";
import { ResourceError } from "../shared/resource-error";
import { currentClient, whenConfigured } from "../shared/runtime";
import { checkResource, serverDiff, serverField } from "../shared/server-input";
import { settingKey } from "../shared/servers";
import { isUnknown } from "../shared/validate";
import { accessListAfterUpdate, manageAccessList, readAccessList } from "./access-list";
import { createKey, giveAccessList } from "./create-key";
import { afterRead, afterUpdate, createdReplaces, createdUpdates, declaresCreated } from "./created-mode";
import { keyName, rememberAdopted } from "./deployment-keys";
import { describeKey, keyInState, patch, withContext } from "./key-calls";
import { changeFor, checkKeyInputs, declaredChange, roleSet, sameSet } from "./org-api-key-inputs";
import { findKey } from "./org-key-cache";
import { isPending, pendingDiff, pendingUpdate } from "./pending-create";
import { type KeyState, managedFor, upgradeKeyState } from "./state";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs, ProjectRole } from "./types";

/**
 * The key's organization roles, as a set. Typed as the roles a program declares, which are the spec's
 * organization roles; the listing is not checked against them, so a role a newer server adds passes.
 */
function orgRolesOf(key: ApiKey): OrgRole[] {
  return roleSet(key.roles.filter((r) => r.orgId !== undefined).map((r) => r.roleName)) as OrgRole[];
}

function projectRolesOf(key: ApiKey): ProjectRole[] {
  return key.roles
    .filter((r) => r.groupId !== undefined)
    .map((r) => ({ groupId: r.groupId!, roleName: r.roleName }))
    .sort((a, b) => a.groupId.localeCompare(b.groupId) || a.roleName.localeCompare(b.roleName));
}

function selectorOf(inputs: { apiKeyId?: string; publicKey?: string }): ApiKeySelector {
  return inputs.apiKeyId !== undefined ? { id: inputs.apiKeyId } : { publicKey: inputs.publicKey! };
}

/**
 * What `restoreOnDelete` puts back after an update. A field the resource starts managing again takes
 * the value the state holds now: the key's value just before Pulumi manages it once more.
 */
function adoptedAfter(state: KeyState, news: OrgApiKeyProviderInputs) {
  const was = managedFor(state, news);
  return {
    desc: news.desc !== undefined && !was.desc ? state.desc : state.adopted.desc,
    roles: news.roles !== undefined && !was.roles ? state.roles : state.adopted.roles,
  };
}

function outputsFor(
  inputs: OrgApiKeyProviderInputs,
  key: ApiKey,
  adopted: OrgApiKeyProviderOutputs["adopted"],
): OrgApiKeyProviderOutputs {
  return {
    orgId: inputs.orgId,
    apiKeyId: key.id,
    publicKey: key.publicKey,
    desc: key.desc ?? "",
    roles: orgRolesOf(key),
    privateKey: key.privateKey ?? "",
    projectRoles: projectRolesOf(key),
    restoreOnDelete: inputs.restoreOnDelete ?? false,
    adopted,
    managed: {
      desc: inputs.desc !== undefined,
      roles: inputs.roles !== undefined,
      by: inputs.apiKeyId !== undefined ? "apiKeyId" : "publicKey",
    },
    keepers: {},
    ...serverField(inputs),
  };
}

/** `check`: one failure per bad input, naming the rule; values not known yet pass. */
export function check(_olds: object, news: object) {
  // A dependent that takes this key's id learns, in a dynamic preview, that the engine asked about it.
  noteKeyChecked(news);
  return checkResource<OrgApiKeyProviderInputs>(news, checkKeyInputs);
}

/**
 * The diff against the state, field by field: desc, roles and the access list are updates (the lists as sets), and so is
 * starting or ceasing to manage one; another key, server or organization, or a created key's new
 * `keepers`, is a replacement.
 */
export async function fieldDiff(
  id: string,
  olds: OrgApiKeyProviderOutputs,
  news: OrgApiKeyProviderInputs,
): Promise<FieldDiff> {
  // Whether another name reaches the same server is read from the stack config.
  await whenConfigured();
  const state = upgradeKeyState(olds, id, "diff");
  if (isPending(state)) return pendingDiff();
  rememberAdopted(state);
  const replaces: string[] = [];
  const changed = (value: unknown, old: unknown) => isUnknown(value) || value !== old;
  const server = serverDiff(news, state);
  if (server.replace) replaces.push("server");
  if (changed(news.orgId, state.orgId)) replaces.push("orgId");
  if (news.apiKeyId !== undefined && changed(news.apiKeyId, state.apiKeyId)) replaces.push("apiKeyId");
  if (news.publicKey !== undefined && changed(news.publicKey, state.publicKey)) replaces.push("publicKey");
  const updates: string[] = [];
  // A field dropped from the program must reach the state through an update: otherwise the engine
  // keeps the old `managed` flags, and delete would restore a field nobody manages any more.
  const was = managedFor(state, news);
  const descDiffers = isUnknown(news.desc) || news.desc !== state.desc;
  const rolesDiffer = isUnknown(news.roles) || !sameSet(news.roles ?? [], state.roles);
  if (news.desc === undefined ? was.desc : !was.desc || descDiffers) updates.push("desc");
  if (news.roles === undefined ? was.roles : !was.roles || rolesDiffer) updates.push("roles");
  if ((news.restoreOnDelete ?? false) !== state.restoreOnDelete) updates.push("restoreOnDelete");
  if (server.rename) updates.push("server");
  replaces.push(...createdReplaces(state, news).filter((p) => !replaces.includes(p)));
  updates.push(...createdUpdates(state, news));
  const listDiffers =
    state.accessList === undefined ||
    isUnknown(news.accessList) ||
    !sameSet(news.accessList ?? [], state.accessList);
  if (news.accessList === undefined ? state.accessList !== undefined : listDiffers)
    updates.push("accessList");
  // A dependent that takes this key's id learns, in a dynamic preview, whether it stays.
  noteKeyVerdict(news, state.apiKeyId, replaces.length === 0);
  return {
    replaces,
    updates,
    // Restoring the old key must come before another resource adopts a key.
    deleteBeforeReplace: replaces.length > 0 && state.restoreOnDelete,
  };
}

/** `diff` as the dynamic host takes it: {@link fieldDiff} without the fields. */
export async function diff(id: string, olds: OrgApiKeyProviderOutputs, news: OrgApiKeyProviderInputs) {
  return asDynamicDiff(await fieldDiff(id, olds, news));
}

/**
 * `create`: a key to create is made (./create-key.ts); an existing key is adopted: found, PATCHed only
 * where it differs, and returned with the full outputs.
 */
export async function create(inputs: OrgApiKeyProviderInputs) {
  await whenConfigured();
  if (declaresCreated(inputs)) {
    const made = await createKey(inputs, (key) => outputsFor(inputs, key, { desc: "", roles: [] }));
    return inputs.accessList === undefined ? made : giveAccessList(inputs, made, inputs.accessList);
  }
  const selector = selectorOf(inputs);
  try {
    const client = currentClient(inputs.server);
    let key = await findKey(client, inputs.orgId, selector);
    if (key === undefined) {
      throw new ResourceError(
        `no ${describeKey(inputs.orgId, selector)}: the organization's key listing does not have it. ` +
          "OrgApiKey adopts an existing key when it names one: check orgId and " +
          `${selector.id !== undefined ? "apiKeyId" : "publicKey"}, and that the provider's credentials can see the organization's keys.`,
      );
    }
    const current = { desc: key.desc ?? "", roles: orgRolesOf(key) };
    // A replaced resource of this key, seen in this process, recorded what the key had before.
    const carried = carriedOriginal<OrgApiKeyProviderOutputs["adopted"]>(keyName(inputs.server, key.id));
    noteManagedHere(keyName(inputs.server, key.id), carried !== undefined);
    const adopted = carried === undefined ? current : { desc: carried.desc, roles: carried.roles };
    const change = changeFor(inputs, current);
    if (change !== undefined) key = await patch(inputs.server, inputs.orgId, key, change);
    if (inputs.accessList === undefined) return { id: key.id, outs: outputsFor(inputs, key, adopted) };
    const list = await manageAccessList(client, inputs.orgId, key.id, inputs.accessList);
    const outs = outputsFor(inputs, key, { ...adopted, accessList: carried?.accessList ?? list.before });
    return { id: key.id, outs: { ...outs, ...list.outputs } };
  } catch (error) {
    throw withContext(error, describeKey(inputs.orgId, selector, inputs.server));
  }
}

/**
 * `update`: when the state differs from what the program declares, one PATCH carrying every managed
 * field, so drift in a field the program did not change is put right too; else no request. Full
 * outputs back, with `managed` following the new inputs.
 */
export async function update(id: string, olds: OrgApiKeyProviderOutputs, news: OrgApiKeyProviderInputs) {
  const state = upgradeKeyState(olds, id, "update");
  if (isPending(state)) return pendingUpdate(id);
  await whenConfigured();
  rememberAdopted(state);
  try {
    let key = keyInState(state);
    if (changeFor(news, { desc: state.desc, roles: state.roles }) !== undefined) {
      key = await patch(state.server, news.orgId, key, declaredChange(news));
    }
    const client = currentClient(state.server);
    const list = await accessListAfterUpdate(client, news.orgId, id, state, news.accessList);
    const adopted: OrgApiKeyProviderOutputs["adopted"] = adoptedAfter(state, news);
    if (list.adopted !== undefined) adopted.accessList = list.adopted;
    const outs = outputsFor(news, key, adopted);
    return {
      outs: afterUpdate(state, news, list.outputs === undefined ? outs : { ...outs, ...list.outputs }),
    };
  } catch (error) {
    const gone = isApiKeyGone(error)
      ? " The key may have been deleted outside Pulumi: run `pulumi refresh` to drop it from the stack."
      : "";
    throw withContext(error, describeKey(news.orgId, { id }, state.server), gone);
  }
}

/** `read` (refresh, `get`): the server's desc and roles now; a key no longer listed is gone. */
export async function read(id: string, olds: Partial<OrgApiKeyProviderOutputs> = {}) {
  const state = upgradeKeyState(olds, id, "read");
  // A create still to settle is left as recorded: its next `pulumi up` or `pulumi destroy` settles it.
  if (isPending(state)) return { id, props: state };
  await whenConfigured();
  if (idRule(state.orgId) !== undefined) {
    throw new ResourceError(
      `OrgApiKey (API key id ${id}): reading a key needs its orgId; look it up with OrgApiKey.get(name, id, { orgId }).`,
    );
  }
  const orgId = state.orgId;
  let listRead = false;
  try {
    const key = await findKey(currentClient(state.server), orgId, { id });
    if (key === undefined) return { id: "", props: {} };
    rememberAdopted(state);
    const managed = managedFor(state);
    const inputs: OrgApiKeyProviderInputs = { orgId, ...serverField(state) };
    if (managed.by === "publicKey") inputs.publicKey = key.publicKey;
    else inputs.apiKeyId = key.id;
    if (managed.desc) inputs.desc = key.desc ?? "";
    if (managed.roles) inputs.roles = orgRolesOf(key) as OrgRole[];
    if (state.restoreOnDelete) inputs.restoreOnDelete = true;
    const props: KeyState = outputsFor(inputs, key, state.adopted);
    // Not recorded stays not recorded: the next update records it from the program.
    if (state.managed === undefined) delete props.managed;
    if (state.accessList !== undefined) {
      listRead = true;
      const list = await readAccessList(currentClient(state.server), orgId, key.id);
      inputs.accessList = list.accessList;
      Object.assign(props, list);
    }
    // Returning inputs too makes a preview after refresh show drift as server value → declared value;
    // the host forwards them from SDK 3.216 (pulumi/pulumi#21315), the peer dependency's floor.
    const kept = afterRead(state, props, inputs);
    return { id: key.id, props: kept.props, inputs: kept.inputs };
  } catch (error) {
    // An API_KEY_NOT_FOUND answer to the org's listing, which names no key, is about another key (the
    // caller's own, say): whether this key is gone is findKey's to say, from two listings that lack it.
    const notThisKey = listRead
      ? isApiKeyGone(error)
        ? " The key's own access list said so, after the organization's listing still had the key: if it was deleted meanwhile, the next `pulumi refresh` drops it from the stack."
        : ""
      : isApiKeyGone(error)
        ? ` That answer came to the organization's key listing, which names no key, so it does not say that API key ${id} is gone: the key stays in the stack. Check that the key the provider signs with (${settingKey(state.server, "publicKey")}) still exists, then run the refresh again.`
        : "";
    throw withContext(error, describeKey(orgId, { id }, state.server), notThisKey);
  }
}

export { remove } from "./delete-key";
