import { inspectJob } from "../../domain/operators/actions";
import { operatorMay } from "../../domain/operators/permissions";
import { type AdminPageContext, actorOf, operatorCsrfOf, operatorOf } from "../context";
import { CsrfField } from "../../web/layout";
import { kst } from "../../web/kst";
import { providerName } from "../../web/provider-name";
import { AdminPage, ReasonField } from "./layout";
import { CredentialStanding, JobOutcome } from "./job-parts";

/** One job as support reads a customer's failure: its workspace and owner, its outcome in Korean, the credential it ran on. */
export async function showJob(c: AdminPageContext<"id">): Promise<Response> {
  const { job, workspace, ownerEmail, credential } = await inspectJob(c.env, actorOf(c), c.req.valid("param").id);
  return c.html(
    <AdminPage c={c} title="작업">
      <dl>
        <dt>id</dt>
        <dd>
          <code>{job.id}</code>
        </dd>
        <dt>워크스페이스</dt>
        <dd>
          <a href={`/admin/workspaces/${workspace.id}`}>{workspace.name}</a> · <span data-field="owner">{ownerEmail ?? "소유자 없음"}</span>
        </dd>
        <dt>기관 · 스키마</dt>
        <dd>
          {providerName(job.providerCode)} · {job.schema}
        </dd>
        <dt>만든 때 · 끝난 때</dt>
        <dd>
          {kst(job.createdAt)} · {job.finishedAt ? kst(job.finishedAt) : "아직"}
        </dd>
        <dt>결과</dt>
        <dd data-field="outcome">
          <JobOutcome job={job} />
        </dd>
        <dt>인증정보</dt>
        <dd data-field="credential">
          {credential ? (
            <>
              <code>{credential.id}</code> · {credential.label ?? credential.authMethod} · <CredentialStanding credential={credential} />
            </>
          ) : (
            "없음"
          )}
        </dd>
      </dl>
      {job.status === "FAILED" && operatorMay(operatorOf(c).role, "jobs.rerun") && (
        <form method="post" action={`/admin/jobs/${job.id}/rerun`}>
          <CsrfField token={operatorCsrfOf(c)} />
          <input type="hidden" name="workspaceId" value={workspace.id} />
          <ReasonField id="rerun-reason" />
          <button type="submit">다시 실행</button>
        </form>
      )}
    </AdminPage>,
  );
}
