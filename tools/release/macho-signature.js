/**
 * Checks the ad-hoc code signature of a thin 64-bit Mach-O executable as macOS checks it when it maps
 * the pages: the signature's CodeDirectory must hash every page of the file before the signature
 * (SHA-256, of its page size), and each special slot must hash the blob it names. Ad hoc means no
 * certificate: the CMS slot, when present, is empty. The formats are xnu's (osfmk/kern/cs_blobs.h:
 * `CS_SuperBlob`, `CS_CodeDirectory`; mach-o/loader.h: `LC_CODE_SIGNATURE`).
 *
 * rcodesign's own `verify` cannot serve here: it fails on the empty CMS blob that Apple's `codesign`
 * writes for an ad-hoc signature too ("CMS error: missing further values").
 */
const crypto = require("node:crypto");

const MH_MAGIC_64 = 0xfeedfacf;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_SIGNATURESLOT = 0x10000;
const CS_ADHOC = 0x2;
const CS_HASHTYPE_SHA256 = 2;
const CPU_TYPES = { 16777223: "x86_64", 16777228: "arm64" };

/**
 * The signature of the Mach-O in `bytes` (a Buffer), checked: its architecture, identifier, flags and
 * page count. Throws an Error that names the first thing that does not hold.
 */
function checkAdHocSignature(bytes) {
  if (bytes.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("not a thin 64-bit little-endian Mach-O");
  const arch = CPU_TYPES[bytes.readUInt32LE(4)];
  if (arch === undefined) throw new Error(`unknown CPU type 0x${bytes.readUInt32LE(4).toString(16)}`);
  const ncmds = bytes.readUInt32LE(16);
  let at = 32;
  let signature;
  for (let i = 0; i < ncmds; i++) {
    const cmd = bytes.readUInt32LE(at);
    if (cmd === LC_CODE_SIGNATURE)
      signature = { offset: bytes.readUInt32LE(at + 8), size: bytes.readUInt32LE(at + 12) };
    at += bytes.readUInt32LE(at + 4);
  }
  if (signature === undefined) throw new Error("no LC_CODE_SIGNATURE load command: the binary is not signed");
  const blob = bytes.subarray(signature.offset, signature.offset + signature.size);
  if (blob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE)
    throw new Error("the signature is not an embedded-signature SuperBlob");
  const slots = new Map();
  for (let i = 0; i < blob.readUInt32BE(8); i++) {
    const type = blob.readUInt32BE(12 + i * 8);
    const offset = blob.readUInt32BE(16 + i * 8);
    slots.set(type, blob.subarray(offset, offset + blob.readUInt32BE(offset + 4)));
  }
  const cd = slots.get(CSSLOT_CODEDIRECTORY);
  if (cd === undefined || cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) throw new Error("no CodeDirectory");
  const flags = cd.readUInt32BE(12);
  const hashOffset = cd.readUInt32BE(16);
  const identOffset = cd.readUInt32BE(20);
  const nSpecialSlots = cd.readUInt32BE(24);
  const nCodeSlots = cd.readUInt32BE(28);
  const codeLimit = cd.readUInt32BE(32);
  const hashSize = cd.readUInt8(36);
  const hashType = cd.readUInt8(37);
  const pageSize = 2 ** cd.readUInt8(39);
  if ((flags & CS_ADHOC) === 0) throw new Error("the CodeDirectory is not marked ad hoc");
  if (hashType !== CS_HASHTYPE_SHA256 || hashSize !== 32)
    throw new Error(`hash type ${hashType}, not SHA-256`);
  if (codeLimit !== signature.offset)
    throw new Error(`the code limit ${codeLimit} is not where the signature starts`);
  if (nCodeSlots !== Math.ceil(codeLimit / pageSize))
    throw new Error(`${nCodeSlots} code slots for ${codeLimit} bytes`);
  const sha256 = (data) => crypto.createHash("sha256").update(data).digest();
  for (let page = 0; page < nCodeSlots; page++) {
    const expected = cd.subarray(hashOffset + page * hashSize, hashOffset + (page + 1) * hashSize);
    const data = bytes.subarray(page * pageSize, Math.min((page + 1) * pageSize, codeLimit));
    if (!sha256(data).equals(expected))
      throw new Error(`page ${page} (offset ${page * pageSize}) does not match its hash`);
  }
  for (let slot = 1; slot <= nSpecialSlots; slot++) {
    const expected = cd.subarray(hashOffset - slot * hashSize, hashOffset - (slot - 1) * hashSize);
    const named = slots.get(slot);
    const ok = named === undefined ? expected.every((b) => b === 0) : sha256(named).equals(expected);
    if (!ok) throw new Error(`special slot ${slot} does not match the blob it names`);
  }
  const cms = slots.get(CSSLOT_SIGNATURESLOT);
  if (cms !== undefined && cms.length > 8)
    throw new Error("the signature carries a CMS signature: not ad hoc");
  const identifier = cd.toString("latin1", identOffset, cd.indexOf(0, identOffset));
  return { arch, identifier, flags, pages: nCodeSlots, pageSize };
}

module.exports = { checkAdHocSignature };
