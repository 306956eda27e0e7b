/**
 * Subscriber identification by virtual ID (KISA KCAC.TS.SIVID). A joint
 * certificate does not show the holder's resident or business number;
 * its subjectAltName carries an `otherName` of type identifyData with the
 * real name and a virtual ID, VID = h(h(HashContent)), where
 *
 *   HashContent ::= SEQUENCE { idn PrintableString, randomNum BIT STRING }
 *
 * and randomNum is the value R kept in the private key. Whoever holds the
 * key can thus prove which number the certificate was issued for.
 *
 *   IdentifyData ::= SEQUENCE {
 *     realName UTF8String,
 *     userInfo SEQUENCE SIZE (1..MAX) OF AttributeTypeAndValue OPTIONAL }
 *   -- with an AttributeTypeAndValue of type id-VID whose value is
 *   VID ::= SEQUENCE { hashAlg AlgorithmIdentifier, virtualID [0] EXPLICIT OCTET STRING }
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { OID } from "./oids";

export interface IdentifyData {
  realName: string;
  vid: { hashAlgorithm: string; virtualId: Uint8Array } | null;
}

const HASHES: Readonly<Record<string, "SHA-1" | "SHA-256">> = { [OID.sha1]: "SHA-1", [OID.sha256]: "SHA-256" };

const itemsOf = (block: unknown): unknown[] => (block instanceof asn1js.Sequence || block instanceof asn1js.Constructed ? block.valueBlock.value : []);

function vidOf(userInfo: unknown): IdentifyData["vid"] {
  for (const entry of itemsOf(userInfo)) {
    const [type, value] = itemsOf(entry);
    if (!(type instanceof asn1js.ObjectIdentifier) || type.valueBlock.toString() !== OID.kisaVid) continue;
    const [hashAlg, tagged] = itemsOf(value);
    const [octets] = itemsOf(tagged);
    if (!(tagged instanceof asn1js.Constructed) || tagged.idBlock.tagClass !== 3 || tagged.idBlock.tagNumber !== 0 || !(octets instanceof asn1js.OctetString)) return null;
    const algorithm = (() => {
      try {
        return new pkijs.AlgorithmIdentifier({ schema: hashAlg as pkijs.SchemaType }).algorithmId;
      } catch {
        return null;
      }
    })();
    return algorithm ? { hashAlgorithm: algorithm, virtualId: octets.valueBlock.valueHexView.slice() } : null;
  }
  return null;
}

/** The identifyData of an `otherName` value (the [0] EXPLICIT content), or null when it has another shape. */
export function readIdentifyData(value: unknown): IdentifyData | null {
  const [realName, userInfo] = itemsOf(value);
  if (!(realName instanceof asn1js.Utf8String)) return null;
  return { realName: realName.valueBlock.value, vid: vidOf(userInfo) };
}

/** The DER identifyData value for a certificate's subjectAltName (the sandbox CA issues with it). */
export function identifyDataBlock(realName: string, virtualId: Uint8Array, hashAlgorithm: string = OID.sha256): asn1js.Sequence {
  const vid = new asn1js.Sequence({
    value: [
      new pkijs.AlgorithmIdentifier({ algorithmId: hashAlgorithm, algorithmParams: new asn1js.Null() }).toSchema(),
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.OctetString({ valueHex: virtualId })] }),
    ],
  });
  return new asn1js.Sequence({
    value: [new asn1js.Utf8String({ value: realName }), new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.kisaVid }), vid] })] })],
  });
}

/** VID = h(h(DER(HashContent))) for an identification number (digits only) and R. */
export async function virtualId(idn: string, randomNum: Uint8Array, hashAlgorithm: string = OID.sha256): Promise<Uint8Array | null> {
  const hash = HASHES[hashAlgorithm];
  if (!hash) return null;
  const content = new asn1js.Sequence({ value: [new asn1js.PrintableString({ value: idn }), new asn1js.BitString({ valueHex: randomNum, unusedBits: 0 })] });
  const once = await crypto.subtle.digest(hash, content.toBER());
  return new Uint8Array(await crypto.subtle.digest(hash, once));
}

/** Whether the certificate's virtual ID is the one of `idn` with this R. */
export async function identifies(identity: IdentifyData | null, idn: string, randomNum: Uint8Array): Promise<boolean> {
  if (!identity?.vid) return false;
  const expected = await virtualId(idn, randomNum, identity.vid.hashAlgorithm);
  const actual = identity.vid.virtualId;
  return expected !== null && expected.byteLength === actual.byteLength && expected.every((b, i) => b === actual[i]);
}
