import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { base64Encode } from "../../contracts/base64url";
import { identifyDataBlock, virtualId } from "../../contracts/certificates/identity";
import { type KeyEncryption, sealKeyFile } from "../../contracts/certificates/key-file";
import { OID } from "../../contracts/certificates/oids";
import type { CertificateHolder } from "../../contracts/certificates/policies";
import { issuingAuthority, newSerialNumber } from "./authority";

export interface JointCertificateOptions {
  /** The number the virtual ID is issued for: a business number, or for a personal certificate a resident number. */
  idn?: string;
  holder?: CertificateHolder;
  /** The subject's CN; real CAs append a registration number to the name. */
  commonName?: string;
  /** The real name in identifyData. */
  realName?: string;
  /** signCert (signing) or kmCert (encryption only). */
  usage?: "signing" | "encryption";
  notBefore?: Date;
  notAfter?: Date;
  password?: string;
  encryption?: KeyEncryption;
  /** Leave R out of the key file, as some export tools do. */
  withoutRandomNum?: boolean;
  /** Issue it already revoked. */
  revoked?: boolean;
}

/** The two files a holder keeps, as the API takes them (standard base64), and the password. */
export interface JointCertificate {
  certificate: string;
  privateKey: string;
  password: string;
  serialNumber: string;
}

const DAY = 86_400_000;
export const SANDBOX_BUSINESS_NUMBER = "1208800767";

// Test CAs of the accredited CAs (yessignCA-TEST) issue under the production policy OIDs; so does the sandbox CA.
const POLICY: Record<CertificateHolder, string> = { BUSINESS: "1.2.410.200005.1.1.5", PERSONAL: "1.2.410.200005.1.1.1" };
const KEY_USAGE_BITS = { signing: 0x80 | 0x40, encryption: 0x20 | 0x10 } as const; // digitalSignature+nonRepudiation / keyEncipherment+dataEncipherment
const RSA = { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" } as const;

/** A Name of one attribute per RDN, as CAs write them (PKI.js alone would put them all in one RDN). */
const name = (attributes: [string, string][]) =>
  pkijs.RelativeDistinguishedNames.fromBER(
    new asn1js.Sequence({
      value: attributes.map(([type, value]) =>
        new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value: type === "2.5.4.6" ? new asn1js.PrintableString({ value }) : new asn1js.Utf8String({ value }) }).toSchema()] }),
      ),
    }).toBER(),
  );

const extension = (extnID: string, critical: boolean, value: asn1js.BaseBlock) => new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });

/** subjectAltName with the KISA identifyData otherName: [0] { type-id, [0] EXPLICIT IdentifyData }. */
function identifyDataAltName(realName: string, vid: Uint8Array): asn1js.Sequence {
  const otherName = new asn1js.Constructed({
    idBlock: { tagClass: 3, tagNumber: 0 },
    value: [new asn1js.ObjectIdentifier({ value: OID.kisaIdentifyData }), new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [identifyDataBlock(realName, vid)] })],
  });
  return new asn1js.Sequence({ value: [otherName] });
}

/** The PrivateKeyInfo of a generated key with R as its KISA attribute. */
async function privateKeyInfo(key: CryptoKey, randomNum: Uint8Array | null): Promise<Uint8Array> {
  const info = pkijs.PrivateKeyInfo.fromBER((await crypto.subtle.exportKey("pkcs8", key)) as ArrayBuffer);
  if (randomNum) info.attributes = [new pkijs.Attribute({ type: OID.kisaRandomNum, values: [new asn1js.BitString({ valueHex: randomNum, unusedBits: 0 })] })];
  return new Uint8Array(info.toSchema().toBER());
}

/**
 * Issues a joint certificate the way Korean CAs do: an RSA key pair, an
 * X.509 certificate signed by the sandbox CA with the holder's policy, key
 * usage and identifyData (real name and virtual ID), and the private key
 * with R, encrypted with the password. WebCrypto and PKI.js only, so it
 * runs in Node and workerd alike.
 */
export async function issueJointCertificate(options: JointCertificateOptions = {}): Promise<JointCertificate> {
  const holder = options.holder ?? "BUSINESS";
  const idn = options.idn ?? (holder === "BUSINESS" ? SANDBOX_BUSINESS_NUMBER : "8001011234567");
  const realName = options.realName ?? (holder === "BUSINESS" ? "(주)샌드박스상사" : "김샌드");
  const password = options.password ?? "cert-pass-1!";
  const now = Date.now();
  const authority = await issuingAuthority();
  const pair = (await crypto.subtle.generateKey(RSA, true, ["sign", "verify"])) as CryptoKeyPair;
  const randomNum = crypto.getRandomValues(new Uint8Array(20));

  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: await newSerialNumber(options.revoked ?? false) });
  certificate.issuer = authority.certificate.subject;
  certificate.subject = name([["2.5.4.6", "KR"], ["2.5.4.10", "SandboxSign"], ["2.5.4.11", holder === "BUSINESS" ? "corporation4EC" : "personal4IB"], ["2.5.4.3", options.commonName ?? `${realName}()0012345678901234`]]);
  certificate.notBefore.value = options.notBefore ?? new Date(now - DAY);
  certificate.notAfter.value = options.notAfter ?? new Date(now + 365 * DAY);
  await certificate.subjectPublicKeyInfo.importKey(pair.publicKey);
  certificate.extensions = [
    extension(OID.keyUsage, true, new asn1js.BitString({ valueHex: new Uint8Array([KEY_USAGE_BITS[options.usage ?? "signing"]]), unusedBits: 1 })),
    extension(OID.certificatePolicies, false, new pkijs.CertificatePolicies({ certificatePolicies: [new pkijs.PolicyInformation({ policyIdentifier: POLICY[holder] })] }).toSchema()),
    extension(OID.subjectAltName, false, identifyDataAltName(realName, (await virtualId(idn, randomNum))!)),
  ];
  await certificate.sign(authority.privateKey, "SHA-256");

  const keyInfo = await privateKeyInfo(pair.privateKey, options.withoutRandomNum ? null : randomNum);
  const keyFile = await sealKeyFile(keyInfo, password, options.encryption ?? "SEED_CBC_WITH_SHA1");
  return {
    certificate: base64Encode(new Uint8Array(certificate.toSchema().toBER())),
    privateKey: base64Encode(keyFile),
    password,
    serialNumber: Array.from(certificate.serialNumber.valueBlock.valueHexView, (b) => b.toString(16).padStart(2, "0")).join(""),
  };
}
