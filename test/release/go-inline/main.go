// Runs a Go example's program inline with Pulumi's Automation API, which serves the program to the CLI
// from this process: no Go language host is needed (none can be built where this project is tested).
// The test copies the example's program.go beside this file, takes the SDK module as `go get` does,
// builds, and runs one command per call:
//
//	go-inline <up|preview|destroy> <example folder>
//
// The project is the example's own Pulumi.yaml (its name, runtime and config defaults) without its
// plugins block, which names the plugin folder of a clone: the CLI downloads the plugin the SDK names
// (its pluginDownloadURL). Stack settings come as JSON in OPSM_CONFIG ({"key": {"value": "…",
// "secret": true}}); the backend, PULUMI_HOME and passphrase from the environment. It prints one JSON
// object: the engine's change summary, and after up the outputs (secrets shown, for the test to
// compare with the server).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

type result struct {
	Changes map[string]int `json:"changes"`
	Outputs map[string]any `json:"outputs,omitempty"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "go-inline:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) != 3 {
		return fmt.Errorf("usage: go-inline <up|preview|destroy> <example folder>")
	}
	command, example := os.Args[1], os.Args[2]
	ctx := context.Background()

	project, err := workspace.LoadProject(filepath.Join(example, "Pulumi.yaml"))
	if err != nil {
		return err
	}
	project.Plugins = nil
	workDir, err := os.Getwd()
	if err != nil {
		return err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", project.Name.String(), program,
		auto.Project(*project), auto.WorkDir(workDir))
	if err != nil {
		return err
	}
	var config map[string]auto.ConfigValue
	if err := json.Unmarshal([]byte(os.Getenv("OPSM_CONFIG")), &config); err != nil {
		return fmt.Errorf("OPSM_CONFIG: %w", err)
	}
	if err := stack.SetAllConfig(ctx, config); err != nil {
		return err
	}

	out := result{Changes: map[string]int{}}
	switch command {
	case "up":
		res, err := stack.Up(ctx)
		if err != nil {
			return err
		}
		if res.Summary.ResourceChanges != nil {
			out.Changes = *res.Summary.ResourceChanges
		}
		out.Outputs = map[string]any{}
		for name, output := range res.Outputs {
			out.Outputs[name] = output.Value
		}
	case "preview":
		res, err := stack.Preview(ctx, optpreview.ExpectNoChanges())
		if err != nil {
			return err
		}
		for op, count := range res.ChangeSummary {
			out.Changes[string(op)] = count
		}
	case "destroy":
		res, err := stack.Destroy(ctx)
		if err != nil {
			return err
		}
		if res.Summary.ResourceChanges != nil {
			out.Changes = *res.Summary.ResourceChanges
		}
	default:
		return fmt.Errorf("unknown command %q", command)
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}
