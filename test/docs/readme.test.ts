/**
 * The documents say true things about the repository: every relative link of README.md,
 * CONTRIBUTING.md and docs/*.md reaches a file (and a heading, where it names an anchor), also inside
 * the package as `npm pack` ships it; every `npm run`, `node` and `npx` command line they show names a
 * script, a file or a command that exists; every path they name into the repository exists, and so does
 * every file of CONTRIBUTING.md's layout.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { anchors, type Doc, documents, isExternal, links, ROOT, readDoc, section } from "./markdown";

const docs = documents();
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  bin?: string | Record<string, string>;
};

/** Every match of `re` in the documents' whole text (code blocks too), with where it was. */
function occurrences(re: RegExp): { where: string; match: RegExpMatchArray }[] {
  const found: { where: string; match: RegExpMatchArray }[] = [];
  for (const doc of docs) {
    for (const line of doc.lines) {
      for (const match of line.text.matchAll(re)) found.push({ where: `${doc.file}:${line.number}`, match });
    }
  }
  return found;
}

/** Whether a path relative to the root exists; a `*` in its last segment matches any run of characters. */
function exists(relative: string): boolean {
  const clean = relative.replace(/\/$/, "");
  if (!clean.includes("*")) return fs.existsSync(path.join(ROOT, clean));
  const dir = path.dirname(clean);
  const pattern = new RegExp(
    `^${path
      .basename(clean)
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")}$`,
  );
  const full = path.join(ROOT, dir);
  return fs.existsSync(full) && fs.readdirSync(full).some((f) => pattern.test(f));
}

/** A link's target as a path from the root, and its anchor. */
function resolve(doc: string, target: string): { file: string; anchor: string | undefined } {
  const [file, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved = file === "" ? doc : path.posix.normalize(path.posix.join(path.posix.dirname(doc), file));
  return { file: resolved, anchor: anchor === undefined ? undefined : decodeURIComponent(anchor) };
}

describe("links", () => {
  const all = docs.flatMap(links).filter((l) => !isExternal(l.target));

  it("the documents link to each other", () => {
    // What this suite reads: without these, the checks below would pass on nothing.
    expect(docs.map((d) => d.file)).toEqual(
      expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/errors.md", "docs/performance.md"]),
    );
    const fromReadme = all.filter((l) => l.doc === "README.md").map((l) => resolve(l.doc, l.target).file);
    expect(fromReadme).toEqual(
      expect.arrayContaining(["CONTRIBUTING.md", "docs/errors.md", "docs/performance.md", "docs/servers.md"]),
    );
  });

  it("every relative link reaches a file, and its anchor a heading of that file", () => {
    const broken: string[] = [];
    for (const link of all) {
      const { file, anchor } = resolve(link.doc, link.target);
      const where = `${link.doc}:${link.line} (${link.target})`;
      if (!exists(file)) {
        broken.push(`${where}: no file ${file}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!file.endsWith(".md")) {
        broken.push(`${where}: an anchor into a file that is not Markdown`);
        continue;
      }
      const headings = anchors(readDoc(file));
      if (!headings.has(anchor)) {
        broken.push(`${where}: ${file} has no heading #${anchor} (it has ${[...headings].join(", ")})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the documents the package ships link only to files the package ships", () => {
    const [pack] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    ) as [{ files: { path: string }[] }];
    const shipped = new Set(pack.files.map((f) => f.path));
    expect(shipped.has("README.md")).toBe(true);
    const outside = all
      .filter((l) => shipped.has(l.doc))
      .map((l) => ({ link: l, file: resolve(l.doc, l.target).file }))
      .filter(({ file }) => !shipped.has(file) && ![...shipped].some((s) => s.startsWith(`${file}/`)))
      .map(({ link, file }) => `${link.doc}:${link.line} links ${file}, which the package does not ship`);
    expect(outside).toEqual([]);
  });
});

describe("command lines", () => {
  it("every `npm run`, `npm test` and `npm start` names a script of package.json", () => {
    const named = occurrences(/\bnpm (?:run(?:-script)? ([\w:.-]+)|(test|start)\b)/g);
    expect(named.length).toBeGreaterThan(0);
    const missing = named
      .map(({ where, match }) => ({ where, script: match[1] ?? match[2]! }))
      .filter(({ script }) => !(script in pkg.scripts))
      .map(({ where, script }) => `${where}: npm run ${script}`);
    expect(missing).toEqual([]);
  });

  it("every `node <file>` names a file of the repository (dist/ by its TypeScript source)", () => {
    const named = occurrences(/\bnode ((?:dist|bench|examples|simulator|test)\/[\w./-]+)/g);
    expect(named.length).toBeGreaterThan(0);
    const missing = named
      .map(({ where, match }) => {
        const file = match[1]!;
        const source = file.startsWith("dist/") ? file.slice(5).replace(/\.js$/, ".ts") : file;
        return { where, file, source };
      })
      .filter(({ source }) => !exists(source))
      .map(({ where, file }) => `${where}: node ${file}`);
    expect(missing).toEqual([]);
  });

  it("every `npx <command>` is a command of this package or of its dependencies", () => {
    const bins = new Set([
      ...(typeof pkg.bin === "object" ? Object.keys(pkg.bin) : []),
      ...fs.readdirSync(path.join(ROOT, "node_modules", ".bin")),
    ]);
    const named = occurrences(/\bnpx ((?:@[\w.-]+\/)?[\w.-]+)/g);
    const missing = named
      .filter(({ match }) => !bins.has(match[1]!))
      .map(({ where, match }) => `${where}: npx ${match[1]}`);
    expect(missing).toEqual([]);
  });
});

describe("paths", () => {
  it("every path the documents name into examples/, test/, bench/, provider/, simulator/, docs/ exists", () => {
    const named = occurrences(
      /(?<![\w./@-])((?:examples|test|bench|provider|simulator|docs|\.ci)\/[\w.*/-]*[\w*/])/g,
    );
    expect(named.some(({ match }) => match[1]!.startsWith("examples/"))).toBe(true);
    const missing = named
      .filter(({ match }) => !exists(match[1]!))
      .map(({ where, match }) => `${where}: ${match[1]}`);
    expect(missing).toEqual([]);
  });

  it("every file and folder of CONTRIBUTING.md's layout exists", () => {
    const doc: Doc = readDoc("CONTRIBUTING.md");
    const lines = section(doc, "## Layout");
    expect(lines, "CONTRIBUTING.md has a section ## Layout").toBeDefined();
    const block = lines!.filter((l) => l.inCode && !/^\s*```/.test(l.text));
    // A line at the margin names a path from the root (a folder when it ends in /); a line indented by
    // two spaces names files of the folder above it, separated by single spaces, before the description.
    let dir = "";
    const named: { line: number; file: string }[] = [];
    for (const line of block) {
      const top = /^(\S+)/.exec(line.text);
      if (top) {
        named.push({ line: line.number, file: top[1]! });
        if (top[1]!.endsWith("/")) dir = top[1]!;
        continue;
      }
      const inner = /^ {2}(\S+(?: \S+)*)/.exec(line.text);
      if (!inner) continue;
      for (const name of inner[1]!.split(" ")) named.push({ line: line.number, file: `${dir}${name}` });
    }
    expect(named.map((n) => n.file)).toEqual(
      expect.arrayContaining([
        "provider/resources/",
        "provider/resources/org-api-key/",
        "provider/resources/log-collection-job/",
        "provider/resources/shared/",
      ]),
    );
    const missing = named.filter((n) => !exists(n.file)).map((n) => `CONTRIBUTING.md:${n.line}: ${n.file}`);
    expect(missing).toEqual([]);
  });
});
