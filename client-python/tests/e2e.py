"""What a partner's Python job does, run by test/e2e/partner-clients.test.ts against the real local stack.

``e2e.py run <out dir> <from> <to>`` (COLLECT_BASE_URL, COLLECT_API_KEY, COLLECT_REFUSED_API_KEY) writes what it saw
as JSON; ``e2e.py verify <delivery.json>`` checks a real delivery's two signatures and prints its event.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import sys
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from collect_edge import (  # noqa: E402
    BankTransactionRecord,
    CollectApiError,
    CollectClient,
    CreateDataJobRequest,
    FailedDataJob,
    InProgressDataJob,
    SucceededDataJob,
    WebhookSignatureError,
    verify_standard_webhook,
    verify_webhook,
)
from scheduled_load import as_json, load  # noqa: E402


def verify(path: str) -> None:
    delivery = json.loads(Path(path).read_text())
    ours = verify_webhook(delivery["body"], delivery["headers"]["x-svc-signature"], delivery["secret"])
    standard = verify_standard_webhook(delivery["body"], delivery["headers"], delivery["secret"])
    other = "whsec_" + base64.b64encode(b"another endpoint's secret").decode()
    try:
        verify_webhook(delivery["body"], delivery["headers"]["x-svc-signature"], other)
        refused = "accepted"
    except WebhookSignatureError as e:
        refused = e.code
    print(json.dumps({"event": json.loads(delivery["body"]), "sameEvent": ours == standard, "otherSecret": refused}))


def run(out_dir: Path, start: str, end: str) -> None:
    base_url = os.environ["COLLECT_BASE_URL"]
    client = CollectClient(base_url, os.environ["COLLECT_API_KEY"])
    out: dict[str, Any] = {}
    progress: list[int] = []

    def on_progress(job: InProgressDataJob) -> None:
        progress.append(job.completed_task_count)

    request = CreateDataJobRequest(provider_code="sandbox.bank", schema="bank.transactions.cb.v1", params={"dateRangeStart": start, "dateRangeEnd": end})
    done = client.wait_for_job(client.create_job(request), on_progress=on_progress)
    assert isinstance(done, SucceededDataJob), done
    out.update(jobId=done.id, kind=done.kind, recordCount=done.record_count, progressCalls=len(progress))
    out["records"] = [as_json(r) for r in client.records(done.id, BankTransactionRecord).data]
    out["csvBytes"] = client.download_results_csv(done.id, out_dir / "python.csv")
    out["csvRows"] = sum(1 for _ in client.iter_results_csv(done.id))

    accounts = client.create_job(CreateDataJobRequest(provider_code="sandbox.bank", schema="bank.accounts.cb.v1"))
    out["accountsJobId"] = accounts.id
    out["listed"] = [item.id for item in client.list_jobs(page_size=1)]
    out["downloadUrl"] = client.create_download_link(done.id, expires_in_seconds=3600).url

    refused = CollectClient(base_url, os.environ["COLLECT_REFUSED_API_KEY"])
    check = refused.check_credential("sandbox.bank")
    assert isinstance(check.job, FailedDataJob)
    e = check.job.error
    out["verdict"] = check.verdict
    out["failure"] = {"category": e.category, "code": e.code, "message": e.message, "retryable": e.retryable}

    try:
        client.get_job(str(uuid.uuid4()))
    except CollectApiError as missing:
        out.update(missingCode=missing.code, missingStatus=missing.status, missingRequestId=missing.request_id)

    db = out_dir / "python.sqlite"
    first = load(client, str(db), request)
    again = load(client, str(db), request)
    with sqlite3.connect(db) as conn:
        out["loaded"] = {"first": first["storedCount"], "again": again["storedCount"], "rows": conn.execute("SELECT count(*) FROM records").fetchone()[0]}
    (out_dir / "python.json").write_text(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    if sys.argv[1] == "verify":
        verify(sys.argv[2])
    else:
        run(Path(sys.argv[2]), sys.argv[3], sys.argv[4])
