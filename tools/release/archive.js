/**
 * A plugin archive as the Pulumi CLI installs one (`pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`,
 * the files at its root), written with node-tar so that the same files give the same bytes: entries
 * sorted by name, each with the same mtime, mode 0755 for an executable and 0644 for the rest, no
 * owner, group or device (tar's `portable`), and a gzip header with no time, no name and no OS
 * (minizlib's `portable`). What remains is zlib's output for the same input and level: the same with
 * one zlib, which is Node's own.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/**
 * Writes `file`, a .tar.gz of `entries` ({ name, from, executable }: `from` the file to copy), each at
 * the archive's root under its `name`, with `mtime` (a Date) on every entry.
 */
async function writeArchive({ file, entries, mtime }) {
  const tar = require("tar");
  const names = entries.map((e) => e.name);
  if (new Set(names).size !== names.length)
    throw new Error(`an archive entry is named twice: ${names.join(", ")}`);
  for (const name of names) {
    if (name.includes("/") || name.includes("\\") || name.startsWith("."))
      throw new Error(`${name}: not a plain file name`);
  }
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-archive-"));
  try {
    for (const entry of entries) {
      const staged = path.join(stage, entry.name);
      fs.copyFileSync(entry.from, staged);
      fs.chmodSync(staged, entry.executable ? 0o755 : 0o644);
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await tar.create(
      { file, cwd: stage, gzip: { level: 6 }, portable: true, mtime, noDirRecurse: true },
      [...names].sort(),
    );
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  return file;
}

/** The entries of a .tar.gz (name, mode, size, mtime, uid, gid, type), in the archive's order. */
async function archiveEntries(file) {
  const tar = require("tar");
  const entries = [];
  await tar.t({
    file,
    onReadEntry: (entry) => {
      const { path: name, mode, size, mtime, uid, gid, type, uname, gname } = entry.header;
      entries.push({ name, mode, size, mtime, uid, gid, type, uname, gname });
    },
  });
  return entries;
}

module.exports = { archiveEntries, writeArchive };
