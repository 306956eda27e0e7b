import { afterAll } from "vitest";
import type { LoginCredential } from "../../collectors/adapter";
import { hometaxAdapter } from "../../collectors/hometax/index";
import { DEFAULT_OPTIONS, type HometaxOptions } from "../../collectors/hometax/options";
import { type HometaxDeps, REAL_DEPS } from "../../collectors/hometax/pacing";
import { institutionHttp } from "../../collectors/kit/protocol/institution-http";
import { issueJointCertificate } from "../../sandbox/certificates/issue";
import type { HometaxReplicaOptions } from "../../sandbox/hometax/site";
import { hometaxStandIns } from "../../sandbox/hometax/stand-ins";
import { type SandboxServer, startSandbox } from "../../sandbox/server";

/** Pacing and throttle pauses asked for, not waited (collectors/hometax/volume.test.ts checks them). */
export const NO_WAIT: HometaxDeps = { ...REAL_DEPS, sleep: async () => {} };

/** Starts replicas for one test file, each with its own switches, all closed when the file ends. */
export function replicaStarter(): (options?: HometaxReplicaOptions) => Promise<SandboxServer> {
  const started: SandboxServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });
  return async (options = {}) => {
    const sandbox = await startSandbox({ port: 0, hometax: options });
    started.push(sandbox);
    return sandbox;
  };
}

/** A sandbox certificate of the business, registered at the replica as its members' are. */
export async function certificateOf(idn: string, extra: Parameters<typeof issueJointCertificate>[0] = {}): Promise<LoginCredential> {
  const { certificate, privateKey, password } = await issueJointCertificate({ idn, ...extra });
  return { authMethod: "CERTIFICATE", certificate, privateKey, password };
}

/** The real adapter reaching a replica through its stand-ins; `transport` sees every request (to count or alter it). */
export function replicaConnection(sandbox: SandboxServer, options: Partial<HometaxOptions> = {}, deps: HometaxDeps = NO_WAIT, transport: typeof fetch = fetch) {
  const adapter = hometaxAdapter({ ...DEFAULT_OPTIONS, ...options }, deps);
  return { adapter, http: institutionHttp({ hosts: adapter.hosts, standIns: hometaxStandIns(sandbox.url), transport }) };
}
