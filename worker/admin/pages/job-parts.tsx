import type { CredentialRow } from "../../domain/credentials/store";
import { refusalOf } from "../../domain/credentials/views";
import type { JobRow } from "../../domain/jobs/store";

/** A job's status, and for a failure the catalog's Korean message beside its code: what support reads out to a customer. */
export const JobOutcome = (props: { job: JobRow }) =>
  props.job.error ? (
    <span data-failure-code={props.job.error.code}>
      {props.job.status} · {props.job.error.message} (<code>{props.job.error.code}</code>)
    </span>
  ) : (
    <>{props.job.status}</>
  );

/**
 * A credential's status, where a live one the institution refuses (a job's failure or its last login check) reads as
 * refused with the reason, not ACTIVE: jobs on it fail until it is registered again.
 */
export function CredentialStanding(props: { credential: CredentialRow }) {
  const refusal = props.credential.status === "ACTIVE" ? refusalOf(props.credential) : null;
  return refusal ? (
    <span data-status="REFUSED" data-failure-code={refusal.code}>
      거절됨: {refusal.message} (<code>{refusal.code}</code>)
    </span>
  ) : (
    <span data-status={props.credential.status}>{props.credential.status}</span>
  );
}
