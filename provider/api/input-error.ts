import { OpsManagerError } from "../client/errors";

/**
 * A value given to the API layer breaks a rule that the server would enforce, or that a request path
 * needs. Thrown before any request leaves the machine. Code `OM_ERR_INPUT`.
 *
 * @example
 * new InputError("groupId", "must be 24 hexadecimal digits", "5f00")
 * // groupId must be 24 hexadecimal digits (got "5f00")
 */
export class InputError extends OpsManagerError {
  /** The property or parameter at fault, e.g. `groupId` or `logTypes[2]`. */
  readonly property: string;
  /** The rule it breaks, as a phrase that follows the property's name. */
  readonly rule: string;

  constructor(property: string, rule: string, shown?: string) {
    super("OM_ERR_INPUT", `${property} ${rule}${shown === undefined ? "" : ` (got ${shown})`}`);
    this.name = "InputError";
    this.property = property;
    this.rule = rule;
  }
}
