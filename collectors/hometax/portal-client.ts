import { type InstitutionHttp, type InstitutionRequest, type InstitutionResponse, ProviderFailure } from "../adapter";
import { malformed } from "../kit/failure-text";
import type { Pacer } from "../kit/protocol/pacer";
import { hometaxFailure } from "./failures";
import { PORTAL, actionUrl } from "./hosts";
import { type IntegrityKeys, integritySuffix, keysFromScript } from "./integrity";
import type { HometaxOptions } from "./options";
import { type HometaxDeps, loginPacer, REAL_DEPS } from "./pacing";
import { isStopPage } from "./stop-page";
import { rateLimited, throttleOf } from "./throttle";

export type Json = Record<string, unknown>;

const KEY_SCRIPT = `${PORTAL}/js/comm/ui/common_te-min.js`;

/** Second of the minute in Korean time: the suffix carries it. */
const kstSecond = (now: number) => Math.floor(now / 1000) % 60;

/**
 * One login's conversation with the portal and its sub-sites: the cookie jar (in `http`), the user id the
 * integrity suffix is keyed by, the page script's keys, read once per login as a browser reads them, and the
 * login's pace, which every request of the login waits its turn for.
 */
export class PortalClient {
  userId = "";
  private keys: Promise<IntegrityKeys> | null = null;

  constructor(
    readonly http: InstitutionHttp,
    readonly options: HometaxOptions,
    readonly deps: HometaxDeps = REAL_DEPS,
    private readonly pacer: Pacer = loginPacer(options, deps),
  ) {}

  /** The same login asked another way (the live check's variants): the same cookies, user and pace, its own options. */
  withOptions(options: HometaxOptions): PortalClient {
    const client = new PortalClient(this.http, options, this.deps, this.pacer);
    client.userId = this.userId;
    return client;
  }

  /** Any answer: the portal's stop page, a throttle, or a refusal by HTTP status is a failure before its body is read. */
  request(url: string, init: InstitutionRequest = {}): Promise<InstitutionResponse> {
    return this.exchange(url, init, async () => init.body);
  }

  /**
   * One request, paced, and asked again (its body made anew, so the suffix carries the new second) after each
   * overload answer while `throttleRetries` last; a block is never asked again (throttle.ts).
   */
  private async exchange(url: string, init: InstitutionRequest, body: () => Promise<string | undefined>): Promise<InstitutionResponse> {
    for (let retry = 0; ; retry++) {
      await this.pacer.wait();
      const answer = await this.http.fetch(url, { ...init, body: await body() });
      if (isStopPage(answer)) throw new ProviderFailure("PROVIDER_TIME_WINDOW", `service stop at ${new URL(answer.url).pathname}`);
      const throttle = throttleOf(answer);
      if (throttle === "overload" && retry < this.options.throttleRetries) {
        await this.deps.sleep(this.options.throttleWaitSeconds * 1000);
        continue;
      }
      if (throttle) throw rateLimited(throttle, answer, this.options);
      // No source shows how Hometax refuses a foreign address; a refusal of the portal's front door is read as that.
      if (answer.status === 403) throw new ProviderFailure("OVERSEAS_IP_BLOCKED", `HTTP 403 from ${new URL(answer.url).pathname}`);
      if (answer.status >= 400) throw hometaxFailure(`HTTP ${answer.status} from ${new URL(answer.url).pathname}: ${answer.text.slice(0, 200)}`);
      return answer;
    }
  }

  private integrityKeys(): Promise<IntegrityKeys> {
    this.keys ??= this.request(KEY_SCRIPT).then((script) => keysFromScript(script.text) ?? Promise.reject(malformed("common_te-min.js no longer holds seven testVal keys")));
    return this.keys;
  }

  /** A JSON body as the portal's pages send it: minified, with the integrity suffix when the option is on. */
  async body(json: Json, withSuffix = this.options.integritySuffix): Promise<string> {
    const text = JSON.stringify(json);
    return withSuffix ? text + (await integritySuffix(await this.integrityKeys(), text, this.userId, kstSecond(this.deps.now()))) : text;
  }

  /** A JSON answer of the portal; anything else (an HTML error page, a truncated body) is malformed. */
  static json(answer: InstitutionResponse): Json {
    try {
      const value = JSON.parse(answer.text) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) return value as Json;
    } catch {
      // below
    }
    throw malformed(`${new URL(answer.url).pathname} answered without JSON`);
  }

  /** `resultMsg` says failure (`result` F, or an `errorMsg`/`errorCd`, S1 S3): the portal's message, mapped. */
  static checkResult(answer: Json): Json {
    const result = answer.resultMsg as Json | undefined;
    if (!result || typeof result !== "object") throw malformed("answer without resultMsg");
    const error = [result.errorCd, result.errorMsg].filter((v) => v !== undefined && v !== null && v !== "");
    if (result.result === "F" || error.length > 0) throw hometaxFailure([result.code, result.msg, ...error].filter(Boolean).join(" "));
    return answer;
  }

  /** `POST wqAction.do` on a site, JSON both ways (S1 S2 S3). */
  async action(site: string, actionId: string, screenId: string, json: Json, options: { popup?: boolean; suffix?: boolean } = {}): Promise<Json> {
    // The keys first, on their own turn: the action's body is made right after its turn, with the second it is sent in.
    if (options.suffix ?? this.options.integritySuffix) await this.integrityKeys();
    const answer = await this.exchange(actionUrl(site, actionId, screenId, options.popup), { method: "POST", headers: { "Content-Type": "application/json; charset=UTF-8", Accept: "application/json" } }, () =>
      this.body(json, options.suffix),
    );
    return PortalClient.checkResult(PortalClient.json(answer));
  }
}
