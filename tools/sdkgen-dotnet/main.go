// Command sdkgen-dotnet generates the provider plugin's .NET SDK from its package schema, offline, into
// sdk/dotnet (emptied first):
//
//	go run . -schema ../../provider/plugin/schema.json -out ../../sdk/dotnet
//
// It is a module of its own because the .NET generator left github.com/pulumi/pulumi/pkg/v3 after
// v3.224.0 for github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3/codegen, which the Go module
// proxy does not serve here: this module pins pkg/v3 v3.224.0, the newest served version that has it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"

	dotnetgen "github.com/pulumi/pulumi/pkg/v3/codegen/dotnet" //nolint:staticcheck // see the package comment
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The name the generated files say they were written by.
const tool = "pulumi-opsmanager tools/sdkgen-dotnet"

// offline answers the generator's one request, the download of the NuGet package's icon (Pulumi's
// logo when the schema names none), with a plain square of our own, and refuses any other: the
// generation reads nothing from the network.
type offline struct{}

func (offline) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || filepath.Ext(req.URL.Path) != ".png" {
		return nil, fmt.Errorf("sdkgen-dotnet works offline; the generator asked for %s %s", req.Method, req.URL)
	}
	icon := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for x := 0; x < 64; x++ {
		for y := 0; y < 64; y++ {
			icon.Set(x, y, color.NRGBA{R: 0x13, G: 0xaa, B: 0x52, A: 0xff})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, icon); err != nil {
		return nil, err
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": []string{"image/png"}},
		Body:       io.NopCloser(&buf),
		Request:    req,
	}, nil
}

func main() {
	http.DefaultTransport = offline{}
	schemaPath := flag.String("schema", "", "the package schema (provider/plugin/schema.json)")
	out := flag.String("out", "", "the folder to write the SDK into (sdk/dotnet)")
	flag.Parse()
	if *schemaPath == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: sdkgen-dotnet -schema <schema.json> -out <folder>")
		os.Exit(2)
	}
	if err := run(*schemaPath, *out); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen-dotnet: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("reading the schema: %w", err)
	}
	// The schema refers to no other package: a loader without a plugin host never starts one.
	pkg, diags, err := schema.BindSpec(spec, schema.NewPluginLoader(nil), schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("binding the schema: %w", err)
	}
	if diags.HasErrors() {
		return fmt.Errorf("binding the schema: %s", diags.Error())
	}
	files, err := dotnetgen.GeneratePackage(tool, pkg, nil, nil)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
