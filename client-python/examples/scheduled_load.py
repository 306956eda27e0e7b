"""A scheduled load, as examples/scheduled-load does in TypeScript: run one collection job and upsert its records into
a SQLite file, keyed by each schema's natural key, so running it again (by cron, after a crash, for an overlapping
period) adds what is new and never a duplicate. Amounts are stored as their exact decimal text.

    COLLECT_BASE_URL=http://localhost:8787 COLLECT_API_KEY=sk_... python3 examples/scheduled_load.py \\
      --db ledger.sqlite --provider sandbox.bank --schema bank.transactions.cb.v1 --from 2026-01-01 --to 2026-03-31

Cron, every day at 06:00 KST:  0 6 * * *  cd /srv/loader && python3 examples/scheduled_load.py --db ... --from ...
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from collect_edge import RECORD_TYPES, CollectClient, CreateDataJobRequest, FailedDataJob, JobRecord  # noqa: E402

# What identifies a record across loads: the institution's own identifiers (JSON field names); None where the schema
# has none it can rely on, and then the digest of the whole record stands in.
NATURAL_KEYS: dict[str, list[str]] = {
    "bank.accounts.cb.v1": ["accountNumber"],
    "bank.transactions.cb.v1": ["accountNumber", "identifier"],
    "card.cards.corp.v1": ["cardNumberMasked"],
    "card.approvals.corp.v1": ["cardNumberMasked", "transactionIdentifier"],
    "taxportal.tax-invoices.sales.v1": ["ntsTransactionId"],
    "taxportal.tax-invoices.purchase.v1": ["ntsTransactionId"],
    "taxportal.cash-receipts.sales.v1": ["approvalNumber", "transactionAt"],
    "taxportal.cash-receipts.purchase.v1": ["approvalNumber", "transactionAt"],
    "taxportal.tax-invoice-lines.v1": ["approvalNumber", "lineNumber"],
    "taxportal.business-card-purchases.v1": ["transactionIdentifier"],
    "business.status.v1": ["businessNumber"],
}

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS records (
  schema TEXT NOT NULL,
  natural_key TEXT NOT NULL,
  record TEXT NOT NULL,
  job_id TEXT NOT NULL,
  loaded_at TEXT NOT NULL,
  PRIMARY KEY (schema, natural_key)
);
"""


def as_json(record: JobRecord) -> dict[str, Any]:
    """The record under its JSON field names, amounts as exact decimal text."""
    text: Callable[[Any], Any] = lambda v: str(v) if isinstance(v, Decimal) else v  # noqa: E731
    return {json_name: text(getattr(record, attr)) for attr, json_name in type(record).JSON_FIELDS.items() if getattr(record, attr) is not None}


def natural_key(record: JobRecord) -> str:
    fields = as_json(record)
    parts = [fields.get(name) for name in NATURAL_KEYS[record.schema]]
    if any(p is None for p in parts):
        return "sha256:" + hashlib.sha256(json.dumps(fields, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return "|".join(str(p) for p in parts)


def load(client: CollectClient, db_path: str, request: CreateDataJobRequest) -> dict[str, Any]:
    """Runs the job (a new one after a retryable failure only) and upserts its records; raises when it failed."""
    job = client.run_job(request)
    if isinstance(job, FailedDataJob):
        raise RuntimeError(f"job {job.id} failed: {job.error.code} {job.error.message}")
    record_type = RECORD_TYPES[request.schema]
    records: list[JobRecord] = [record_type.from_json(r) for r in client.results(job.id)["data"]]
    loaded_at = datetime.now(timezone.utc).isoformat()
    with sqlite3.connect(db_path) as db:
        db.executescript(SCHEMA_SQL)
        db.executemany(
            "INSERT INTO records (schema, natural_key, record, job_id, loaded_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (schema, natural_key) DO UPDATE SET record = excluded.record, job_id = excluded.job_id, loaded_at = excluded.loaded_at",
            [(r.schema, natural_key(r), json.dumps(as_json(r), ensure_ascii=False), job.id, loaded_at) for r in records],
        )
        stored = db.execute("SELECT count(*) FROM records WHERE schema = ?", (request.schema,)).fetchone()[0]
    return {"jobId": job.id, "schema": request.schema, "recordCount": len(records), "storedCount": stored}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", required=True)
    parser.add_argument("--provider", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--from", dest="start")
    parser.add_argument("--to", dest="end")
    args = parser.parse_args()
    params = {"dateRangeStart": args.start, "dateRangeEnd": args.end} if args.start else {}
    client = CollectClient(os.environ["COLLECT_BASE_URL"], os.environ["COLLECT_API_KEY"])
    print(json.dumps(load(client, args.db, CreateDataJobRequest(provider_code=args.provider, schema=args.schema, params=params))))


if __name__ == "__main__":
    main()
