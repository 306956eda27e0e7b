/**
 * The private key file of a joint certificate (`signPri.key`): a PKCS#8
 * EncryptedPrivateKeyInfo, encrypted with the certificate password in one of
 * the two schemes in use:
 *
 * - KISA's `seedCBCWithSHA1` (1.2.410.200004.1.15, KCAC.TS.ENC): PBKDF1 with
 *   SHA-1 gives 20 bytes; the first 16 are the SEED key, and SHA-1 of the
 *   last 4 gives the IV. Older files, still the most common.
 * - PKCS#5 PBES2: PBKDF2 (HMAC-SHA-1 or -SHA-256) with SEED-CBC, or AES-CBC
 *   in newer files.
 *
 * Inside is a PrivateKeyInfo holding an RSA key and, as an attribute, the
 * random value R that proves whose certificate it is (see identity.ts).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { OID } from "./oids";
import { seedCbcDecrypt, seedCbcEncrypt } from "./seed";
import { sha1 } from "./sha1";

export type KeyFileProblem = "UNREADABLE" | "UNSUPPORTED" | "WRONG_PASSWORD";

/** Why a key file did not open; carries nothing from the file or the password. */
export class KeyFileError extends Error {
  constructor(readonly problem: KeyFileProblem) {
    super(`key file: ${problem}`);
    this.name = "KeyFileError";
  }
}

export interface OpenedKey {
  /** The PrivateKeyInfo without its attributes, as WebCrypto imports it. */
  pkcs8: Uint8Array<ArrayBuffer>;
  /** The KISA random value R (attribute 1.2.410.200004.10.1.1.3), or null when the key has none. */
  randomNum: Uint8Array | null;
}

export type KeyEncryption = "SEED_CBC_WITH_SHA1" | "PBES2_SEED_CBC" | "PBES2_AES256_CBC";

/**
 * Bounds on the iteration count: real files use 1024-2048; workerd refuses
 * PBKDF2 beyond 100 000, and a file may not make us hash forever.
 */
export const MAX_ITERATIONS = 100_000;

const encoder = new TextEncoder();
const bytes = (buffer: ArrayBuffer | ArrayBufferView): Uint8Array<ArrayBuffer> =>
  buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer);

/** PBKDF1 with SHA-1 (RFC 8018, section 5.1): T1 = SHA1(P || S), Ti = SHA1(Ti-1). */
function pbkdf1Sha1(password: string, salt: Uint8Array, iterations: number): Uint8Array<ArrayBuffer> {
  const pw = encoder.encode(password);
  const first = new Uint8Array(pw.byteLength + salt.byteLength);
  first.set(pw);
  first.set(salt, pw.byteLength);
  let t = sha1(first);
  for (let i = 1; i < iterations; i++) t = sha1(t);
  return t;
}

function seedWithSha1KeyAndIv(password: string, salt: Uint8Array, iterations: number): { key: Uint8Array; iv: Uint8Array } {
  const dk = pbkdf1Sha1(password, salt, iterations);
  return { key: dk.slice(0, 16), iv: sha1(dk.slice(16, 20)).slice(0, 16) };
}

async function pbkdf2(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number, hash: "SHA-1" | "SHA-256", length: number): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", salt, iterations, hash }, base, length * 8));
}

/** A block cipher in CBC mode with PKCS#7 padding; decrypt answers null for bad padding. */
interface CbcCipher {
  keyLength: number;
  encrypt(key: Uint8Array, iv: Uint8Array, plain: Uint8Array): Promise<Uint8Array>;
  decrypt(key: Uint8Array, iv: Uint8Array, cipher: Uint8Array): Promise<Uint8Array | null>;
}

const SEED_CBC: CbcCipher = {
  keyLength: 16,
  encrypt: async (key, iv, plain) => seedCbcEncrypt(key, iv, plain),
  decrypt: async (key, iv, cipher) => seedCbcDecrypt(key, iv, cipher),
};

const aesCbc = (keyLength: number): CbcCipher => {
  const aesKey = (key: Uint8Array, usage: "encrypt" | "decrypt") => crypto.subtle.importKey("raw", bytes(key), "AES-CBC", false, [usage]);
  return {
    keyLength,
    encrypt: async (key, iv, plain) => new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: bytes(iv) }, await aesKey(key, "encrypt"), bytes(plain))),
    // WebCrypto checks the padding and throws when it is wrong.
    decrypt: async (key, iv, cipher) =>
      crypto.subtle
        .decrypt({ name: "AES-CBC", iv: bytes(iv) }, await aesKey(key, "decrypt"), bytes(cipher))
        .then((plain) => new Uint8Array(plain))
        .catch(() => null),
  };
};

const PBES2_CIPHERS: Readonly<Record<string, CbcCipher>> = {
  [OID.seedCbc]: SEED_CBC,
  [OID.aes128Cbc]: aesCbc(16),
  [OID.aes256Cbc]: aesCbc(32),
};
const PRF_HASHES: Readonly<Record<string, "SHA-1" | "SHA-256">> = { [OID.hmacWithSha1]: "SHA-1", [OID.hmacWithSha256]: "SHA-256" };

/** How to get the plaintext back from a file's encryption algorithm, or why not. */
interface Decryption {
  decrypt(password: string, data: Uint8Array): Promise<Uint8Array | null>;
}

function parsedOrNull<T>(parse: () => T): T | null {
  try {
    return parse();
  } catch {
    return null;
  }
}

const checkIterations = (iterations: number) => {
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) throw new KeyFileError("UNSUPPORTED");
};

function seedWithSha1Decryption(params: unknown): Decryption {
  // SEQUENCE { salt OCTET STRING, iterationCount INTEGER }
  const items = params instanceof asn1js.Sequence ? params.valueBlock.value : [];
  const [salt, count] = items;
  if (!(salt instanceof asn1js.OctetString) || !(count instanceof asn1js.Integer)) throw new KeyFileError("UNREADABLE");
  const iterations = count.valueBlock.valueDec;
  checkIterations(iterations);
  return {
    async decrypt(password, data) {
      const { key, iv } = seedWithSha1KeyAndIv(password, salt.valueBlock.valueHexView, iterations);
      return seedCbcDecrypt(key, iv, data);
    },
  };
}

function pbes2Decryption(params: unknown): Decryption {
  const pbes2 = parsedOrNull(() => new pkijs.PBES2Params({ schema: params as pkijs.SchemaType })) ?? unreadable();
  if (pbes2.keyDerivationFunc.algorithmId !== OID.pbkdf2) throw new KeyFileError("UNSUPPORTED");
  const kdf = parsedOrNull(() => new pkijs.PBKDF2Params({ schema: pbes2.keyDerivationFunc.algorithmParams })) ?? unreadable();
  const hash = PRF_HASHES[kdf.prf?.algorithmId ?? OID.hmacWithSha1];
  const cipher = PBES2_CIPHERS[pbes2.encryptionScheme.algorithmId];
  if (!hash || !cipher || (kdf.keyLength !== undefined && kdf.keyLength !== cipher.keyLength)) throw new KeyFileError("UNSUPPORTED");
  checkIterations(kdf.iterationCount);
  const iv = pbes2.encryptionScheme.algorithmParams;
  if (!(kdf.salt instanceof asn1js.OctetString) || !(iv instanceof asn1js.OctetString) || iv.valueBlock.valueHexView.byteLength !== 16) unreadable();
  return {
    async decrypt(password, data) {
      const key = await pbkdf2(password, bytes(kdf.salt.valueBlock.valueHexView), kdf.iterationCount, hash, cipher.keyLength);
      return cipher.decrypt(key, iv.valueBlock.valueHexView, data);
    },
  };
}

function unreadable(): never {
  throw new KeyFileError("UNREADABLE");
}

function decryptionFor(algorithm: pkijs.AlgorithmIdentifier): Decryption {
  switch (algorithm.algorithmId) {
    case OID.seedCbcWithSha1:
      return seedWithSha1Decryption(algorithm.algorithmParams);
    case OID.pbes2:
      return pbes2Decryption(algorithm.algorithmParams);
    default:
      throw new KeyFileError("UNSUPPORTED");
  }
}

/** The R attribute's bits, when the key carries one. */
function randomNumOf(info: pkijs.PrivateKeyInfo): Uint8Array | null {
  const attribute = info.attributes?.find((a) => a.type === OID.kisaRandomNum);
  const value: unknown = attribute?.values[0];
  return value instanceof asn1js.BitString && value.valueBlock.valueHexView.byteLength > 0 ? value.valueBlock.valueHexView.slice() : null;
}

/**
 * Opens a `signPri.key` with the certificate password. CBC does not
 * authenticate: a wrong password shows as bad padding or, rarely, as good
 * padding over bytes that do not decode as a PrivateKeyInfo; both are
 * WRONG_PASSWORD.
 */
export async function openKeyFile(der: Uint8Array, password: string): Promise<OpenedKey> {
  const file = parsedOrNull(() => pkijs.PKCS8ShroudedKeyBag.fromBER(bytes(der))) ?? unreadable();
  const plain = await decryptionFor(file.encryptionAlgorithm).decrypt(password, file.encryptedData.valueBlock.valueHexView);
  const info = plain && parsedOrNull(() => pkijs.PrivateKeyInfo.fromBER(bytes(plain)));
  if (!info) throw new KeyFileError("WRONG_PASSWORD");
  const bare = new pkijs.PrivateKeyInfo({ version: info.version, privateKeyAlgorithm: info.privateKeyAlgorithm, privateKey: info.privateKey });
  return { pkcs8: new Uint8Array(bare.toSchema().toBER()), randomNum: randomNumOf(info) };
}

/**
 * Encrypts a PrivateKeyInfo (attributes and all) into a key file, as the
 * certification authorities' issuing software does. The sandbox CA and
 * tests use it; the service only opens files.
 */
export async function sealKeyFile(privateKeyInfo: Uint8Array, password: string, encryption: KeyEncryption, iterations = 2048): Promise<Uint8Array> {
  const salt = crypto.getRandomValues(new Uint8Array(encryption === "SEED_CBC_WITH_SHA1" ? 8 : 16));
  let algorithm: pkijs.AlgorithmIdentifier;
  let data: Uint8Array;
  if (encryption === "SEED_CBC_WITH_SHA1") {
    const { key, iv } = seedWithSha1KeyAndIv(password, salt, iterations);
    data = seedCbcEncrypt(key, iv, privateKeyInfo);
    algorithm = new pkijs.AlgorithmIdentifier({
      algorithmId: OID.seedCbcWithSha1,
      algorithmParams: new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: salt }), new asn1js.Integer({ value: iterations })] }),
    });
  } else {
    const cipherOid = encryption === "PBES2_SEED_CBC" ? OID.seedCbc : OID.aes256Cbc;
    const cipher = PBES2_CIPHERS[cipherOid]!;
    const iv = crypto.getRandomValues(new Uint8Array(16));
    data = await cipher.encrypt(await pbkdf2(password, salt, iterations, "SHA-256", cipher.keyLength), iv, privateKeyInfo);
    const kdf = new pkijs.PBKDF2Params({
      salt: new asn1js.OctetString({ valueHex: salt }),
      iterationCount: iterations,
      prf: new pkijs.AlgorithmIdentifier({ algorithmId: OID.hmacWithSha256, algorithmParams: new asn1js.Null() }),
    });
    const params = new pkijs.PBES2Params({
      keyDerivationFunc: new pkijs.AlgorithmIdentifier({ algorithmId: OID.pbkdf2, algorithmParams: kdf.toSchema() }),
      encryptionScheme: new pkijs.AlgorithmIdentifier({ algorithmId: cipherOid, algorithmParams: new asn1js.OctetString({ valueHex: iv }) }),
    });
    algorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID.pbes2, algorithmParams: params.toSchema() });
  }
  const file = new pkijs.PKCS8ShroudedKeyBag({ encryptionAlgorithm: algorithm, encryptedData: new asn1js.OctetString({ valueHex: data }) });
  return new Uint8Array(file.toSchema().toBER());
}
