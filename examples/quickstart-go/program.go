// Quickstart in Go: adopt an existing organization API key, declare its desc and roles, and collect the
// logs of a replica set. The same resources and outputs as examples/quickstart. CI runs it with the
// Automation API: see README.md beside this file.
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

	ciKey, err := opsmanager.NewOrgApiKey(ctx, "ci-key", &opsmanager.OrgApiKeyArgs{
		OrgId:           pulumi.String(cfg.Require("orgId")),
		PublicKey:       pulumi.String(cfg.Require("publicKey")),
		Desc:            pulumi.String("CI pipeline (managed by Pulumi)"),
		Roles:           opsmanager.OrgRoleArray{opsmanager.OrgRole("ORG_MEMBER"), opsmanager.OrgRole("ORG_READ_ONLY")},
		RestoreOnDelete: pulumi.Bool(true),
	})
	if err != nil {
		return err
	}

	logs, err := opsmanager.NewLogCollectionJob(ctx, "rs0-logs", &opsmanager.LogCollectionJobArgs{
		GroupId:                   pulumi.String(cfg.Require("groupId")),
		ResourceType:              opsmanager.ResourceType("REPLICASET"),
		ResourceName:              pulumi.String("rs0"),
		SizeRequestedPerFileBytes: pulumi.Int(10_000_000),
		LogTypes:                  opsmanager.LogTypeArray{opsmanager.LogType("MONGODB"), opsmanager.LogType("AUTOMATION_AGENT")},
		Redacted:                  pulumi.Bool(true),
	})
	if err != nil {
		return err
	}

	ctx.Export("apiKeyId", ciKey.ApiKeyId)
	ctx.Export("apiKeyRoles", ciKey.Roles)
	ctx.Export("apiKeyPrivateKey", ciKey.PrivateKey) // redacted by the server
	ctx.Export("logCollectionJobId", logs.JobId)
	return nil
}
