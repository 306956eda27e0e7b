/**
 * The sandbox certification authority: a root and the issuing CA under it,
 * made once with openssl (docs/certificates.md, "The sandbox CA"). Its keys
 * are published on purpose: only the sandbox institutions trust this root.
 * Certificates issue in whatever process asks (tests, scripts, the demo
 * seed) while the sandbox portal checks them in its own, so everything the
 * CA knows is in this file and in the certificates it signs.
 */
import * as pkijs from "pkijs";
import { base64Decode } from "../../contracts/base64url";

const ROOT_CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----
MIIDLzCCAhegAwIBAgIBATANBgkqhkiG9w0BAQsFADA5MQswCQYDVQQGEwJLUjEQ
MA4GA1UECgwHU2FuZGJveDEYMBYGA1UEAwwPU2FuZGJveCBSb290IENBMB4XDTI1
MDEwMTAwMDAwMFoXDTQ1MTIzMTIzNTk1OVowOTELMAkGA1UEBhMCS1IxEDAOBgNV
BAoMB1NhbmRib3gxGDAWBgNVBAMMD1NhbmRib3ggUm9vdCBDQTCCASIwDQYJKoZI
hvcNAQEBBQADggEPADCCAQoCggEBAJGXhsAakC41jHojI2oE5BvCTXhiFKdgQNvX
1K8aWHHI1zsvbou8B2vh/uwYIwF1BPKIO/ixTgj5wLmOFyUEzlwQZUxlb7T8pI1w
5/isld33eQg0VMFxol25KKwZf7cwWjT14q59SCFDRve2KiKoQA/Q9ZActYsbdPE4
LjBnt2e8Ltadq3pnUrUczBtNDUZikf8cHmDIanbAfqQwgXqWuvGEERhFGyWaiE8H
u6ZFs9Rh7Fn1iC6RKzByxsci4/lX7+V83h1kyy+VTwYxGv9Kgv0UYC74DnAUoGjY
RRsEkT+Ot4cMR/N0tw4juTbVFJ6JzqwJCJGAuB/4x+BK+S0dBmsCAwEAAaNCMEAw
DwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFA9vAS3P
V8YCtFlEU/QaefcWf6PaMA0GCSqGSIb3DQEBCwUAA4IBAQA3XCvwx9jk8oUQoBg8
nIRNa7JdZo0Ve9/E/+d7Sljz6H94DfBNPQcQx0Ws0mwKtezUGokju8nwONaucl9L
l0s+j4gO5d7G/CqaqMRxCeqZ4Q7Jtwi9Aafi5QYbhXM1GePYPIRqFOM81Y50coW5
/hUMKheVFg1mo4GIGjIooBxmNqzFSUq+dWEuX5FjO1MlvOWm70bZJ3HG5G0PJ/UN
RZMRTOy+PbwHjeph/bBz8SVxHDOuGg9LfM+5GRy3IAQsld/EZrfV25h3ianvjnxJ
WtnETR1c967E6SRTstlZCaAoft7NxvZkzY5bkta2omhyFw0hk1K2Y1mdm7dNwUux
oWic
-----END CERTIFICATE-----`;

const CA_CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----
MIIDcjCCAlqgAwIBAgIBAjANBgkqhkiG9w0BAQsFADA5MQswCQYDVQQGEwJLUjEQ
MA4GA1UECgwHU2FuZGJveDEYMBYGA1UEAwwPU2FuZGJveCBSb290IENBMB4XDTI1
MDEwMTAwMDAwMFoXDTQ1MTIzMTIzNTk1OVowWDELMAkGA1UEBhMCS1IxFDASBgNV
BAoMC1NhbmRib3hTaWduMRUwEwYDVQQLDAxBY2NyZWRpdGVkQ0ExHDAaBgNVBAMM
E1NhbmRib3hTaWduIENsYXNzIDEwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEK
AoIBAQCSXRZ7qb4QNRTyAh/QQXTaQC9GHliBU9708TR7P3AzArRMHjs9Xq1JVD7f
cOUtAzTVKADFw1m1LMe3dRTftDd/6hb8ng7ndVDPuUm6cFAu9r0lAUCjmy+QDpep
ASnyooreixJlRTFrgIKSF6AAyxJeGudhxzw3geJlCOqp0OXFuKMjJ3QEIRStvCEj
QkT4tSYTm2rbFlPrO6yhV2AI3YU/pYG8n6kux9YiXt5K4NP6sDWLH9YamzrkmJpl
AgwFomPmAxUuWitHcc8Vj2aGIyeWeh+gDaQCgXBMx3hd8iMTUlQh+5QvkYT1FjhR
f5FDYi9N6z9SpSR9Z2klHj3eTVwvAgMBAAGjZjBkMBIGA1UdEwEB/wQIMAYBAf8C
AQAwDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBScyqGkZIVzIF5tHKxU8fbJ8aW9
5zAfBgNVHSMEGDAWgBQPbwEtz1fGArRZRFP0Gnn3Fn+j2jANBgkqhkiG9w0BAQsF
AAOCAQEATVEh81K9dXX2DZtBJ/P42wYnZfo0KpJ6DnUUosPfzNKdzY7nOOJGxPhP
qZTEAPVfBKlFrOXcn8lsxUwhF8l1TkAhB5hpE6C5bsehwvZQILHSMrVGYCJ2XRwd
4ZKBGCLP1EmmZ4bqBkDhmLZkYzarPym+yXwnpulo2VD35D+N9vnNhCrcY3QXJMgN
hxjzPgqJK4/xFld1WJ92M+lFmhMoQVjN8KLxIV2VLw0ovHECVDoUU4ZuUzffp7ZF
qEmftaDBoQHGiK/SGA6L7XGe4KmULV9lBYzQMbNSAqvQRN4rTxTb5ArmMSwdEh6H
hMczkNF4zm4D6gKYMdDjwE882U6yOw==
-----END CERTIFICATE-----`;

const CA_PRIVATE_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCSXRZ7qb4QNRTy
Ah/QQXTaQC9GHliBU9708TR7P3AzArRMHjs9Xq1JVD7fcOUtAzTVKADFw1m1LMe3
dRTftDd/6hb8ng7ndVDPuUm6cFAu9r0lAUCjmy+QDpepASnyooreixJlRTFrgIKS
F6AAyxJeGudhxzw3geJlCOqp0OXFuKMjJ3QEIRStvCEjQkT4tSYTm2rbFlPrO6yh
V2AI3YU/pYG8n6kux9YiXt5K4NP6sDWLH9YamzrkmJplAgwFomPmAxUuWitHcc8V
j2aGIyeWeh+gDaQCgXBMx3hd8iMTUlQh+5QvkYT1FjhRf5FDYi9N6z9SpSR9Z2kl
Hj3eTVwvAgMBAAECggEAN/+ysvTCWewdS+zBJEpu/XQSQkcpAK5IvzmsJT2j3Xh6
6Cam7reTIFvBxHaq0HqKE8X+6atw3q836Hq81kxa8a9sRRHqTOdnWFqhmVoQa6+O
taJRi2c8HudeYlSmKoXDERtvmdyL6IAeNOwiFTudFvE/NvtmECy7JIHxWrCowOls
BdXmFIWUzLDNyych0jvjCu+dxqz0XakAr7HB+1DpOI56UYxvrJbwhBO/0iPzQtHz
rIpBsf1VC9V7fcVUYUW5CPR5PJ/bNlgCAL4XyTw+AQsmhmU/0Ke3bcaGz/T0AtHm
6dxsn6PRAjkN2pWawrB1pwIE9TmsiHNnfVCFY0U0uQKBgQDKt0hH5PpbrJhxkACW
+nHOdxJ7bvzFDIkZ3nSRvWgmC3Sy+OJZzBiCbjXG6WD1d/mMKtCg1ApozgEbUVsV
YSmLUQyf9Hp5MZ8FFsKufaaq/lWewDghRWhLFeMCR4roO3kuLGfb4Z7OxM7gz+EL
iin3lu9PEOsb3UkUzr6T5OfbiQKBgQC41d5OLn/s8WE+oIuKhXtNnjuxSfY2TPj2
+0d0hB9qxtljs52wUzyTSz6EZQy2Fo+yZC9FKMOAKOmecCCUEBhiAD6vAEU7Rj10
hKgNB5UayexDZZzGIMDp0f8rK3kcvMiWAbZ36Cyva1M65xzwXAonVXcy9WDN8dTa
C3yBAqpz9wKBgArBQJd34YR9mrTjs/ROoz0V+igMUmLN8HQr5jlZOC5Ui0N3iuLC
vkYlPLsp5JgBXn7+QoVV2puG2m4tmcx/lCmtCiNuYBUP+eTWOUvypKYLylUa05+I
RCk/pwSW8RqzFRHLD1OOG9PSgztQLBtloCZfnqCuQBsBWYA+G8RS764pAoGAexIE
TIBPs3/hZSbW4uwP9tWWH20E4JEN8L3NjTpwBNPUabtuErrJibW/Mb5q4U9SbNCi
XOVQjyQusc0tFAlHgvFwy2tdraMORmgR0WMsF8M9an7dDVs/uDCYO7FdmhHlaWRI
j7xrDH5k08KRFUXjiN8yWB7kTxxnwquFQg15W28CgYA41gVsnm+Nr+bV5fAKFi/T
N+AqzFu4ulwpdCRo3Es1OyRqWwKyZCRK+GnmCECEYP0cWIubAT9TqUBuvRnHewUt
IE1HUaLFB8aHcaSbcwzW7Nzn+dsStkceLEL/88HMjoj+a6bOAK56r0Rrsr9q2d2i
+PA2si3fXiuIW6FyuvPvkw==
-----END PRIVATE KEY-----`;


const der = (pem: string) => base64Decode(pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""))!;

const root = pkijs.Certificate.fromBER(der(ROOT_CERTIFICATE_PEM));
const issuing = pkijs.Certificate.fromBER(der(CA_CERTIFICATE_PEM));
let signingKey: Promise<CryptoKey> | undefined;

/** The issuing CA's certificate (the issuer of every sandbox joint certificate) and its key. */
export async function issuingAuthority(): Promise<{ certificate: pkijs.Certificate; privateKey: CryptoKey }> {
  signingKey ??= crypto.subtle.importKey("pkcs8", der(CA_PRIVATE_KEY_PEM), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
  return { certificate: issuing, privateKey: await signingKey };
}

/** Whether the sandbox CA signed this certificate, up to its root: the chain a relying party checks. */
export async function issuedBySandboxCa(certificate: pkijs.Certificate): Promise<boolean> {
  const verifies = (subject: pkijs.Certificate, issuer: pkijs.Certificate) => subject.verify(issuer).catch(() => false);
  return (await verifies(certificate, issuing)) && (await verifies(issuing, root));
}

// Revocation with nothing to share between the issuing process and the checking one: the CA marks
// the serial number of a certificate it issues revoked (its last 8 bytes are a digest of the first 8),
// and its status responder, isRevoked, recognises the mark. Other serials are random.
const REVOCATION_TAG = new TextEncoder().encode("SandboxSign Class 1 revoked:");

async function revocationMark(head: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(REVOCATION_TAG.byteLength + head.byteLength);
  input.set(REVOCATION_TAG);
  input.set(head, REVOCATION_TAG.byteLength);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", input)).slice(0, 8);
}

/** A fresh 16-byte serial number (positive), marked when the certificate is issued revoked. */
export async function newSerialNumber(revoked: boolean): Promise<Uint8Array> {
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0]! & 0x7f) | 0x10;
  if (revoked) serial.set(await revocationMark(serial.subarray(0, 8)), 8);
  return serial;
}

/** The CA's status responder: whether it revoked the certificate with this serial number. */
export async function isRevoked(serial: Uint8Array): Promise<boolean> {
  if (serial.byteLength !== 16) return false;
  const mark = await revocationMark(serial.subarray(0, 8));
  return mark.every((b, i) => b === serial[8 + i]);
}
