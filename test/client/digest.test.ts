import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  buildAuthorization,
  computeDigest,
  formatAuthorization,
  formatNc,
  parseAuthenticationInfo,
  parseWwwAuthenticate,
  selectDigestChallenge,
} from "../../provider/client";
import { parseDigestHeader } from "../../simulator/digest";

const RFC7616 = {
  username: "Mufasa",
  password: "Circle of Life",
  realm: "http-auth@example.org",
  nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
  cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
  nc: "00000001",
  qop: "auth" as const,
  method: "GET",
  uri: "/dir/index.html",
};

describe("RFC worked examples", () => {
  it("reproduces RFC 7616 §3.9.1 with MD5", () => {
    expect(computeDigest({ ...RFC7616, algorithm: "MD5" })).toBe("8ca523f5e9506fed4657c9700eebdbec");
  });

  it("reproduces RFC 7616 §3.9.1 with SHA-256", () => {
    expect(computeDigest({ ...RFC7616, algorithm: "SHA-256" })).toBe(
      "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1",
    );
  });

  it("reproduces RFC 2617 §3.5", () => {
    const response = computeDigest({
      algorithm: "MD5",
      username: "Mufasa",
      password: "Circle Of Life",
      realm: "testrealm@host.com",
      nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093",
      nc: "00000001",
      cnonce: "0a4f113b",
      qop: "auth",
      method: "GET",
      uri: "/dir/index.html",
    });
    expect(response).toBe("6629fae49393a05397450978507c4ef1");
  });

  it("computes the -sess variants by hashing both nonces into A1 (RFC 7616 §3.4.2)", () => {
    for (const [algorithm, hash] of [
      ["MD5-sess", "md5"],
      ["SHA-256-sess", "sha256"],
    ] as const) {
      const H = (s: string) => createHash(hash).update(s).digest("hex");
      const ha1 = H(`${H(`Mufasa:${RFC7616.realm}:Circle of Life`)}:${RFC7616.nonce}:${RFC7616.cnonce}`);
      const ha2 = H("GET:/dir/index.html");
      const expected = H(`${ha1}:${RFC7616.nonce}:00000001:${RFC7616.cnonce}:auth:${ha2}`);
      expect(computeDigest({ ...RFC7616, algorithm })).toBe(expected);
    }
  });

  it("computes the legacy RFC 2069 form when the challenge has no qop", () => {
    const H = (s: string) => createHash("md5").update(s).digest("hex");
    const expected = H(
      `${H(`Mufasa:${RFC7616.realm}:Circle of Life`)}:${RFC7616.nonce}:${H("GET:/dir/index.html")}`,
    );
    expect(computeDigest({ ...RFC7616, algorithm: "MD5", qop: undefined })).toBe(expected);
  });

  it("formats an Authorization header that a server-side parser reads back", () => {
    const header = formatAuthorization({
      username: RFC7616.username,
      realm: RFC7616.realm,
      nonce: RFC7616.nonce,
      uri: RFC7616.uri,
      algorithm: "MD5",
      response: "8ca523f5e9506fed4657c9700eebdbec",
      qop: "auth",
      nc: "00000001",
      cnonce: RFC7616.cnonce,
      opaque: "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS",
    });
    expect(header).toBe(
      `Digest username="Mufasa", realm="http-auth@example.org", nonce="${RFC7616.nonce}", ` +
        `uri="/dir/index.html", algorithm=MD5, response="8ca523f5e9506fed4657c9700eebdbec", qop=auth, ` +
        `nc=00000001, cnonce="${RFC7616.cnonce}", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
    );
  });

  it("leaves opaque out when the challenge had none, and escapes quotes in quoted values", () => {
    const header = formatAuthorization({
      username: 'a"b\\c',
      realm: "r",
      nonce: "n",
      uri: "/x?y=1",
      algorithm: "SHA-256",
      response: "00",
      qop: "auth",
      nc: "0000000a",
      cnonce: "c",
    });
    expect(header).not.toContain("opaque");
    expect(parseDigestHeader(header)?.username).toBe('a"b\\c');
    expect(parseDigestHeader(header)?.uri).toBe("/x?y=1");
  });

  it("writes nc as 8 lower-case hex digits", () => {
    expect(formatNc(1)).toBe("00000001");
    expect(formatNc(255)).toBe("000000ff");
    expect(formatNc(0xffffffff)).toBe("ffffffff");
  });

  it("signs with the user name hashed when the challenge asks for userhash", () => {
    const challenge = selectDigestChallenge(
      parseWwwAuthenticate(`Digest realm="r", nonce="n", qop="auth", algorithm=SHA-256, userhash=true`),
    );
    expect(challenge).toBeDefined();
    const header = buildAuthorization({
      challenge: challenge!,
      username: "Mufasa",
      password: "pw",
      method: "GET",
      uri: "/",
      nc: 1,
      cnonce: "c",
    });
    const fields = parseDigestHeader(header)!;
    expect(fields.username).toBe(createHash("sha256").update("Mufasa:r").digest("hex"));
    expect(fields.userhash).toBe("true");
  });
});

describe("parseWwwAuthenticate", () => {
  it("reads the Ops Manager challenge, with op normalized to qop", () => {
    const [c] = parseWwwAuthenticate(
      'Digest realm="MMS Public API", domain="", nonce="abc/+=", algorithm=MD5, op="auth", stale=false',
    );
    expect(c).toEqual({
      scheme: "digest",
      params: {
        realm: "MMS Public API",
        domain: "",
        nonce: "abc/+=",
        algorithm: "MD5",
        qop: "auth",
        stale: "false",
      },
    });
  });

  it("finds the Digest challenge after a Basic one in the same header", () => {
    const all = parseWwwAuthenticate(
      'Basic realm="legacy, with comma", Digest realm="r", nonce="n", qop="auth"',
    );
    expect(all.map((c) => c.scheme)).toEqual(["basic", "digest"]);
    expect(all[0]?.params.realm).toBe("legacy, with comma");
    expect(selectDigestChallenge(all)?.nonce).toBe("n");
  });

  it("reads challenges spread over two headers", () => {
    const all = parseWwwAuthenticate(['Basic realm="x"', 'Digest realm="r", nonce="n2", algorithm=SHA-256']);
    expect(all).toHaveLength(2);
    expect(selectDigestChallenge(all)).toMatchObject({ nonce: "n2", algorithm: "SHA-256", qop: undefined });
  });

  it("keeps commas and escaped quotes inside quoted strings", () => {
    const [c] = parseWwwAuthenticate('Digest realm="a, \\"b\\", c", nonce="x,y", qop="auth"');
    expect(c?.params.realm).toBe('a, "b", c');
    expect(c?.params.nonce).toBe("x,y");
  });

  it("picks auth from a qop list", () => {
    const c = selectDigestChallenge(
      parseWwwAuthenticate('Digest realm="r", nonce="n", qop="auth-int, auth"'),
    );
    expect(c?.qop).toBe("auth");
    expect(
      selectDigestChallenge(parseWwwAuthenticate('Digest realm="r", nonce="n", qop="auth-int"')),
    ).toBeUndefined();
  });

  it("reads unquoted tokens and stale in any case, names and scheme case-insensitively", () => {
    const c = selectDigestChallenge(
      parseWwwAuthenticate(
        'DIGEST Realm="r", NONCE="n", Algorithm=md5-SESS, QOP=auth, Stale=TRUE, OPAQUE="o"',
      ),
    );
    expect(c).toEqual({
      realm: "r",
      nonce: "n",
      algorithm: "MD5-sess",
      qop: "auth",
      opaque: "o",
      stale: true,
      userhash: false,
    });
  });

  it("skips a Digest challenge with an algorithm it cannot compute and takes the next", () => {
    const c = selectDigestChallenge(
      parseWwwAuthenticate([
        'Digest realm="r", nonce="a", algorithm=SHA-512-256, qop="auth"',
        'Digest realm="r", nonce="b", algorithm=MD5, qop="auth"',
      ]),
    );
    expect(c?.nonce).toBe("b");
  });

  it("reads token68 challenges without taking them for parameters", () => {
    const all = parseWwwAuthenticate("Negotiate abc+/==, Digest nonce=n1, realm=r");
    expect(all[0]).toEqual({ scheme: "negotiate", params: {}, token68: "abc+/==" });
    expect(all[1]?.params).toEqual({ nonce: "n1", realm: "r" });
  });

  it("tolerates empty list elements and spaces around =", () => {
    const [c] = parseWwwAuthenticate(' , Digest  realm = "r" ,, nonce= "n" , qop =auth');
    expect(c?.params).toEqual({ realm: "r", nonce: "n", qop: "auth" });
  });

  it("reads nextnonce from Authentication-Info", () => {
    expect(parseAuthenticationInfo('nextnonce="abc", qop=auth, rspauth="x"').nextnonce).toBe("abc");
  });
});
