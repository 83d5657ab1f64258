/**
 * A local server of the three Ops Manager public API operations in the spec (list org API keys, patch
 * one, create a log collection job), behind real HTTP Digest authentication, with a request log and
 * fault injection for tests. It plays a deployed Ops Manager by default, where a log collection job
 * also has the rest of its documented life (list, get, extend, retry, delete, download), or the spec as
 * written (`profile: "spec"`).
 *
 * @example
 * import { startSimulator } from "pulumi-opsmanager/simulator";
 * const sim = await startSimulator({ seed: { keys: 10 } });
 * // sim.apiRoot, sim.publicKey, sim.privateKey, sim.orgId, sim.groupId
 * sim.faults.add({ method: "POST", status: 503 });
 * await sim.close();
 *
 * // Several, each its own Ops Manager (organization, project, keys, admin credentials), named sim1, sim2:
 * const [dc1, dc2] = await startSimulators(2);
 */
export { DIGEST_REALM, digestResponse, formatChallenge, parseDigestHeader } from "./digest";
export { SERVICE_VERSION } from "./framing";
export { PROFILES, type ProfileRules } from "./profiles";
export { startSimulator } from "./server";
export {
  MAX_SERVERS,
  type NamedSimulator,
  serverName,
  serverSeed,
  serverStateFile,
  startSimulators,
} from "./servers";
export {
  DEFAULT_GROUP_ID,
  DEFAULT_ORG_ID,
  DEFAULT_PRIVATE_KEY,
  DEFAULT_PUBLIC_KEY,
  GROUP_ROLES,
  ORG_ROLES,
} from "./state";
export type {
  ChaosOptions,
  Fault,
  FaultController,
  NewSimLogCollectionJob,
  OrgRoleName,
  RecordedRequest,
  SeedOptions,
  SimApiKey,
  SimJobChange,
  SimJobStatus,
  SimLogCollectionJob,
  SimRole,
  Simulator,
  SimulatorOptions,
  SimulatorProfile,
} from "./types";
