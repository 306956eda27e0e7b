/** The documents' server is the deployment that served them: a local stack, or a deployed one (sandbox or production). */
export function serverDescription(url: URL): string {
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return local ? "이 문서를 돌려준 서버: local (로컬 스택)" : "이 문서를 돌려준 서버: 배포된 환경 (sandbox 또는 production)";
}
