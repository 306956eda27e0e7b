import { ProviderFailure } from "../adapter";

/** What `pubcLogin.do` answers, read from its `nts_loginSystemCallback('TXPP', { … });` script. */
export interface LoginAnswer {
  code: string | null;
  errCode: string | null;
  /** Decoded as the portal's own page decodes it: URL-decoding, `+` as space, `\n` as a new line. */
  errMsg: string;
  lgnRsltCd: string | null;
  pswdErrNbcnt: string | null;
  tin: string | null;
  sq2LgnCertYn: string | null;
}

const CALLBACK = "nts_loginSystemCallback(";
/** `'key' : 'value'`, `'key' : null`, or `'key' : decodeURIComponent('value')…`: the only shapes the sources show. */
const PAIR = /'(\w+)'\s*:\s*(?:decodeURIComponent\('([^']*)'\)(?:\.replace\([^)]*\))*|'([^']*)'|(null))/g;

function decodeMessage(encoded: string): string {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, " ")).replace(/\\n/g, "\n");
  } catch {
    return encoded;
  }
}

/**
 * Parses the login answer; an answer that is not this script (a block page, an HTML error) is
 * PROVIDER_RESPONSE_MALFORMED, never read as a login.
 */
export function readLoginAnswer(text: string): LoginAnswer {
  if (!text.includes(CALLBACK) || text.length > 65_536) throw new ProviderFailure("PROVIDER_RESPONSE_MALFORMED", "pubcLogin.do answered without nts_loginSystemCallback");
  const values = new Map<string, string | null>();
  for (const match of text.matchAll(PAIR)) {
    const [, key, encoded, plain] = match;
    if (values.has(key!)) throw new ProviderFailure("PROVIDER_RESPONSE_MALFORMED", `pubcLogin.do answered ${key} twice`);
    values.set(key!, encoded !== undefined ? decodeMessage(encoded) : (plain ?? null));
  }
  const get = (key: string) => values.get(key) ?? null;
  return { code: get("code"), errCode: get("errCode"), errMsg: get("errMsg") ?? "", lgnRsltCd: get("lgnRsltCd"), pswdErrNbcnt: get("pswdErrNbcnt"), tin: get("tin"), sq2LgnCertYn: get("sq2LgnCertYn") };
}
