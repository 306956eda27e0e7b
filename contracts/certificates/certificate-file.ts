/**
 * The certificate file of a joint certificate (`signCert.der`, or
 * `kmCert.der` for the encryption pair): X.509 v3 in DER, read with PKI.js.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { type IdentifyData, readIdentifyData } from "./identity";
import { NAME_ATTRIBUTES, OID } from "./oids";

/** RFC 5280 key usage bits, in bit order. */
const KEY_USAGES = ["digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"] as const;
export type KeyUsageName = (typeof KEY_USAGES)[number];

export interface CertificateFile {
  /** Distinguished names as RFC 4514 strings, e.g. `CN=(주)샌드박스상사,OU=corporation,O=yessign,C=KR`. */
  subject: string;
  issuer: string;
  commonName: string | null;
  /** Hex, lowercase, without leading zeros beyond one byte. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** The key usage extension's bits; null when the certificate has none. */
  keyUsage: ReadonlySet<KeyUsageName> | null;
  policies: string[];
  /** KISA identifyData from subjectAltName, when present. */
  identity: IdentifyData | null;
  /** SubjectPublicKeyInfo (DER) and its algorithm, for WebCrypto import. */
  publicKey: { algorithm: string; spki: Uint8Array<ArrayBuffer> };
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** RFC 4514 escaping of one attribute value. */
function escapeValue(value: string): string {
  return value.replace(/[,+"\\<>;]/g, "\\$&").replace(/^[#\s]/, "\\$&").replace(/\s$/, "\\ ");
}

function attributeValue(value: unknown): string {
  const block = value as { valueBlock?: { value?: unknown }; toBER?: () => ArrayBuffer };
  if (typeof block.valueBlock?.value === "string") return escapeValue(block.valueBlock.value);
  return `#${hex(new Uint8Array(block.toBER?.() ?? new ArrayBuffer(0)))}`;
}

/** A Name as RFC 4514 writes it: the last RDN first, the values of a multi-valued RDN joined by "+". */
export function distinguishedName(name: pkijs.RelativeDistinguishedNames): string {
  const rdns = asn1js.fromBER(name.valueBeforeDecode).result;
  const sets = rdns instanceof asn1js.Sequence ? rdns.valueBlock.value : [];
  return sets
    .map((set) =>
      (set instanceof asn1js.Set ? set.valueBlock.value : [])
        .map((item) => new pkijs.AttributeTypeAndValue({ schema: item }))
        .map((tv) => `${NAME_ATTRIBUTES[tv.type] ?? tv.type}=${attributeValue(tv.value)}`)
        .join("+"),
    )
    .reverse()
    .join(",");
}

function commonNameOf(name: pkijs.RelativeDistinguishedNames): string | null {
  const value = name.typesAndValues.find((tv) => tv.type === "2.5.4.3")?.value as { valueBlock?: { value?: unknown } } | undefined;
  return typeof value?.valueBlock?.value === "string" ? value.valueBlock.value : null;
}

function keyUsageOf(extension: pkijs.Extension | undefined): ReadonlySet<KeyUsageName> | null {
  const bits = extension?.parsedValue;
  if (!(bits instanceof asn1js.BitString)) return null;
  const view = bits.valueBlock.valueHexView;
  return new Set(KEY_USAGES.filter((_, i) => ((view[i >> 3] ?? 0) & (0x80 >> (i & 7))) !== 0));
}

function policiesOf(extension: pkijs.Extension | undefined): string[] {
  const parsed = extension?.parsedValue;
  return parsed instanceof pkijs.CertificatePolicies ? parsed.certificatePolicies.map((p) => p.policyIdentifier) : [];
}

function identityOf(extension: pkijs.Extension | undefined): IdentifyData | null {
  const parsed = extension?.parsedValue;
  if (!(parsed instanceof pkijs.AltName)) return null;
  for (const name of parsed.altNames) {
    // otherName [0] { type-id OBJECT IDENTIFIER, value [0] EXPLICIT ANY }
    const [typeId, explicit] = name.type === 0 && name.value instanceof asn1js.Constructed ? name.value.valueBlock.value : [];
    if (typeId instanceof asn1js.ObjectIdentifier && typeId.valueBlock.toString() === OID.kisaIdentifyData && explicit instanceof asn1js.Constructed) {
      return readIdentifyData(explicit.valueBlock.value[0]);
    }
  }
  return null;
}

/** Parses a DER certificate; null when the bytes are not one. */
export function parseCertificate(der: Uint8Array): pkijs.Certificate | null {
  try {
    return pkijs.Certificate.fromBER(new Uint8Array(der));
  } catch {
    return null;
  }
}

/** What a certificate file says, or null when it is not an X.509 certificate. */
export function readCertificateFile(der: Uint8Array): CertificateFile | null {
  const certificate = parseCertificate(der);
  if (!certificate) return null;
  const extension = (id: string) => certificate.extensions?.find((e) => e.extnID === id);
  try {
    return {
      subject: distinguishedName(certificate.subject),
      issuer: distinguishedName(certificate.issuer),
      commonName: commonNameOf(certificate.subject),
      serialNumber: hex(certificate.serialNumber.valueBlock.valueHexView).replace(/^(00)+(?=..)/, ""),
      notBefore: certificate.notBefore.value,
      notAfter: certificate.notAfter.value,
      keyUsage: keyUsageOf(extension(OID.keyUsage)),
      policies: policiesOf(extension(OID.certificatePolicies)),
      identity: identityOf(extension(OID.subjectAltName)),
      publicKey: { algorithm: certificate.subjectPublicKeyInfo.algorithm.algorithmId, spki: new Uint8Array(certificate.subjectPublicKeyInfo.toSchema().toBER()) },
    };
  } catch {
    return null;
  }
}
