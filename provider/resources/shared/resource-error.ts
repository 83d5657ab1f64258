import { OpsManagerError } from "../../client/errors";

/**
 * A resource's call that cannot go on with what it was given (code `OM_ERR_RESOURCE`): an `OrgApiKey`
 * whose key the organization's listing does not have, state without the id a read needs, a change the
 * engine should have made a replacement. Nothing is sent after it. The message names the resource and
 * what to do.
 *
 * @example
 * `LogCollectionJob 5f3…: reading a job needs its groupId, the project it belongs to.`
 */
export class ResourceError extends OpsManagerError {
  constructor(message: string) {
    super("OM_ERR_RESOURCE", message);
    this.name = "ResourceError";
  }
}
