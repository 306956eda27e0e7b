import type { components } from "./api";

type Schemas = components["schemas"];

export type DataJob = Schemas["DataJob"];
export type InProgressDataJob = Schemas["InProgressDataJob"];
export type SucceededDataJob = Schemas["SucceededDataJob"];
export type FailedDataJob = Schemas["FailedDataJob"];
export type TerminalDataJob = SucceededDataJob | FailedDataJob;
export type DataJobListItem = Schemas["DataJobListItem"];
export type CreateDataJobRequest = Schemas["CreateDataJobRequest"];
export type DataJobResults = Schemas["DataJobResults"];
export type Provider = Schemas["Provider"];
export type SchemaDetail = Schemas["SchemaDetail"];
export type Schedule = Schemas["Schedule"];
export type CreateScheduleRequest = Schemas["CreateScheduleRequest"];

/** Any record of any schema; each carries its schema identifier in `schema`. */
export type AnyRecord = DataJobResults["data"][number];
/** The schema identifiers (`bank.transactions.cb.v1`, ...). */
export type SchemaId = AnyRecord["schema"];
/** The record type of one schema, e.g. `RecordOf<"bank.transactions.cb.v1">`. */
export type RecordOf<S extends SchemaId> = Extract<AnyRecord, { schema: S }>;
/** A job's records typed by its schema. */
export interface Records<S extends SchemaId> {
  jobId: string;
  schema: S;
  /** Records collected so far (all of them once the job has succeeded). */
  totalCount: number;
  data: RecordOf<S>[];
}

/** An InProgress job's `awaitingHolder`: its login waits for the holder's approval in their 간편인증 app (`provider`) until `until`. */
export type HolderApproval = Schemas["HolderApproval"];

export const isTerminal = (job: DataJob): job is TerminalDataJob => job.kind !== "InProgress";
