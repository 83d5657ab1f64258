// One program, two Ops Managers: each server is named in the stack config `opsmanager:servers`
// (`pulumi config set --path 'opsmanager:servers.sim2.baseUrl' …`), and each resource names its server.
// On each, the first key whose description starts with a prefix is found with getOrgApiKeys and given
// read-only access; destroy puts its description and roles back.
import * as pulumi from "@pulumi/pulumi";
import { getOrgApiKeys, OrgApiKey } from "pulumi-opsmanager";

const config = new pulumi.Config();
const prefix = config.require("descPrefix");
// Each resource is named for its place in the program, not for its server's name: a server renamed in
// stack config (see the README) is then the same resource, updated in place, not a new one.
const servers = [
  { label: "first", server: config.require("firstServer"), orgId: config.require("firstOrgId") },
  { label: "second", server: config.require("secondServer"), orgId: config.require("secondOrgId") },
];

export const adopted = servers.map(async ({ label, server, orgId }) => {
  const keys = await getOrgApiKeys({ orgId, server });
  const key = keys.find((k) => (k.desc ?? "").startsWith(prefix));
  if (key === undefined) {
    throw new Error(
      `no key of organization ${orgId} on server ${server} has a description starting with ${JSON.stringify(prefix)}`,
    );
  }
  const managed = new OrgApiKey(`ci-${label}`, {
    server,
    orgId,
    apiKeyId: key.id,
    roles: ["ORG_READ_ONLY"],
    restoreOnDelete: true,
  });
  return pulumi.interpolate`${server}: ${managed.publicKey} (${managed.desc}) ${managed.roles}`;
});
