// Command gomodzip writes one version of a Go module, made from a commit of its git repository, as a
// module proxy serves it (GOPROXY=file://<out>), offline:
//
//	go run . -repo ../.. -rev HEAD -subdir sdk \
//	  -module github.com/pulumi-opsmanager/pulumi-opsmanager/sdk -version v0.1.0 -out <out>
//
// writes <out>/<module>/@v/list, <version>.info, <version>.mod and <version>.zip. The zip is made by
// golang.org/x/mod/zip from `git archive` of the commit, as the go command makes it from a tag: the
// committed files of the subdirectory, the repository's LICENSE when the subdirectory has none. The
// .info's time is the commit's, so the same commit gives the same bytes.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	repo := flag.String("repo", "", "the git repository (a clone or a worktree)")
	rev := flag.String("rev", "HEAD", "the commit to make the module from")
	subdir := flag.String("subdir", "", "the module's folder in the repository (its go.mod's)")
	modPath := flag.String("module", "", "the module's path")
	version := flag.String("version", "", "the module's version (v1.2.3)")
	out := flag.String("out", "", "the proxy folder to write into")
	flag.Parse()
	if *repo == "" || *modPath == "" || *version == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gomodzip -repo <dir> [-rev HEAD] [-subdir sdk] -module <path> -version <v1.2.3> -out <dir>")
		os.Exit(2)
	}
	if err := run(*repo, *rev, *subdir, module.Version{Path: *modPath, Version: *version}, *out); err != nil {
		fmt.Fprintf(os.Stderr, "gomodzip: %v\n", err)
		os.Exit(1)
	}
}

func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout, nil
}

func run(repo, rev, subdir string, m module.Version, out string) error {
	if err := module.Check(m.Path, m.Version); err != nil {
		return err
	}
	repo, err := filepath.Abs(repo)
	if err != nil {
		return err
	}
	sha, err := git(repo, "rev-parse", "--verify", rev+"^{commit}")
	if err != nil {
		return err
	}
	commit := strings.TrimSpace(string(sha))
	stamp, err := git(repo, "show", "-s", "--format=%ct", commit)
	if err != nil {
		return err
	}
	var seconds int64
	if _, err := fmt.Sscan(string(stamp), &seconds); err != nil {
		return fmt.Errorf("the commit's time %q: %w", stamp, err)
	}
	goMod, err := git(repo, "show", commit+":"+filepath.ToSlash(filepath.Join(subdir, "go.mod")))
	if err != nil {
		return err
	}

	escaped, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(dir, m.Version+".zip"))
	if err != nil {
		return err
	}
	// CreateFromVCS reads only a repository whose git folder is <repo>/.git, not a worktree's: a shared
	// clone (its objects borrowed from the repository, nothing copied) stands in for any of them.
	clone, err := os.MkdirTemp("", "gomodzip-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(clone)
	if _, err := git(repo, "clone", "--quiet", "--shared", "--no-checkout", repo, clone); err != nil {
		return err
	}
	if err := modzip.CreateFromVCS(zipFile, m, clone, commit, subdir); err != nil {
		zipFile.Close()
		return err
	}
	if err := zipFile.Close(); err != nil {
		return err
	}

	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{m.Version, time.Unix(seconds, 0).UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, m.Version+".info"), append(info, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, m.Version+".mod"), goMod, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "list"), []byte(m.Version+"\n"), 0o644)
}
