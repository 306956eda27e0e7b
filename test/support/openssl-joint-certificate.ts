import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { OpensslJointCertificate } from "./joint-certificate-fixture";

const LEGACY = ["-provider", "legacy", "-provider", "default"];

/**
 * Makes a joint certificate with nothing but the openssl command line and a
 * CA of its own: the project's code makes none of these bytes, so reading
 * them tests the reader against an outside implementation.
 */
export async function makeOpensslJointCertificate(businessNumber: string): Promise<OpensslJointCertificate> {
  const dir = mkdtempSync(path.join(tmpdir(), "openssl-npki-"));
  const file = (name: string) => path.join(dir, name);
  // Asynchronous, so the Workers tests' global setup makes it while the sandbox and the scraper start.
  const openssl = async (...args: string[]) => (await promisify(execFile)("openssl", args, { cwd: dir, encoding: "buffer" })).stdout;
  const hexOf = (name: string) => readFileSync(file(name)).toString("hex");
  const password = "openssl-Pass-1!";
  const commonName = "(주)오픈에스에스엘()0012345678901234";
  const realName = "(주)오픈에스에스엘";
  const serialNumber = "5e1f00d1c0ffee";
  const issuerName = "CN=OpenSSL Test Root,O=OpenSSL Test CA,C=KR";
  const subjectName = `CN=${commonName},OU=XYZ은행,OU=corporation4EC,O=yessign,C=KR`;
  try {
    // The test's own CA.
    await openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", `/${issuerName.split(",").reverse().join("/")}`,
      "-addext", "basicConstraints=critical,CA:true", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    await openssl("genrsa", "-out", "sign.key", "2048");
    await openssl("rand", "-out", "r.bin", "20");

    // VID = SHA-256(SHA-256(DER(HashContent ::= SEQUENCE { idn PrintableString, randomNum BIT STRING })))
    writeFileSync(file("hash-content.cnf"), `asn1 = SEQUENCE:hc\n[hc]\nidn = PRINTABLESTRING:${businessNumber}\nr = FORMAT:HEX,BITSTRING:${hexOf("r.bin")}\n`);
    await openssl("asn1parse", "-genconf", "hash-content.cnf", "-out", "hash-content.der", "-noout");
    await openssl("dgst", "-sha256", "-binary", "-out", "h1.bin", "hash-content.der");
    await openssl("dgst", "-sha256", "-binary", "-out", "vid.bin", "h1.bin");

    writeFileSync(
      file("sign.ext"),
      [
        "[ext]",
        "keyUsage = critical,digitalSignature,nonRepudiation",
        "certificatePolicies = 1.2.410.200005.1.1.5",
        "subjectAltName = otherName:1.2.410.200004.10.1.1;SEQUENCE:identify",
        "[identify]",
        `realName = FORMAT:UTF8,UTF8String:${realName}`,
        "userInfo = SEQUENCE:userinfos",
        "[userinfos]",
        "vid = SEQUENCE:vidattr",
        "[vidattr]",
        "type = OID:1.2.410.200004.10.1.1.1",
        "value = SEQUENCE:vid",
        "[vid]",
        "hashAlg = SEQUENCE:sha256",
        `virtualID = EXPLICIT:0,FORMAT:HEX,OCTETSTRING:${hexOf("vid.bin")}`,
        "[sha256]",
        "alg = OID:sha256",
        "params = NULL",
        "",
      ].join("\n"),
    );
    await openssl("req", "-new", "-key", "sign.key", "-utf8", "-subj", `/${subjectName.split(",").reverse().join("/")}`, "-out", "sign.csr");
    await openssl("x509", "-req", "-in", "sign.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", `0x${serialNumber}`, "-days", "10", "-extfile", "sign.ext", "-extensions", "ext", "-outform", "DER", "-out", "signCert.der");
    // The same holder and key under yessign's personal policy.
    writeFileSync(file("personal.ext"), readFileSync(file("sign.ext"), "utf8").replace("1.2.410.200005.1.1.5", "1.2.410.200005.1.1.1"));
    await openssl("x509", "-req", "-in", "sign.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "0x01", "-days", "10", "-extfile", "personal.ext", "-extensions", "ext", "-outform", "DER", "-out", "personal.der");

    // PrivateKeyInfo with the R attribute: [0] IMPLICIT SET OF Attribute { randomNum OID, SET { BIT STRING R } }
    await openssl("rsa", "-in", "sign.key", "-traditional", "-outform", "DER", "-out", "sign.pkcs1.der");
    writeFileSync(
      file("pki.cnf"),
      [
        "asn1 = SEQUENCE:pki",
        "[pki]",
        "version = INTEGER:0",
        "algorithm = SEQUENCE:rsa",
        `key = FORMAT:HEX,OCTETSTRING:${hexOf("sign.pkcs1.der")}`,
        "attributes = IMPLICIT:0,SET:attributes",
        "[rsa]",
        "oid = OID:rsaEncryption",
        "params = NULL",
        "[attributes]",
        "random = SEQUENCE:random",
        "[random]",
        "type = OID:1.2.410.200004.10.1.1.3",
        "values = SET:values",
        "[values]",
        `r = FORMAT:HEX,BITSTRING:${hexOf("r.bin")}`,
        "",
      ].join("\n"),
    );
    await openssl("asn1parse", "-genconf", "pki.cnf", "-out", "pki.der", "-noout");

    /** Encrypts pki.der with a key and IV openssl derives, and wraps it as EncryptedPrivateKeyInfo with `algorithm` (genconf lines). */
    const encrypted = async (name: string, cipher: string, key: string, iv: string, algorithm: string[]) => {
      await openssl("enc", `-${cipher}`, "-K", key, "-iv", iv, "-in", "pki.der", "-out", `${name}.ct`, ...LEGACY);
      writeFileSync(file(`${name}.cnf`), ["asn1 = SEQUENCE:epki", "[epki]", "algorithm = SEQUENCE:algorithm", `data = FORMAT:HEX,OCTETSTRING:${hexOf(`${name}.ct`)}`, ...algorithm, ""].join("\n"));
      await openssl("asn1parse", "-genconf", `${name}.cnf`, "-out", `${name}.der`, "-noout");
      return readFileSync(file(`${name}.der`)).toString("base64");
    };
    const kdf = async (...args: string[]) => (await openssl("kdf", ...args)).toString().trim().replace(/:/g, "");
    const salt = async (bytes: number) => (await openssl("rand", "-hex", String(bytes))).toString().trim();

    // seedCBCWithSHA1: PBKDF1-SHA1 gives 20 bytes; the SEED key is the first 16, the IV SHA-1 of the last 4.
    const salt1 = await salt(8);
    const dk = await kdf("-keylen", "20", "-kdfopt", "digest:SHA1", "-kdfopt", `pass:${password}`, "-kdfopt", `hexsalt:${salt1}`, "-kdfopt", "iter:2048", ...LEGACY, "PBKDF1");
    writeFileSync(file("dk-tail.bin"), Buffer.from(dk.slice(32), "hex"));
    const iv1 = (await openssl("dgst", "-sha1", "-binary", "dk-tail.bin")).toString("hex").slice(0, 32);
    const seedCbcWithSha1 = await encrypted("seed-sha1", "seed-cbc", dk.slice(0, 32), iv1, [
      "[algorithm]", "oid = OID:1.2.410.200004.1.15", "params = SEQUENCE:params", "[params]", `salt = FORMAT:HEX,OCTETSTRING:${salt1}`, "iterations = INTEGER:2048",
    ]);

    // PBES2: PBKDF2 with HMAC-SHA-256, then SEED-CBC or AES-256-CBC.
    const pbes2 = async (name: string, cipher: string, cipherOid: string, keyLength: number) => {
      const s = await salt(16);
      const iv = await salt(16);
      const key = await kdf("-keylen", String(keyLength), "-kdfopt", "digest:SHA256", "-kdfopt", `pass:${password}`, "-kdfopt", `hexsalt:${s}`, "-kdfopt", "iter:2048", "PBKDF2");
      return encrypted(name, cipher, key, iv, [
        "[algorithm]", "oid = OID:PBES2", "params = SEQUENCE:pbes2",
        "[pbes2]", "kdf = SEQUENCE:kdf", "scheme = SEQUENCE:scheme",
        "[kdf]", "oid = OID:PBKDF2", "params = SEQUENCE:kdfparams",
        "[kdfparams]", `salt = FORMAT:HEX,OCTETSTRING:${s}`, "iterations = INTEGER:2048", "prf = SEQUENCE:prf",
        "[prf]", "oid = OID:hmacWithSHA256", "params = NULL",
        "[scheme]", `oid = OID:${cipherOid}`, `iv = FORMAT:HEX,OCTETSTRING:${iv}`,
      ]);
    };
    const pbes2SeedCbc = await pbes2("pbes2-seed", "seed-cbc", "1.2.410.200004.1.4", 16);
    const pbes2Aes256Cbc = await pbes2("pbes2-aes", "aes-256-cbc", "aes-256-cbc", 32);

    const pkcs8 = async (name: string, cipher: string) => {
      await openssl("pkcs8", "-topk8", "-in", "sign.key", "-v2", cipher, "-v2prf", "hmacWithSHA256", "-iter", "2048", "-passout", `pass:${password}`, "-outform", "DER", "-out", name, ...LEGACY);
      return readFileSync(file(name)).toString("base64");
    };
    const notAfter = new Date((await openssl("x509", "-inform", "DER", "-in", "signCert.der", "-noout", "-enddate")).toString().trim().replace(/^notAfter=/, "")).toISOString();

    return {
      businessNumber,
      password,
      commonName,
      realName,
      serialNumber,
      issuerName,
      subjectName,
      notAfter,
      certificate: readFileSync(file("signCert.der")).toString("base64"),
      personalCertificate: readFileSync(file("personal.der")).toString("base64"),
      privateKeys: { seedCbcWithSha1, pbes2SeedCbc, pbes2Aes256Cbc },
      privateKeyWithoutR: await pkcs8("plain-seed.der", "seed-cbc"),
      privateKeyTripleDes: await pkcs8("plain-des3.der", "des3"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
