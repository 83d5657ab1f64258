// Adopt several keys at once: list the organization's keys with getOrgApiKeys, pick the ones whose
// desc starts with a prefix, and give each read-only access. One listing of the org serves them all.
// `pulumi destroy` puts each key's roles back as they were.
import * as pulumi from "@pulumi/pulumi";
import { getOrgApiKeys, OrgApiKey } from "pulumi-opsmanager";

const config = new pulumi.Config();
const orgId = config.require("orgId");
const prefix = config.require("descPrefix");

export const adopted = getOrgApiKeys({ orgId }).then((keys) =>
  keys
    .filter((key) => (key.desc ?? "").startsWith(prefix))
    .map((key) => {
      const managed = new OrgApiKey(`key-${key.publicKey}`, {
        orgId,
        publicKey: key.publicKey,
        roles: ["ORG_READ_ONLY"],
        restoreOnDelete: true,
      });
      return pulumi.interpolate`${managed.publicKey}: ${managed.desc}`;
    }),
);
