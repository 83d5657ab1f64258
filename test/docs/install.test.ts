/**
 * How a user installs and configures the provider, as the README's first section and the Pulumi
 * Registry's pages (docs/_index.md, docs/installation-configuration.md) say it: the install line of
 * each language names the package its SDK is generated as, at package.json's version; the plugin's
 * download names the schema's repository, every platform and the checksums; and every setting of the
 * provider's configuration is documented with its stack config key and its environment variables.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../provider/resources/shared/settings";
import { type Doc, type Line, ROOT, readDoc, section, tables } from "./markdown";

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const { version } = JSON.parse(read("package.json")) as { version: string };
const schema = JSON.parse(read("provider/plugin/schema.json")) as {
  repository: string;
  config: { variables: Record<string, unknown> };
};

/** The package names the SDKs are generated with, from their own manifests. */
const npmName = (JSON.parse(read("sdk/nodejs/package.json")) as { name: string }).name;
const pypiName = /^\s*name\s*=\s*"([^"]+)"/m.exec(read("sdk/python/pyproject.toml"))![1]!;
const goModule = /^module (\S+)$/m.exec(read("sdk/go.mod"))![1]!;
const goPackage = `${goModule}/go/opsmanager`;
// The .NET SDK's NuGet id is its project file's name (dotnet pack names the package after it).
const nugetId = fs
  .readdirSync(path.join(ROOT, "sdk", "dotnet"))
  .find((f) => f.endsWith(".csproj"))!
  .replace(/\.csproj$/, "");
const repository = new URL(schema.repository).pathname.replace(/^\//, "");
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"];

const readme = readDoc("README.md");
const text = (lines: Line[]) => lines.map((l) => l.text).join("\n");
const code = (lines: Line[]) =>
  lines
    .filter((l) => l.inCode)
    .map((l) => l.text)
    .join("\n");

/** The front matter the Registry reads: `key: value` lines between the first two `---`. */
function frontMatter(doc: Doc): Record<string, string> {
  const lines = doc.lines.map((l) => l.text);
  expect(lines[0], `${doc.file} starts with front matter`).toBe("---");
  const end = lines.indexOf("---", 1);
  expect(end, `${doc.file}'s front matter ends`).toBeGreaterThan(0);
  return Object.fromEntries(
    lines.slice(1, end).map((l) => {
      const m = /^(\w+):\s*(.*)$/.exec(l);
      expect(m, `${doc.file}: a front matter line is key: value (${l})`).not.toBeNull();
      return [m![1]!, m![2]!];
    }),
  );
}

describe("the README's first section: install, then pulumi up", () => {
  const install = section(readme, "## Install");

  it("is the first section", () => {
    const first = readme.lines.find((l) => !l.inCode && /^## /.test(l.text));
    expect(first?.text).toBe("## Install");
    expect(install).toBeDefined();
  });

  it("installs each language's SDK by the name it is generated as, Go at package.json's version", () => {
    const lines = code(install!);
    expect(lines).toMatch(new RegExp(`^npm install ${npmName}\\s`, "m"));
    expect(lines).toMatch(new RegExp(`^pip install ${pypiName}\\s`, "m"));
    expect(lines).toMatch(new RegExp(`^go get ${goModule}@v${version.replace(/\./g, "\\.")}\\s`, "m"));
    expect(lines).toMatch(new RegExp(`^dotnet add package ${nugetId.replace(/\./g, "\\.")}\\s`, "m"));
    expect(nugetId, "the NuGet id is out of Pulumi's reserved prefix").not.toMatch(/^Pulumi\./);
    expect(text(install!)).toContain(goPackage.replace(goModule, "…/sdk"));
    expect(lines).toMatch(/^pulumi up$/m);
  });

  it("says where pulumi up downloads the plugin from: the schema's repository, each platform's archive, the checksums", () => {
    const prose = text(install!).replace(/\s+/g, " ");
    expect(prose).toContain(`github://api.github.com/${repository}`);
    expect(prose).toContain(`pulumi-resource-opsmanager-v${version}-<os>-<arch>.tar.gz`);
    for (const platform of PLATFORMS) expect(prose).toContain(platform);
    expect(prose).toContain("checksums.txt");
    expect(prose).toContain("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES");
    expect(prose.replace(/\s*\\\n\s*/g, " ")).toContain(
      `pulumi plugin install resource opsmanager ${version} --server github://api.github.com/${repository} --checksum`,
    );
  });
});

describe("YAML programs in the documents", () => {
  // YAML has no SDK to name the plugin: outside a clone each resource must name its version and
  // download URL, or the CLI asks Pulumi's registry for an opsmanager plugin (test/release runs it so).
  it("name the plugin's version and download URL in every opsmanager resource's options", () => {
    let programs = 0;
    for (const file of ["README.md", "docs/_index.md", "docs/installation-configuration.md"]) {
      for (const block of read(file).matchAll(/```yaml\n([\s\S]*?)```/g)) {
        const yaml = block[1]!;
        if (!/^runtime: yaml$/m.test(yaml)) continue;
        programs++;
        const resources = yaml.match(/^\s+type: opsmanager:/gm)?.length ?? 0;
        expect(resources, `${file}: a YAML program declares opsmanager resources`).toBeGreaterThan(0);
        const versions = yaml.match(new RegExp(`^\\s+version: ${version.replace(/\./g, "\\.")}$`, "gm"));
        const urls = yaml.match(
          new RegExp(`^\\s+pluginDownloadURL: github://api\\.github\\.com/${repository}$`, "gm"),
        );
        expect(versions?.length ?? 0, `${file}: resources naming version ${version}`).toBe(resources);
        expect(urls?.length ?? 0, `${file}: resources naming the download URL`).toBe(resources);
      }
    }
    expect(programs, "the Registry's YAML example").toBeGreaterThan(0);
  });
});

describe("the Pulumi Registry's pages", () => {
  const index = readDoc("docs/_index.md");
  const installation = readDoc("docs/installation-configuration.md");

  it("each has the front matter the Registry reads: title, meta_desc, layout: package", () => {
    for (const doc of [index, installation]) {
      const matter = frontMatter(doc);
      expect(Object.keys(matter).sort(), doc.file).toEqual(["layout", "meta_desc", "title"]);
      expect(matter.layout, doc.file).toBe("package");
      expect(matter.title!.length, `${doc.file}'s title`).toBeGreaterThan(0);
      expect(matter.meta_desc!.length, `${doc.file}'s meta_desc`).toBeGreaterThan(20);
    }
  });

  it("the installation page's commands are the README's", () => {
    const lines = code(section(installation, "## Installation")!);
    expect(lines).toContain(`npm install ${npmName}`);
    expect(lines).toContain(`pip install ${pypiName}`);
    expect(lines).toContain(`go get ${goModule}@v${version}`);
    expect(lines).toContain(`dotnet add package ${nugetId}`);
    const prose = text(installation.lines);
    expect(prose).toContain(goPackage);
    for (const platform of PLATFORMS) {
      expect(prose).toContain(`pulumi-resource-opsmanager-v<version>-${platform}.tar.gz`);
    }
    expect(prose).toContain(`github://api.github.com/${repository}`);
    expect(prose).toContain("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES");
    expect(prose.replace(/\s*\\\n\s*/g, " ")).toContain(
      `pulumi plugin install resource opsmanager ${version} --server github://api.github.com/${repository} --checksum`,
    );
  });

  it("the example on the index page uses each SDK's package", () => {
    const prose = text(index.lines);
    expect(prose).toContain(`from "${npmName}"`);
    expect(prose).toContain(`import ${pypiName} as opsmanager`);
    expect(prose).toContain(`"${goPackage}"`);
    expect(prose).toContain("type: opsmanager:OrgApiKey");
  });
});

describe("every setting of the provider is documented", () => {
  const names = Object.keys(schema.config.variables);

  it("the schema's configuration is the provider's settings", () => {
    expect(names.sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  for (const file of ["README.md", "docs/installation-configuration.md"]) {
    it(`${file}'s configuration table names each stack config key with its environment variables, in order`, () => {
      const doc = readDoc(file);
      const lines = section(doc, file === "README.md" ? "## Configure" : "## Configuration");
      expect(lines, `${file} has its configuration section`).toBeDefined();
      const rows = tables(lines!).flatMap((t) => t.rows.slice(1));
      for (const [name, setting] of Object.entries(SETTINGS)) {
        const row = rows.find((r) => r.some((cell) => cell.startsWith(`\`${setting.config}\``)));
        expect(row, `${file}: a row for ${setting.config}`).toBeDefined();
        expect(
          row!.find((cell) => cell.includes("`OPSMANAGER_")),
          `${file}: ${name}'s environment variables`,
        ).toBe(setting.env.map((e) => `\`${e}\``).join(", "));
      }
    });
  }
});
