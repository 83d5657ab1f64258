"""Quickstart in Python: adopt an existing organization API key, declare its desc and roles, and collect
the logs of a replica set. The same resources and outputs as examples/quickstart; runs against the
local simulator with `npm run example -- --language python`."""

import pulumi
import pulumi_opsmanager as opsmanager

config = pulumi.Config()
org_id = config.require("orgId")
group_id = config.require("groupId")

ci_key = opsmanager.OrgApiKey(
    "ci-key",
    org_id=org_id,
    public_key=config.require("publicKey"),
    desc="CI pipeline (managed by Pulumi)",
    roles=[opsmanager.OrgRole("ORG_MEMBER"), opsmanager.OrgRole("ORG_READ_ONLY")],
    restore_on_delete=True,
)

logs = opsmanager.LogCollectionJob(
    "rs0-logs",
    group_id=group_id,
    resource_type=opsmanager.ResourceType("REPLICASET"),
    resource_name_="rs0",  # the property resourceName (resource_name is the resource's own name)
    size_requested_per_file_bytes=10_000_000,
    log_types=[opsmanager.LogType("MONGODB"), opsmanager.LogType("AUTOMATION_AGENT")],
    redacted=True,
)

pulumi.export("apiKeyId", ci_key.api_key_id)
pulumi.export("apiKeyRoles", ci_key.roles)
pulumi.export("apiKeyPrivateKey", ci_key.private_key)  # redacted by the server
pulumi.export("logCollectionJobId", logs.job_id)
