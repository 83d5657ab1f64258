/**
 * Just enough of Markdown to check the repository's documents: their headings (as GitHub makes
 * anchors of them), their links, their tables, and their text outside and inside code blocks.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository's root (this file is test/docs/markdown.ts). */
export const ROOT = path.resolve(__dirname, "..", "..");

/** A line of a document, with whether it lies in a fenced code block. */
export interface Line {
  text: string;
  /** 1-based, for messages. */
  number: number;
  inCode: boolean;
}

/** One Markdown document of the repository. */
export interface Doc {
  /** Relative to the root, with `/`. */
  file: string;
  lines: Line[];
}

export function readDoc(file: string): Doc {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  let inCode = false;
  const lines = text.split("\n").map((line, i) => {
    const fence = /^\s*```/.test(line);
    const entry = { text: line, number: i + 1, inCode: inCode || fence };
    if (fence) inCode = !inCode;
    return entry;
  });
  return { file, lines };
}

/** README.md, CONTRIBUTING.md and every docs/*.md: the documents a reader follows links between. */
export function documents(): Doc[] {
  const docsDir = path.join(ROOT, "docs");
  const inDocs = fs.existsSync(docsDir)
    ? fs
        .readdirSync(docsDir)
        .filter((f) => f.endsWith(".md"))
        .sort()
        .map((f) => `docs/${f}`)
    : [];
  return ["README.md", "CONTRIBUTING.md", ...inDocs].map(readDoc);
}

/** Inline code spans removed, so that a bracket in code is not read as a link. */
function withoutCodeSpans(text: string): string {
  return text.replace(/`[^`]*`/g, "``");
}

/** The anchors GitHub gives a document's headings (github-slugger's rule, repeats numbered). */
export function anchors(doc: Doc): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of doc.lines) {
    if (line.inCode) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line.text);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** A link written in a document: `[text](target)`. */
export interface Link {
  doc: string;
  line: number;
  target: string;
}

export function links(doc: Doc): Link[] {
  const found: Link[] = [];
  for (const line of doc.lines) {
    if (line.inCode) continue;
    for (const m of withoutCodeSpans(line.text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      found.push({ doc: doc.file, line: line.number, target: m[1]! });
    }
  }
  return found;
}

/** Whether a link leaves the repository (a URL, a mail address). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * The section below a heading whose text is exactly `heading` (e.g. "### `OrgApiKey`"), up to the next
 * heading of the same or a higher level; undefined when there is none.
 */
export function section(doc: Doc, heading: string): Line[] | undefined {
  const level = /^#+/.exec(heading)![0].length;
  const start = doc.lines.findIndex((l) => !l.inCode && l.text.trim() === heading);
  if (start < 0) return undefined;
  const rest = doc.lines.slice(start + 1);
  const end = rest.findIndex((l) => !l.inCode && new RegExp(`^#{1,${level}}\\s`).test(l.text));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The tables of a run of lines, each as rows of trimmed cells, the header row first. */
export function tables(lines: Line[]): { line: number; rows: string[][] }[] {
  const result: { line: number; rows: string[][] }[] = [];
  let current: { line: number; rows: string[][] } | undefined;
  for (const line of lines) {
    const isRow = !line.inCode && /^\s*\|/.test(line.text);
    if (!isRow) {
      current = undefined;
      continue;
    }
    // Split on pipes that are not escaped (`\|` is a pipe inside a cell).
    const cells = line.text
      .trim()
      .replace(/^\||\|$/g, "")
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    if (!current) {
      current = { line: line.number, rows: [] };
      result.push(current);
    }
    current.rows.push(cells);
  }
  return result;
}

/** The names written as code in a cell: "`orgId`, `publicKey`" gives orgId and publicKey. */
export function codeNames(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}
