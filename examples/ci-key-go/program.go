// A CI key from start to end, in Go: create an organization API key, let it call the API only from the
// CI runners' addresses, give it a role in one project, and hand its private key to the pipeline as a
// secret. The same resources and outputs as examples/ci-key. CI runs it with the Automation API (see
// examples/quickstart-go/README.md).
package main

import (
	"github.com/pulumi-opsmanager/pulumi-opsmanager/sdk/go/opsmanager"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// program declares the example's resources and outputs: `pulumi.Run(program)` in main.go runs it
// under the Go language host, and an Automation API program can run it inline.
func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")

	// No ApiKeyId nor PublicKey: the key is created, and deleted by `pulumi destroy`.
	key, err := opsmanager.NewOrgApiKey(ctx, "ci", &opsmanager.OrgApiKeyArgs{
		OrgId:      pulumi.String(cfg.Require("orgId")),
		Desc:       pulumi.String("CI pipeline (created by Pulumi)"),
		Roles:      opsmanager.OrgRoleArray{opsmanager.OrgRole("ORG_MEMBER")},
		AccessList: pulumi.ToStringArray([]string{"203.0.113.0/24", "198.51.100.7"}),
		Keepers:    pulumi.StringMap{"rotated": pulumi.String(cfg.Require("rotated"))},
	})
	if err != nil {
		return err
	}

	inProject, err := opsmanager.NewApiKeyProjectAssignment(ctx, "ci-in-project", &opsmanager.ApiKeyProjectAssignmentArgs{
		ApiKeyId: key.ApiKeyId,
		GroupId:  pulumi.String(cfg.Require("groupId")),
		Roles:    opsmanager.GroupRoleArray{opsmanager.GroupRole("GROUP_READ_ONLY"), opsmanager.GroupRole("GROUP_AUTOMATION_ADMIN")},
	})
	if err != nil {
		return err
	}

	ctx.Export("publicKey", key.PublicKey)
	// Already a secret output of OrgApiKey; pulumi.ToSecret says so here too for whoever reads this.
	ctx.Export("privateKey", pulumi.ToSecret(key.PrivateKey))
	ctx.Export("accessList", key.AccessList)
	ctx.Export("projectRoles", inProject.Roles)
	return nil
}
