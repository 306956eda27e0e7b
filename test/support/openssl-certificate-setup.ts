import type { TestProject } from "vitest/node";
import { makeOpensslJointCertificate } from "./openssl-joint-certificate";

/** Worker tests cannot run openssl inside workerd: this global setup makes the certificate and hands it over. */
export default function setup(project: TestProject): void {
  project.provide("opensslJointCertificate", makeOpensslJointCertificate("1208800767"));
}
