/**
 * ApiKeyProjectAssignment's inputs: their rules (what `check` reports) and roles compared as a set.
 */

import { z } from "zod";
import { hex24Rule, quoteValue } from "../../api/ids";
import { GROUP_ROLES } from "../../api/types";
import { serverSchema } from "../shared/server-input";
import { roleSet } from "../shared/sets";
import { type CheckFailure, checkProperties, isUnknown, oneOfRule, typeRule } from "../shared/validate";
import type { ApiKeyProjectAssignmentProviderInputs } from "./types";

const hex24Schema = (what: string) =>
  z.string(typeRule(`must be ${what}, a string`)).refine((v) => hex24Rule(v) === undefined, {
    error: (issue) => `must be 24 hexadecimal digits, ${what} (got ${quoteValue(issue.input)})`,
  });

// An organization role where a project role belongs is a likely mistake: say what it is.
const orgRoleNote = (input: unknown) =>
  typeof input === "string" && input.startsWith("ORG_")
    ? ", which is an organization role; ApiKeyProjectAssignment sets project roles only, OrgApiKey sets organization roles"
    : undefined;

/** The rules of ApiKeyProjectAssignment's inputs, one schema per property. */
export const assignmentInputShape = {
  apiKeyId: hex24Schema("the organization API key's id"),
  groupId: hex24Schema("the project (group) id"),
  roles: z
    .array(
      z.enum(
        GROUP_ROLES,
        oneOfRule(GROUP_ROLES, `must be a project role: one of ${GROUP_ROLES.join(", ")}`, orgRoleNote),
      ),
      typeRule("must be a list of project role names"),
    )
    .min(1, {
      error: "must name at least one project role (to take the key out of the project, delete the resource)",
    }),
  restoreOnDelete: z.boolean(typeRule("must be true or false")).optional(),
  server: serverSchema,
} satisfies Record<keyof ApiKeyProjectAssignmentProviderInputs, z.ZodType>;

export { roleSet, sameSet as sameRoles } from "../shared/sets";

/**
 * `check`'s work: one failure per bad input, naming the rule (every bad role, not only the first);
 * values not known yet pass. Roles come back as a set, so that the engine's own comparison sees no
 * change in their order or repeats.
 */
export function checkAssignmentInputs(news: Record<string, unknown>): {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
} {
  const failures = checkProperties("ApiKeyProjectAssignment", assignmentInputShape, news);
  const inputs = { ...news };
  delete inputs.__provider;
  if (
    Array.isArray(inputs.roles) &&
    !isUnknown(inputs.roles) &&
    failures.every((f) => f.property !== "roles")
  ) {
    inputs.roles = roleSet(inputs.roles as string[]);
  }
  return { inputs, failures };
}
