import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { OPENBANKING_HOSTS } from "../../collectors/openbanking/hosts";
import { redirect, sendHtml, sendJson } from "../http-kit";
import { envelope, escape, MESSAGES, page, readForm } from "./answers";
import { accountByFintech, balanceOf, ledgerOf, type LedgerRow, REPLICA_CLIENTS, type ReplicaAccount, type ReplicaUser, userByLogin, userBySeqNo } from "./ground-truth";
import { kstStamp } from "../../contracts/korean-time";

export interface OpenBankingReplicaOptions {
  /** The replica's clock (tokens expire by it; `bank_tran_id`s are unique per its Korean day). */
  now?: () => number;
  /** Access token lifetime: 90 days as KFTC issues them (O4, O5, O12, O13); the refresh token lives 10 days longer (O12). */
  accessTtlSeconds?: number;
  /** Longest `transaction_list` period it answers, in days; unset, any (no source states KFTC's). */
  maxPeriodDays?: number;
  /** How an ordinary account answers a period without rows: `A0000` with an empty list, or `A0018` (unknown for KFTC). */
  emptyPeriod?: "A0000" | "A0018";
  /**
   * The Callback URLs registered for the replica's 이용기관 (KFTC's API Key 관리 registers them per app, O15, O16): the
   * authorization page takes no other redirect_uri (`O0001` [3000114]), as KFTC refuses one it does not know. Unset,
   * none is registered and every authorization is refused.
   */
  callbackUrls?: readonly string[];
  /**
   * Whether a refresh before the access token's end is taken (`accept`, unset) or refused (`refuse`): unknown for KFTC
   * (§8; O4 refreshes only after the end). Per token, the `refuse-early-refresh` switch does the same.
   */
  earlyRefresh?: "accept" | "refuse";
}

type Json = Record<string, unknown>;

const PAGE_ROWS = 25;
const CODE_TTL_MS = 10 * 60_000;
const REFRESH_EXTRA_MS = 10 * 86_400_000;
const SCOPES = new Set(["login", "inquiry", "transfer"]);

type ReplicaClient = (typeof REPLICA_CLIENTS)[number];

interface Token {
  user: ReplicaUser;
  client: ReplicaClient;
  scope: string[];
  expiresAt: number;
  /** A refresh token's access token, issued with it. */
  access?: string;
  /** A refresh token KFTC refuses while its access token has not ended (`refuse-early-refresh`). */
  refusesEarly?: boolean;
}

/**
 * A test's switch on one token (`POST /sandbox/openbanking/tokens`, sandbox/server.ts), so tests sharing one replica
 * do not meet each other's: `end-access` ends an access token now (KFTC answers `O0003` from then on, its refresh token
 * keeps its end), as a token ends whose refresh nobody made in time; `refuse-early-refresh` makes KFTC refuse a refresh
 * with this refresh token while its access token has not ended (whether KFTC does is unknown, §8).
 */
export type TokenSwitch = "end-access" | "refuse-early-refresh";

interface AuthorizeSession {
  redirectUri: string;
  scope: string[];
  state: string;
  clientInfo: string | null;
  client: ReplicaClient;
  user?: ReplicaUser;
}

interface Trace {
  query: string;
  offset: number;
}

/**
 * A replica of KFTC's Open Banking testbed (docs/institutions/openbanking.md §9), mounted under
 * /openbanking/<real host>/ for both hosts: the OAuth pages and token endpoint, `user/me`, `account/list`,
 * `balance/fin_num` and `transaction_list/fin_num`, with KFTC's envelopes and codes.
 */
export function openBankingReplica(options: OpenBankingReplicaOptions = {}) {
  const now = options.now ?? Date.now;
  const accessTtlMs = (options.accessTtlSeconds ?? 7_776_000) * 1000;
  const callbackUrls = options.callbackUrls ?? [];
  const authorizeSessions = new Map<string, AuthorizeSession>();
  const codes = new Map<string, { user: ReplicaUser; scope: string[]; redirectUri: string; at: number; client: ReplicaClient }>();
  const accessTokens = new Map<string, Token>();
  const refreshTokens = new Map<string, Token>();
  /** Per user: the accounts consented to (fintech_use_num → YYYYMMDDhhmmss). */
  const consents = new Map<string, Map<string, string>>();
  const usedTranIds = new Map<string, Set<string>>();
  const traces = new Map<string, Trace>();

  const newToken = () => randomBytes(30).toString("base64url");

  function issue(user: ReplicaUser, scope: string[], client: ReplicaClient): Json {
    const access = newToken();
    const refresh = newToken();
    const at = now();
    accessTokens.set(access, { user, scope, client, expiresAt: at + accessTtlMs });
    refreshTokens.set(refresh, { user, scope, client, expiresAt: at + accessTtlMs + REFRESH_EXTRA_MS, access });
    return { access_token: access, token_type: "Bearer", expires_in: Math.floor(accessTtlMs / 1000), refresh_token: refresh, scope: scope.join(" "), user_seq_no: user.userSeqNo };
  }

  const paramError = (res: ServerResponse, detail: string) => sendJson(res, 200, { rsp_code: "O0001", rsp_message: `인증 파라미터 오류([${detail}])` });

  function loginForm(res: ServerResponse, id: string, error = ""): void {
    sendHtml(res, 200, page("사용자 인증", `<h1>오픈뱅킹 사용자 인증</h1>${error ? `<p class="error">${error}</p>` : ""}
<form method="post" action="authorize_login"><input type="hidden" name="session" value="${id}">
<label>아이디 <input name="user_id" autocomplete="off"></label><label>비밀번호 <input name="password" type="password"></label>
<button name="action" value="login">인증</button> <button name="action" value="cancel">취소</button></form>`));
  }

  function consentForm(res: ServerResponse, id: string, session: AuthorizeSession, error = ""): void {
    const user = session.user!;
    const rows = user.accounts.map((a) => `<label><input type="checkbox" name="fintech_use_num" value="${a.fintechUseNum}"> ${escape(a.bankName)} ${a.accountNumMasked} (${escape(a.accountAlias)})</label>`).join("");
    sendHtml(res, 200, page("정보제공 동의", `<h1>${escape(user.userName)}님, 조회할 계좌를 선택해 주세요</h1>${error ? `<p class="error">${error}</p>` : ""}
<p>이용기관에 제공할 정보: ${session.scope.map(escape).join(", ")}</p>
<form method="post" action="authorize_consent"><input type="hidden" name="session" value="${id}">${rows}
<button name="action" value="agree">동의</button> <button name="action" value="cancel">취소</button></form>`));
  }

  function back(res: ServerResponse, session: AuthorizeSession, query: Record<string, string>): void {
    const target = new URL(session.redirectUri);
    for (const [k, v] of Object.entries({ ...query, state: session.state })) target.searchParams.set(k, v);
    if (session.clientInfo !== null && query.code) target.searchParams.set("client_info", session.clientInfo);
    redirect(res, target.toString());
  }

  async function oauth(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    if (path === "/oauth/2.0/authorize") {
      const q = url.searchParams;
      if (q.get("response_type") !== "code") return paramError(res, "3000116");
      const client = REPLICA_CLIENTS.find((c) => c.clientId === q.get("client_id"));
      if (!client) return paramError(res, "3000201");
      const redirectUri = q.get("redirect_uri") ?? "";
      if (!callbackUrls.includes(redirectUri)) return paramError(res, "3000114");
      const scope = (q.get("scope") ?? "").split(/\s+/).filter(Boolean);
      if (!scope.length || scope.some((s) => !SCOPES.has(s))) return paramError(res, "3000115");
      if (!q.get("state")) return paramError(res, "3000103");
      const id = randomBytes(18).toString("base64url");
      authorizeSessions.set(id, { redirectUri, scope, state: q.get("state")!, clientInfo: q.get("client_info"), client });
      return loginForm(res, id);
    }
    if (path === "/oauth/2.0/authorize_login" || path === "/oauth/2.0/authorize_consent") {
      if (req.method !== "POST") return sendJson(res, 200, envelope("O0010", now()));
      const form = await readForm(req);
      const id = form.get("session") ?? "";
      const session = authorizeSessions.get(id);
      if (!session) return sendHtml(res, 400, page("오류", `<p class="error">인증 세션이 만료되었습니다.</p>`));
      if (form.get("action") === "cancel") {
        authorizeSessions.delete(id);
        return back(res, session, { error: "access_denied", error_description: "사용자가 인증을 취소했습니다." });
      }
      if (path === "/oauth/2.0/authorize_login") {
        const user = userByLogin(form.get("user_id") ?? "");
        if (!user || user.password !== form.get("password")) return loginForm(res, id, "아이디 또는 비밀번호가 일치하지 않습니다.");
        session.user = user;
        return consentForm(res, id, session);
      }
      if (!session.user) return loginForm(res, id);
      const chosen = form.getAll("fintech_use_num").filter((f) => session.user!.accounts.some((a) => a.fintechUseNum === f));
      if (!chosen.length) return consentForm(res, id, session, "계좌를 하나 이상 선택해 주세요.");
      const agreed = consents.get(session.user.userSeqNo) ?? new Map<string, string>();
      for (const f of chosen) agreed.set(f, kstStamp(now()));
      consents.set(session.user.userSeqNo, agreed);
      authorizeSessions.delete(id);
      const code = randomBytes(24).toString("base64url");
      codes.set(code, { user: session.user, scope: session.scope, redirectUri: session.redirectUri, at: now(), client: session.client });
      return back(res, session, { code, scope: session.scope.join(" ") });
    }
    if (path === "/oauth/2.0/token") {
      if (req.method !== "POST") return sendJson(res, 200, envelope("O0010", now()));
      const form = await readForm(req);
      const client = REPLICA_CLIENTS.find((c) => c.clientId === form.get("client_id"));
      if (!client || form.get("client_secret") !== client.clientSecret) return paramError(res, "3000201");
      const grant = form.get("grant_type");
      if (grant === "authorization_code") {
        const code = form.get("code") ?? "";
        const issued = codes.get(code);
        codes.delete(code);
        // A code is its 이용기관's: another's keys cannot exchange it.
        if (!issued || now() - issued.at > CODE_TTL_MS || issued.client !== client) return paramError(res, "3002110");
        if (form.get("redirect_uri") !== issued.redirectUri) return paramError(res, "3000114");
        return sendJson(res, 200, issue(issued.user, issued.scope, client));
      }
      if (grant === "refresh_token") {
        const refresh = form.get("refresh_token") ?? "";
        const held = refreshTokens.get(refresh);
        if (!held || held.expiresAt <= now() || held.client !== client) return sendJson(res, 200, envelope("O0002", now()));
        const access = held.access === undefined ? undefined : accessTokens.get(held.access);
        if ((held.refusesEarly || options.earlyRefresh === "refuse") && access && access.expiresAt > now()) return sendJson(res, 200, envelope("O0002", now()));
        refreshTokens.delete(refresh);
        return sendJson(res, 200, issue(held.user, held.scope, client));
      }
      if (grant === "client_credentials" && form.get("scope") === "oob") {
        return sendJson(res, 200, { access_token: newToken(), token_type: "Bearer", expires_in: Math.floor(accessTtlMs / 1000), scope: "oob", client_use_code: client.clientUseCode });
      }
      return paramError(res, "3000103");
    }
    return sendJson(res, 404, envelope("O0005", now()));
  }

  /** A user's consented account as user/me and account/list list it (O4, O5, O10, O20). */
  function listed(a: ReplicaAccount, user: ReplicaUser, agreedAt: string, scope: string[]): Json {
    const transfer = scope.includes("transfer");
    return {
      fintech_use_num: a.fintechUseNum,
      account_alias: a.accountAlias,
      bank_code_std: a.bankCodeStd,
      bank_code_sub: `${a.bankCodeStd}0001`,
      bank_name: a.bankName,
      savings_bank_name: "",
      account_num_masked: a.accountNumMasked,
      account_seq: "",
      account_holder_name: user.userName,
      account_holder_type: "P",
      account_type: a.accountType,
      inquiry_agree_yn: "Y",
      inquiry_agree_dtime: agreedAt,
      transfer_agree_yn: transfer ? "Y" : "N",
      transfer_agree_dtime: transfer ? agreedAt : "",
    };
  }

  function bankFields(a: ReplicaAccount, tranId: string, at: number, code = "000", message = ""): Json {
    return { bank_tran_id: tranId, bank_tran_date: kstStamp(at).slice(0, 8), bank_code_tran: a.bankCodeStd, bank_rsp_code: code, bank_rsp_message: message };
  }

  /** The failure an account's behaviour gives on a bank-routed call, or null. */
  function behaviourAnswer(a: ReplicaAccount, tranId: string, at: number, call: "balance" | "transactions"): Json | null {
    switch (a.behaviour) {
      case "closed":
        return { ...envelope("A0002", at), ...bankFields(a, tranId, at, "415", "해약계좌") };
      case "maintenance":
        return { ...envelope("A0020", at), ...bankFields(a, tranId, at, "", "") };
      case "quota":
        return envelope("O0009", at);
      case "consent-expired":
        return envelope("A0334", at);
      case "bank-unknown":
        return { ...envelope("A0002", at, "API업무처리시스템 - 시뮬레이터 응답전문 존재하지 않음"), ...bankFields(a, tranId, at, "818", "시뮬레이터 응답전문 조회 실패"), bank_code_tran: "098" };
      case "no-transactions":
        return call === "transactions" ? { ...envelope("A0018", at), ...bankFields(a, tranId, at) } : null;
      default:
        return null;
    }
  }

  function api(req: IncomingMessage, res: ServerResponse, path: string, url: URL): void {
    const at = now();
    if (req.method !== "GET") return sendJson(res, 200, envelope("O0010", at));
    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ")) return sendJson(res, 200, { ...envelope("O0001", at), rsp_message: "인증 파라미터 오류([992])" });
    const token = accessTokens.get(auth.slice(7).trim());
    if (!token) return sendJson(res, 200, envelope("O0002", at));
    if (token.expiresAt <= at) return sendJson(res, 200, envelope("O0003", at));
    const q = url.searchParams;
    const user = token.user;
    const agreed = consents.get(user.userSeqNo) ?? new Map<string, string>();
    const consented = user.accounts.filter((a) => agreed.has(a.fintechUseNum));
    if (path === "/v2.0/user/me" || path === "/v2.0/account/list") {
      if (!token.scope.includes("login")) return sendJson(res, 200, envelope("O0011", at));
      if (userBySeqNo(q.get("user_seq_no") ?? "") !== user) return sendJson(res, 200, envelope("A0004", at, "user_seq_no"));
      const list = consented.map((a) => (path === "/v2.0/account/list" ? { ...listed(a, user, agreed.get(a.fintechUseNum)!, token.scope), account_state: "01" } : { ...listed(a, user, agreed.get(a.fintechUseNum)!, token.scope), payer_num: a.fintechUseNum.slice(4) }));
      if (q.get("sort_order") === "D") list.reverse();
      const base = { ...envelope("A0000", at), user_name: user.userName, res_cnt: String(list.length), res_list: list };
      if (path === "/v2.0/account/list") return sendJson(res, 200, base);
      return sendJson(res, 200, {
        ...base,
        user_seq_no: user.userSeqNo,
        user_ci: user.userCi,
        inquiry_card_cnt: "0",
        inquiry_card_list: [],
        inquiry_pay_cnt: "0",
        inquiry_pay_list: [],
        inquiry_insurance_cnt: "0",
        inquiry_insurance_list: [],
        inquiry_loan_cnt: "0",
        inquiry_loan_list: [],
      });
    }
    if (path !== "/v2.0/account/balance/fin_num" && path !== "/v2.0/account/transaction_list/fin_num") return sendJson(res, 404, envelope("O0005", at));
    if (!token.scope.includes("inquiry")) return sendJson(res, 200, envelope("O0011", at));
    const tranId = q.get("bank_tran_id") ?? "";
    if (!/^[A-Z0-9]{10}U[A-Z0-9]{9}$/.test(tranId) || tranId.slice(0, 10) !== token.client.clientUseCode) {
      return sendJson(res, 200, envelope("A0004", at, `은행거래고유번호의 앞 10자리는 이용기관코드(${token.client.clientUseCode})와 같아야 합니다`));
    }
    const day = kstStamp(at).slice(0, 8);
    const used = usedTranIds.get(day) ?? new Set<string>();
    usedTranIds.set(day, used);
    if (used.has(tranId)) return sendJson(res, 200, envelope("A0326", at));
    used.add(tranId);
    if (!/^\d{14}$/.test(q.get("tran_dtime") ?? "")) return sendJson(res, 200, envelope("A0004", at, "tran_dtime"));
    const fintech = q.get("fintech_use_num") ?? "";
    const account = consented.find((a) => a.fintechUseNum === fintech);
    if (!account || !accountByFintech(fintech)) return sendJson(res, 200, envelope("A0304", at));
    const failed = behaviourAnswer(account, tranId, at, path.includes("balance") ? "balance" : "transactions");
    if (failed) return sendJson(res, 200, failed);
    const { balance, available } = balanceOf(fintech);
    const common = { ...envelope("A0000", at), ...bankFields(account, tranId, at), bank_name: account.bankName, savings_bank_name: "", fintech_use_num: fintech, balance_amt: String(balance) };
    if (path === "/v2.0/account/balance/fin_num") {
      return sendJson(res, 200, {
        ...common,
        available_amt: String(available),
        account_type: account.accountType,
        product_name: account.productName,
        account_issue_date: account.accountIssueDate,
        maturity_date: account.accountType === "2" ? "20270115" : "",
        last_tran_date: ledgerOf(fintech).at(-1)?.tran_date ?? "",
      });
    }
    return transactions(res, q, account, common, at);
  }

  function transactions(res: ServerResponse, q: URLSearchParams, account: ReplicaAccount, common: Json, at: number): void {
    const type = q.get("inquiry_type") ?? "";
    const base = q.get("inquiry_base") ?? "";
    const sort = q.get("sort_order") ?? "";
    const from = q.get("from_date") ?? "";
    const to = q.get("to_date") ?? "";
    if (!["A", "I", "O"].includes(type) || !["D", "T"].includes(base) || !["A", "D"].includes(sort)) return sendJson(res, 200, envelope("A0004", at, "inquiry_type/inquiry_base/sort_order"));
    if (!/^\d{8}$/.test(from) || !/^\d{8}$/.test(to) || from > to) return sendJson(res, 200, envelope("A0004", at, "from_date/to_date"));
    const days = (Date.parse(`${to.slice(0, 4)}-${to.slice(4, 6)}-${to.slice(6)}T00:00:00Z`) - Date.parse(`${from.slice(0, 4)}-${from.slice(4, 6)}-${from.slice(6)}T00:00:00Z`)) / 86_400_000 + 1;
    if (options.maxPeriodDays !== undefined && days > options.maxPeriodDays) return sendJson(res, 200, envelope("A0004", at, "조회기간 초과"));
    const fromAt = `${from}${base === "T" ? (q.get("from_time") ?? "000000") : "000000"}`;
    const toAt = `${to}${base === "T" ? (q.get("to_time") ?? "235959") : "235959"}`;
    let rows: LedgerRow[] = ledgerOf(account.fintechUseNum).filter((r) => `${r.tran_date}${r.tran_time}` >= fromAt && `${r.tran_date}${r.tran_time}` <= toAt);
    if (type !== "A") rows = rows.filter((r) => r.inout_type === (type === "I" ? "입금" : "출금"));
    if (sort === "D") rows = [...rows].reverse();
    const query = [account.fintechUseNum, type, base, sort, fromAt, toAt].join("|");
    const given = q.get("befor_inquiry_trace_info");
    let offset = 0;
    if (given) {
      const trace = traces.get(given);
      if (!trace || trace.query !== query) return sendJson(res, 200, envelope("A0004", at, "befor_inquiry_trace_info"));
      // A misbehaving bank: every page is the first one again, under the same trace value.
      offset = account.behaviour === "repeat-page" ? 0 : trace.offset;
    }
    if (rows.length === 0 && (options.emptyPeriod ?? "A0000") === "A0018") return sendJson(res, 200, { ...envelope("A0018", at), ...common, rsp_code: "A0018", rsp_message: MESSAGES.A0018 });
    const pageRows = rows.slice(offset, offset + PAGE_ROWS);
    const more = offset + PAGE_ROWS < rows.length;
    let nextTrace = "";
    if (more) {
      nextTrace = account.behaviour === "repeat-page" && given ? given : `1T${randomBytes(9).toString("hex").toUpperCase()}`;
      traces.set(nextTrace, { query, offset: offset + PAGE_ROWS });
    }
    sendJson(res, 200, {
      ...common,
      page_record_cnt: String(pageRows.length),
      next_page_yn: more ? "Y" : "N",
      befor_inquiry_trace_info: nextTrace,
      res_list: pageRows.map((r) => ({ ...r, tran_amt: String(r.tran_amt), after_balance_amt: String(r.after_balance_amt) })),
    });
  }

  /** Throws a TokenSwitch on `token`; false when the replica knows no such token. */
  function switchToken(token: string, which: TokenSwitch): boolean {
    if (which === "end-access") {
      const access = accessTokens.get(token);
      if (access) access.expiresAt = Math.min(access.expiresAt, now());
      return access !== undefined;
    }
    const refresh = refreshTokens.get(token);
    if (refresh) refresh.refusesEarly = true;
    return refresh !== undefined;
  }

  const answer = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const [, , host = "", ...rest] = url.pathname.split("/");
    if (!OPENBANKING_HOSTS.includes(host)) return sendJson(res, 404, { message: "no such host" });
    const path = `/${rest.join("/")}`;
    if (path.startsWith("/oauth/")) return oauth(req, res, path, url);
    return api(req, res, path, url);
  };
  return Object.assign(answer, { switchToken });
}
