import { OpsManagerError } from "./opsmanager-error";

/**
 * A client option or request argument breaks a rule (code `OM_ERR_INVALID_ARGUMENT`), thrown before
 * anything is sent. The message names the option and the rule; it never quotes a secret.
 *
 * @example `invalid option baseUrl: must start with https:// or http:// (got "om.example.com:8443")`
 */
export class InvalidArgumentError extends OpsManagerError {
  /** The option's name, e.g. `baseUrl` or `retry.maxAttempts`. */
  readonly option: string;

  constructor(option: string, rule: string) {
    super("OM_ERR_INVALID_ARGUMENT", `invalid option ${option}: ${rule}`);
    this.name = "InvalidArgumentError";
    this.option = option;
  }
}
