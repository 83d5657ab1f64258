// Command sdkgen generates the provider plugin's SDKs from its package schema with Pulumi's own code
// generators (the packages `pulumi package gen-sdk` reaches through each language host), offline:
//
//	go run . -schema ../../provider/plugin/schema.json -out ../../sdk
//
// It writes sdk/nodejs, sdk/python and sdk/go, each folder emptied first so that no stale file stays.
// The same schema gives the same bytes. The Go SDK's module is sdk/go.mod, as Pulumi's providers place
// it (import path <module>/go/opsmanager), kept by `go mod tidy` rather than written here.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pythongen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The name the generated files say they were written by.
const tool = "pulumi-opsmanager tools/sdkgen"

func main() {
	schemaPath := flag.String("schema", "", "the package schema (provider/plugin/schema.json)")
	out := flag.String("out", "", "the folder to write the SDKs into (sdk)")
	flag.Parse()
	if *schemaPath == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: sdkgen -schema <schema.json> -out <folder>")
		os.Exit(2)
	}
	if err := run(*schemaPath, *out); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	generators := []struct {
		folder   string
		generate func(pkg *schema.Package) (map[string][]byte, error)
	}{
		{"nodejs", func(pkg *schema.Package) (map[string][]byte, error) {
			return nodejsgen.GeneratePackage(tool, pkg, nil, nil, false, loader)
		}},
		{"python", func(pkg *schema.Package) (map[string][]byte, error) {
			return pythongen.GeneratePackage(tool, pkg, nil, loader)
		}},
		{"go", func(pkg *schema.Package) (map[string][]byte, error) {
			return gogen.GeneratePackage(tool, pkg, nil)
		}},
	}
	for _, g := range generators {
		// Each generator records its language's options in the package it is given: bind one per language.
		pkg, err := bind(text)
		if err != nil {
			return err
		}
		files, err := g.generate(pkg)
		if err != nil {
			return fmt.Errorf("%s: %w", g.folder, err)
		}
		if g.folder == "python" {
			// pyproject.toml names README.md beside it, which the generator writes into the package only.
			files["README.md"] = files["pulumi_opsmanager/README.md"]
			// The generator lists only py.typed and pulumi-plugin.json as package data, so a wheel (and a
			// pip install) leaves out the typing stub it writes for the configuration (config/__init__.pyi),
			// and type checkers lose the config's types.
			pyproject := string(files["pyproject.toml"])
			fixed := strings.Replace(pyproject, `pulumi_opsmanager = ["py.typed", "pulumi-plugin.json"]`,
				`pulumi_opsmanager = ["py.typed", "pulumi-plugin.json", "**/*.pyi"]`, 1)
			if fixed == pyproject {
				return fmt.Errorf("python: pyproject.toml's package-data is not as expected: add the stubs another way")
			}
			files["pyproject.toml"] = []byte(fixed)
		}
		if err := write(filepath.Join(out, g.folder), files); err != nil {
			return err
		}
	}
	return nil
}

// The schema refers to no other package, so nothing is ever loaded: a loader without a plugin host
// (which would start provider plugins to read their schemas) keeps the generation offline.
var loader = schema.NewPluginLoader(nil)

// bind reads and checks the schema as `pulumi package gen-sdk` does, failing on any error it finds.
func bind(text []byte) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("binding the schema: %w", err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("binding the schema: %s", diags.Error())
	}
	return pkg, nil
}

// write empties folder, then writes files into it, in a fixed order.
func write(folder string, files map[string][]byte) error {
	if err := os.RemoveAll(folder); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(folder, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
