"""A CI key from start to end, in Python: create an organization API key, let it call the API only from
the CI runners' addresses, give it a role in one project, and hand its private key to the pipeline as
a secret. The same resources and outputs as examples/ci-key."""

import pulumi
import pulumi_opsmanager as opsmanager

config = pulumi.Config()
org_id = config.require("orgId")
group_id = config.require("groupId")

# No api_key_id nor public_key: the key is created, and deleted by `pulumi destroy`.
key = opsmanager.OrgApiKey(
    "ci",
    org_id=org_id,
    desc="CI pipeline (created by Pulumi)",
    roles=[opsmanager.OrgRole("ORG_MEMBER")],
    access_list=["203.0.113.0/24", "198.51.100.7"],
    keepers={"rotated": config.require("rotated")},
)

in_project = opsmanager.ApiKeyProjectAssignment(
    "ci-in-project",
    api_key_id=key.api_key_id,
    group_id=group_id,
    roles=[opsmanager.GroupRole("GROUP_READ_ONLY"), opsmanager.GroupRole("GROUP_AUTOMATION_ADMIN")],
)

pulumi.export("publicKey", key.public_key)
# Already a secret output of OrgApiKey; pulumi.Output.secret says so here too for whoever reads this.
pulumi.export("privateKey", pulumi.Output.secret(key.private_key))
pulumi.export("accessList", key.access_list)
pulumi.export("projectRoles", in_project.roles)
