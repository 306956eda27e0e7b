import { AUTH_METHOD_NAMES } from "../../domain/catalog/providers";
import type { Context } from "hono";
import type { PageEnv } from "../../platform/http/app-env";
import type { CredentialRow } from "../../domain/credentials/store";
import { consentCoverage } from "../../domain/credentials/consent-record";
import { findSchema } from "../../domain/catalog/schemas";
import { ApiError } from "../../platform/errors/api-error";
import { ConfirmBox } from "../confirm";
import { ErrorAlert, Page } from "../layout";
import { kst } from "../kst";
import { providerName } from "../provider-name";

const PRODUCT = "데이터 수집 서비스";

/** What is shared, with whom, since when and until when, as the holder reads it. */
function Shared(props: { credential: CredentialRow }) {
  const { credential } = props;
  const record = credential.consentRecord;
  const { providerCodes, schemas } = consentCoverage(credential.providerCode, credential.schemas);
  return (
    <dl id="shared">
      <dt>맡긴 것</dt>
      <dd>{`${AUTH_METHOD_NAMES[credential.authMethod]} · ${credential.label ?? ""}`}</dd>
      <dt>누구에게</dt>
      <dd id="shared-with">{record ? (record.partner?.name ? `${record.partner.name} (${record.workspaceName}을 위해)` : record.workspaceName) : "등록한 워크스페이스"}</dd>
      <dt>어느 기관에서</dt>
      <dd>{providerCodes.map(providerName).join(", ")}</dd>
      <dt>무엇을</dt>
      <dd id="shared-schemas">{schemas.map((id) => findSchema(id)?.title ?? id).join(", ")}</dd>
      {record && (
        <>
          <dt>목적</dt>
          <dd>{record.purpose}</dd>
          <dt>언제부터</dt>
          <dd id="shared-since">{kst(Date.parse(record.givenAt))}</dd>
          <dt>언제까지</dt>
          <dd id="shared-until">{kst(Date.parse(record.expiresAt))}</dd>
        </>
      )}
    </dl>
  );
}

/** What a withdrawal deletes and what it keeps (domain/consent-withdrawal/withdraw.ts), said before the holder confirms. */
function WhatGoes() {
  return (
    <p id="withdrawal-deletes">
      철회하면 바로 지워지는 것: 맡긴 로그인 정보(비밀번호, 인증서, 오픈뱅킹 토큰)와 인증서의 명의 정보, 그리고 이 자격 증명으로 모은 자료(수집 결과) 전부. 요청한 곳도 더는 열람할 수 없고, 저장소에서도 몇 분 안에 지워집니다. 남는 것: 언제 동의하고 철회했는지와, 작업마다 언제 몇 건을 모았는지의 기록(자료의 내용은 남지 않습니다).
    </p>
  );
}

/** The holder's page: what the credential shares and the one confirmed step that withdraws it, or how it ended. */
export function managePage(
  c: Context<PageEnv>,
  shown: { credential?: CredentialRow; withdrawn?: { credential: CredentialRow; resultsDeleted: number }; error?: ApiError },
): Response | Promise<Response> {
  const status = (shown.error?.status ?? 200) as 200;
  return c.html(
    <Page title="맡긴 자격 증명 관리" product={PRODUCT}>
      <ErrorAlert error={shown.error} />
      {shown.withdrawn && (
        <p class="notice" role="status" id="withdrawn">
          {`${kst(shown.withdrawn.credential.deletedAt!)}에 동의를 철회했습니다. 맡긴 비밀번호와 인증서는 지워졌고, ${
            shown.withdrawn.resultsDeleted > 0 ? `이 자격 증명으로 모은 자료(작업 ${shown.withdrawn.resultsDeleted}개의 수집 결과)도 지웠습니다` : "이 자격 증명으로 모아 남아 있던 자료는 없었습니다"
          }. 요청한 곳에도 알렸습니다.`}
        </p>
      )}
      {shown.credential && (
        <>
          <Shared credential={shown.credential} />
          <WhatGoes />
          <form method="post" action={new URL(c.req.url).pathname}>
            <ConfirmBox>동의를 철회하고 맡긴 정보와 모은 자료를 지웁니다. 이후에는 이 정보로 자료를 모을 수 없습니다.</ConfirmBox>
            <button type="submit" class="danger">
              동의 철회
            </button>
          </form>
        </>
      )}
    </Page>,
    status,
  );
}
