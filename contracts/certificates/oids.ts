/** Object identifiers the joint certificate files use (KISA's arc is 1.2.410.200004). */
export const OID = {
  rsaEncryption: "1.2.840.113549.1.1.1",
  sha256WithRSAEncryption: "1.2.840.113549.1.1.11",
  sha1: "1.3.14.3.2.26",
  sha256: "2.16.840.1.101.3.4.2.1",

  // Key encryption: KISA's PBES1 with SHA-1 and SEED-CBC (KCAC.TS.ENC), and PKCS#5 PBES2.
  seedCbcWithSha1: "1.2.410.200004.1.15",
  seedCbc: "1.2.410.200004.1.4",
  pbes2: "1.2.840.113549.1.5.13",
  pbkdf2: "1.2.840.113549.1.5.12",
  hmacWithSha1: "1.2.840.113549.2.7",
  hmacWithSha256: "1.2.840.113549.2.9",
  aes128Cbc: "2.16.840.1.101.3.4.1.2",
  aes256Cbc: "2.16.840.1.101.3.4.1.42",

  // Subscriber identification by virtual ID (KCAC.TS.SIVID).
  kisaIdentifyData: "1.2.410.200004.10.1.1",
  kisaVid: "1.2.410.200004.10.1.1.1",
  kisaRandomNum: "1.2.410.200004.10.1.1.3",

  keyUsage: "2.5.29.15",
  subjectAltName: "2.5.29.17",
  certificatePolicies: "2.5.29.32",
  basicConstraints: "2.5.29.19",
} as const;

/** Attribute types shown by name in distinguished names (RFC 4514, plus serialNumber). */
export const NAME_ATTRIBUTES: Readonly<Record<string, string>> = {
  "2.5.4.3": "CN",
  "2.5.4.5": "serialNumber",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
};
