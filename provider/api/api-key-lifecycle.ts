/** An organization API key made and deleted (the Ops Manager documentation; not in the spec). */

import { z } from "zod";
import { type RequestError, ResponseShapeError } from "../client/errors";
import type { JsonResponse } from "../client/types";
import { orgKeysPath } from "./api-keys";
import { idSegment, quoteValue } from "./ids";
import { InputError } from "./input-error";
import { mayHaveActed, sendOperation } from "./operation";
import { parseResponse } from "./parse";
import { roleSchema } from "./schemas";
import type { Transport } from "./transport";
import { type ApiKey, ORG_ROLES, type OrgRole } from "./types";
import { UncertainCreateError } from "./uncertain-create-error";

/** What a new key is made with: both required by the server. */
export interface NewApiKey {
  /** 1 to 250 characters. */
  desc: string;
  /** At least one organization role. */
  roles: OrgRole[];
}

/** A key as its create answered it: the one time `privateKey` is whole. */
export interface CreatedApiKey extends ApiKey {
  privateKey: string;
}

/** The longest desc the create takes (our rule: the spec shows none). */
export const DESC_MAX = 250;

// The create's answer is read for its whole private key; one shown redacted (asterisks) is not the
// key's secret, and a key without it cannot be used by anyone.
const createdKeySchema: z.ZodType<CreatedApiKey> = z.object({
  id: z.string().min(1),
  desc: z.string().optional(),
  privateKey: z
    .string()
    .min(1)
    .refine((v) => !v.includes("*"), { error: "the whole private key, not a redacted one" }),
  publicKey: z.string().min(1),
  roles: z.array(roleSchema).default([]),
});

/**
 * A key the server made whose create answer named it but not what using it needs (its whole private
 * key): `createdId` lets it be deleted rather than left behind. Code `OM_ERR_UNCERTAIN_CREATE`.
 */
export class CreatedKeyUnreadError extends UncertainCreateError {
  /** The id the create's answer gave the new key. */
  readonly createdId: string;

  constructor(createdId: string, cause: RequestError) {
    super("API key", `delete API key ${createdId}`, cause);
    this.name = "CreatedKeyUnreadError";
    this.createdId = createdId;
  }
}

/** `error` without the body it quotes, which may hold the whole private key (a JSON answer cut short). */
function withoutBody(error: unknown): unknown {
  if (!(error instanceof ResponseShapeError) || error.bodySnippet === undefined) return error;
  return new ResponseShapeError({
    ...error.call(),
    status: error.status,
    description: error.description,
    issues: error.issues,
    hint: error.hint,
  });
}

function checkNewKey(key: NewApiKey): NewApiKey {
  if (typeof key.desc !== "string" || key.desc.length < 1 || key.desc.length > DESC_MAX) {
    throw new InputError("desc", `must be a string of 1 to ${DESC_MAX} characters`, quoteValue(key.desc));
  }
  if (!Array.isArray(key.roles) || key.roles.length === 0) {
    throw new InputError("roles", "must name at least one organization role");
  }
  key.roles.forEach((role, i) => {
    if (!(ORG_ROLES as readonly string[]).includes(role)) {
      throw new InputError(`roles[${i}]`, `must be one of ${ORG_ROLES.join(", ")}`, quoteValue(role));
    }
  });
  return { desc: key.desc, roles: [...key.roles] };
}

/**
 * `POST /orgs/{ORG-ID}/apiKeys` with `{desc, roles}`: a new key with its whole private key, which no
 * other answer shows. Never sent twice. When the server may have made a key whose answer cannot be
 * read, the error is an `UncertainCreateError`, or a {@link CreatedKeyUnreadError} when the answer
 * named the key's id; no error carries any part of the answer's body.
 */
export async function createOrgApiKey(
  transport: Transport,
  orgId: string,
  key: NewApiKey,
): Promise<CreatedApiKey> {
  const path = orgKeysPath(orgId);
  const body = checkNewKey(key);
  let response: JsonResponse;
  try {
    response = await sendOperation(
      transport,
      { kind: "createOrgApiKey", orgId },
      { method: "POST", path, body },
      { orgId },
    );
  } catch (error) {
    const clean = withoutBody(error);
    if (mayHaveActed(clean))
      throw new UncertainCreateError("API key", "check the organization's keys", clean);
    throw clean;
  }
  try {
    return parseResponse(createdKeySchema, response, "POST", path);
  } catch (error) {
    const unread = withoutBody(error) as ResponseShapeError;
    const id = (response.body as { id?: unknown } | undefined)?.id;
    if (typeof id === "string" && idSegmentOk(id)) throw new CreatedKeyUnreadError(id, unread);
    throw new UncertainCreateError("API key", "check the organization's keys", unread);
  }
}

// An id that can be put in the DELETE's path.
function idSegmentOk(id: string): boolean {
  try {
    idSegment("apiKeyId", id);
    return true;
  } catch {
    return false;
  }
}

/**
 * `DELETE /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}`: the key goes, and with it its project assignments and
 * access list. A key already gone is `API_KEY_NOT_FOUND` (see `isApiKeyGone`).
 */
export async function deleteOrgApiKey(transport: Transport, orgId: string, apiKeyId: string): Promise<void> {
  const path = `${orgKeysPath(orgId)}/${idSegment("apiKeyId", apiKeyId)}`;
  await sendOperation(
    transport,
    { kind: "deleteOrgApiKey", orgId },
    { method: "DELETE", path },
    { orgId, apiKeyId },
  );
}
