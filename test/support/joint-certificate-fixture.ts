/**
 * A joint certificate made entirely by the openssl command line, with a CA
 * of its own, in the layout Korean CAs issue (signCert.der + signPri.key
 * with the random value R); see openssl-joint-certificate.ts. Types only, so
 * that worker tests can name it without Node's modules.
 */
export interface OpensslJointCertificate {
  businessNumber: string;
  password: string;
  commonName: string;
  realName: string;
  serialNumber: string;
  /** The CA's and the holder's distinguished names as openssl was told them (RFC 4514 order is the reverse). */
  issuerName: string;
  subjectName: string;
  notAfter: string;
  /** signCert.der, standard base64. */
  certificate: string;
  /** A certificate for the same holder and key under a personal (개인) policy. */
  personalCertificate: string;
  /** signPri.key in each encryption in use, standard base64. */
  privateKeys: { seedCbcWithSha1: string; pbes2SeedCbc: string; pbes2Aes256Cbc: string };
  /** The same key as `openssl pkcs8 -topk8` writes it: PBES2 with SEED-CBC and no R attribute. */
  privateKeyWithoutR: string;
  /** The same key under PBES2 with triple DES, which no Korean CA uses. */
  privateKeyTripleDes: string;
}

declare module "vitest" {
  interface ProvidedContext {
    /** Made by the Workers tests' global setup (workers-global-setup.ts). */
    opensslJointCertificate: OpensslJointCertificate;
  }
}
