/**
 * The stable entry point that serialized providers `require` by package name inside Pulumi's
 * dynamic-provider host (`require("pulumi-opsmanager/host")`). Provider text stays in state until a
 * resource is next updated, so every later version of this package keeps these names and handles
 * the state every earlier version wrote.
 */

export {
  apiKeyProjectAssignmentMethods,
  logCollectionJobMethods,
  orgApiKeyMethods,
} from "./resources/methods";
export { configure } from "./resources/shared/runtime";
