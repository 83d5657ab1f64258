/**
 * OrgApiKey's inputs: their rules (what `check` reports), roles compared as a set, and the PATCH that
 * brings a key to what they declare.
 */

import { z } from "zod";
import type { ApiKeyChange } from "../../api/api-keys";
import { idRule, quoteValue } from "../../api/ids";
import { ORG_ROLES, type OrgRole } from "../../api/schemas";
import { serverSchema } from "../shared/server-input";
import { roleSet, sameSet } from "../shared/sets";
import { type CheckFailure, checkProperties, isUnknown, oneOfRule, typeRule } from "../shared/validate";
import { accessListSchema, accessListSet } from "./access-list-input";
import { modeFailures } from "./created-mode";
import type { OrgApiKeyProviderInputs } from "./types";

const DESC_MAX = 250;

const idSchema = (rule: string) =>
  z.string(typeRule(rule)).refine((v) => idRule(v) === undefined, {
    error: (issue) => `${idRule(issue.input)} (got ${quoteValue(issue.input)})`,
  });

// A project role where an organization role belongs is a likely mistake: say what it is.
const projectRoleNote = (input: unknown) =>
  typeof input === "string" && input.startsWith("GROUP_")
    ? ", which is a project role; OrgApiKey sets organization roles only and shows project roles in its projectRoles output"
    : undefined;

/** The rules of OrgApiKey's inputs, one schema per property. */
export const orgApiKeyInputShape = {
  orgId: idSchema("must be the organization's id, a string"),
  apiKeyId: idSchema("must be the API key's id, a string").optional(),
  publicKey: idSchema("must be the API key's public key, a string").optional(),
  desc: z
    .string(typeRule("must be a string"))
    .refine((v) => v.trim().length > 0, { error: "must not be empty or only white space" })
    .refine((v) => v.length <= DESC_MAX, {
      error: (issue) => `must be at most ${DESC_MAX} characters (got ${(issue.input as string).length})`,
    })
    .optional(),
  roles: z
    .array(
      z.enum(
        ORG_ROLES,
        oneOfRule(ORG_ROLES, `must be an organization role: one of ${ORG_ROLES.join(", ")}`, projectRoleNote),
      ),
      typeRule("must be a list of organization role names"),
    )
    .min(1, { error: "must name at least one organization role" })
    .optional(),
  restoreOnDelete: z.boolean(typeRule("must be true or false")).optional(),
  keepers: z
    .record(z.string(), z.string(typeRule("must be a string")), typeRule("must be a map of strings"))
    .optional(),
  accessList: accessListSchema.optional(),
  server: serverSchema,
} satisfies Record<keyof OrgApiKeyProviderInputs, z.ZodType>;

export { roleSet, sameSet } from "../shared/sets";

/** The PATCH from `current` to what `inputs` declare, or `undefined` when there is nothing to change. */
export function changeFor(
  inputs: OrgApiKeyProviderInputs,
  current: { desc: string; roles: string[] },
): ApiKeyChange | undefined {
  const change: ApiKeyChange = {};
  if (inputs.desc !== undefined && inputs.desc !== current.desc) change.desc = inputs.desc;
  if (inputs.roles !== undefined && !sameSet(inputs.roles, current.roles))
    change.roles = roleSet(inputs.roles) as OrgRole[];
  return change.desc === undefined && change.roles === undefined ? undefined : change;
}

/** Every field `inputs` manage, as declared: what an update's PATCH carries. */
export function declaredChange(inputs: OrgApiKeyProviderInputs): ApiKeyChange {
  const change: ApiKeyChange = {};
  if (inputs.desc !== undefined) change.desc = inputs.desc;
  if (inputs.roles !== undefined) change.roles = roleSet(inputs.roles) as OrgRole[];
  return change;
}

/**
 * `check`'s work: one failure per bad input, naming the rule; values not known yet pass. Roles and the
 * access list come back as sets, so that the engine's own comparison sees no change in their order or
 * repeats.
 */
export function checkKeyInputs(news: Record<string, unknown>): {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
} {
  const failures: CheckFailure[] = checkProperties("OrgApiKey", orgApiKeyInputShape, news);
  const hasId = news.apiKeyId !== undefined;
  const hasPublicKey = news.publicKey !== undefined;
  if (hasId && hasPublicKey) {
    failures.push({
      property: "apiKeyId",
      reason: "give exactly one of apiKeyId and publicKey to name the key, not both",
    });
  }
  failures.push(...modeFailures(news));
  const inputs = { ...news };
  delete inputs.__provider;
  if (
    Array.isArray(inputs.roles) &&
    !isUnknown(inputs.roles) &&
    failures.every((f) => f.property !== "roles")
  ) {
    inputs.roles = roleSet(inputs.roles as string[]);
  }
  // In canonical spelling: `10.0.0.1/32` as declared is `10.0.0.1`.
  if (
    Array.isArray(inputs.accessList) &&
    !isUnknown(inputs.accessList) &&
    failures.every((f) => f.property !== "accessList")
  ) {
    inputs.accessList = accessListSet(inputs.accessList as string[]);
  }
  return { inputs, failures };
}
