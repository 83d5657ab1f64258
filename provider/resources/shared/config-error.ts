import { OpsManagerError } from "../../client/errors";

/**
 * The provider's settings are missing or unusable. The message names each setting and where it can be
 * set, never a setting's value (a value may be a credential). Code `OM_ERR_CONFIG`.
 */
export class ConfigError extends OpsManagerError {
  /** The settings at fault, by their stack config names (`opsmanager:baseUrl`, …). */
  readonly settings: string[];

  constructor(message: string, settings: string[]) {
    super("OM_ERR_CONFIG", message);
    this.name = "ConfigError";
    this.settings = settings;
  }
}
