"""The client's own tests against a stand-in service on this machine; the end-to-end lane runs tests/e2e.py against the real stack."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
import unittest
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from collect_edge import (
    CardApprovalRecord,
    CollectApiError,
    CollectClient,
    CreateDataJobRequest,
    HolderApproval,
    InProgressDataJob,
    JobWaitTimeoutError,
    SucceededDataJob,
    WebhookSignatureError,
    verify_standard_webhook,
    verify_webhook,
)

VECTORS = Path(os.environ.get("WEBHOOK_VECTORS", Path(__file__).resolve().parents[2] / "test/support/webhook-vectors.json"))
JOB = {"kind": "Succeeded", "id": "j", "providerCode": "sandbox.bank", "schema": "bank.transactions.cb.v1", "credentialId": None, "suggestedPollIntervalMs": 10, "maxWaitSeconds": 5, "recordCount": 1}
# An answer: (status, headers, body), or None for a connection dropped after the request arrived.
Answer = tuple[int, dict[str, str], Any] | None


class StandIn:
    """A stand-in service answering each request in turn with what the test scripted, recording what it was sent."""

    def __init__(self, answers: list[Answer] | None = None, always: Answer = None) -> None:
        self.answers = list(answers or [])
        self.always = always
        self.requests: list[tuple[str, str, dict[str, str], float]] = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                stand_in.requests.append((self.command, self.path, dict(self.headers), time.monotonic()))
                planned = stand_in.answers.pop(0) if stand_in.answers else stand_in.always
                if planned is None:
                    self.close_connection = True
                    self.connection.close()
                    return
                status, headers, body = planned
                raw = json.dumps(body).encode() if not isinstance(body, (bytes, str)) else (body.encode() if isinstance(body, str) else body)
                self.send_response(status)
                for k, v in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_DELETE = answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def client(self) -> CollectClient:
        return CollectClient(f"http://127.0.0.1:{self.server.server_address[1]}", "sk_test", base_delay_seconds=0.02)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class ClientTest(unittest.TestCase):
    def stand_in(self, answers: list[Answer] | None = None, always: Answer = None) -> StandIn:
        s = StandIn(answers, always)
        self.addCleanup(s.close)
        return s

    def test_create_job_repeats_after_a_503_and_a_dropped_connection_under_one_idempotency_key(self) -> None:
        s = self.stand_in([(503, {}, {}), None, (201, {}, JOB)])
        job = s.client().create_job(CreateDataJobRequest(provider_code="sandbox.bank", schema="bank.transactions.cb.v1", params={"dateRangeStart": "2026-01-01", "dateRangeEnd": "2026-01-31"}))
        self.assertIsInstance(job, SucceededDataJob)
        keys = [r[2]["Idempotency-Key"] for r in s.requests]
        self.assertEqual(len(keys), 3)
        self.assertEqual(len(set(keys)), 1)

    def test_a_429_is_waited_out_for_its_retry_after(self) -> None:
        s = self.stand_in([(429, {"Retry-After": "1"}, {"code": "RATE_LIMITED", "message": "잠시 후", "requestId": "r1"}), (200, {}, JOB)])
        s.client().get_job("j")
        self.assertEqual(len(s.requests), 2)
        self.assertGreaterEqual(s.requests[1][3] - s.requests[0][3], 0.95)

    def test_an_error_carries_code_status_request_id_and_field_errors(self) -> None:
        envelope = {"code": "INVALID_DATA_JOB_PARAMS", "message": "기간이 잘못되었습니다", "requestId": "req_42", "fieldErrors": [{"field": "body.params.dateRangeStart", "code": "DATE_RANGE_INVALID", "message": "날짜"}]}
        s = self.stand_in([(400, {}, envelope)])
        with self.assertRaises(CollectApiError) as caught:
            s.client().create_job(CreateDataJobRequest(provider_code="sandbox.bank", schema="bank.transactions.cb.v1"))
        e = caught.exception
        self.assertEqual((e.code, e.status, e.request_id), ("INVALID_DATA_JOB_PARAMS", 400, "req_42"))
        self.assertEqual((e.field_errors[0].field, e.field_errors[0].code), ("body.params.dateRangeStart", "DATE_RANGE_INVALID"))
        self.assertEqual(len(s.requests), 1)

    def test_a_download_link_is_not_repeated_after_a_503(self) -> None:
        s = self.stand_in([(503, {}, {"code": "SERVICE_UNAVAILABLE", "message": "x", "requestId": "r"})])
        with self.assertRaises(CollectApiError) as caught:
            s.client().create_download_link("j", expires_in_seconds=3600)
        self.assertEqual(caught.exception.status, 503)
        self.assertEqual(len(s.requests), 1)

    def test_amounts_keep_every_digit_and_identifiers_their_leading_zeros(self) -> None:
        record = '{"schema":"card.approvals.corp.v1","approvalNumber":"00012345","approvedAt":"2026-01-02T03:04:05.000Z","cardNumberMasked":"0000-****-****-0001","installmentMonths":null,"lifecycleStage":"CAPTURED","merchantAddress":null,"merchantBusinessIdentifier":"0123456789","merchantBusinessType":null,"merchantContactNumber":null,"merchantName":"가맹점","merchantRepresentativeName":null,"originalAmount":12.345,"originalCurrencyCode":"USD","overseas":true,"paymentMethod":"SINGLE_PAYMENT","settledAmount":90071992547409931234.01,"settledCurrencyCode":"KRW","status":"APPROVED","taxAmount":0.1,"transactionIdentifier":"000777","aFieldAddedLater":1}'
        s = self.stand_in([(200, {}, '{"jobId":"j","schema":"card.approvals.corp.v1","totalCount":1,"data":[' + record + "]}")])
        r = s.client().records("j", CardApprovalRecord).data[0]
        self.assertEqual(r.settled_amount, Decimal("90071992547409931234.01"))
        self.assertEqual((r.tax_amount, r.original_amount), (Decimal("0.1"), Decimal("12.345")))
        self.assertEqual((r.approval_number, r.transaction_identifier, r.merchant_business_identifier), ("00012345", "000777", "0123456789"))

    def test_list_jobs_follows_next_cursor_across_pages(self) -> None:
        item = {"kind": "Succeeded", "providerCode": "sandbox.bank", "schema": "bank.accounts.cb.v1", "credentialId": None}
        s = self.stand_in([(200, {}, {"items": [{**item, "id": "a"}, {**item, "id": "b"}], "nextCursor": "c1"}), (200, {}, {"items": [{**item, "id": "c"}], "nextCursor": None})])
        self.assertEqual([j.id for j in s.client().list_jobs(status=["SUCCEEDED"], page_size=2)], ["a", "b", "c"])
        self.assertIn("cursor=c1", s.requests[1][1])
        self.assertIn("status=SUCCEEDED", s.requests[0][1])

    def test_a_job_awaiting_its_holder_is_reported_once_and_outlasts_the_wait_budget_until_the_approvals_deadline(self) -> None:
        since = datetime.now(timezone.utc)

        def fmt(t: datetime) -> str:
            return t.isoformat().replace("+00:00", "Z")

        waiting = {"kind": "InProgress", "id": "j", "providerCode": "hometax", "schema": "taxportal.tax-invoices.sales.v1", "credentialId": "c", "suggestedPollIntervalMs": 200, "maxWaitSeconds": 1, "phase": "RUNNING", "completedTaskCount": 0, "totalTaskCount": 0,
                   "awaitingHolder": {"method": "SIMPLE_AUTH", "provider": "kakao", "since": fmt(since), "until": fmt(since + timedelta(seconds=3))}}
        answers: list[Answer] = [(200, {}, waiting)] * 10
        s = self.stand_in([*answers, (200, {}, JOB)])
        client = s.client()
        heard: list[str] = []

        def told(approval: HolderApproval, job: InProgressDataJob) -> None:
            heard.append(approval.provider)

        done = client.wait_for_job("j", on_awaiting_holder=told)
        self.assertIsInstance(done, SucceededDataJob)
        self.assertEqual(heard, ["kakao"])

    def test_wait_for_job_gives_up_after_the_jobs_max_wait_seconds(self) -> None:
        running = {"kind": "InProgress", "id": "j", "providerCode": "sandbox.bank", "schema": "bank.accounts.cb.v1", "credentialId": None, "suggestedPollIntervalMs": 100, "maxWaitSeconds": 1, "phase": "RUNNING", "completedTaskCount": 1, "totalTaskCount": 3}
        s = self.stand_in(always=(200, {}, running))
        with self.assertRaises(JobWaitTimeoutError) as caught:
            s.client().wait_for_job("j")
        self.assertEqual(caught.exception.job.completed_task_count, 1)

    def test_csv_rows_and_file_stream(self) -> None:
        csv_text = "\ufeff거래식별자,거래금액\r\n0001,1500.10\r\n"
        s = self.stand_in([(200, {"Content-Type": "text/csv"}, csv_text.encode()), (200, {"Content-Type": "text/csv"}, csv_text.encode())])
        self.assertEqual(list(s.client().iter_results_csv("j")), [{"거래식별자": "0001", "거래금액": "1500.10"}])
        with tempfile.TemporaryDirectory() as d:
            size = s.client().download_results_csv("j", Path(d) / "r.csv")
            self.assertEqual((Path(d) / "r.csv").read_bytes(), csv_text.encode())
            self.assertEqual(size, len(csv_text.encode()))


class WebhookVectorsTest(unittest.TestCase):
    """The Standard Webhooks reference library's test vectors, and our X-SVC-Signature's, as data (test/support/webhook-vectors.json)."""

    def test_every_vector(self) -> None:
        vectors = json.loads(VECTORS.read_text())
        for v in vectors["standardWebhooks"]:
            with self.subTest(v["name"]):
                self.assertEqual(self.verdict(lambda: verify_standard_webhook(v["body"], v["headers"], v["secret"], now=v["now"])), v["valid"])
        for v in vectors["svcSignature"]:
            with self.subTest(v["name"]):
                self.assertEqual(self.verdict(lambda: verify_webhook(v["body"], v["header"], v["secret"], now=v["now"])), v["valid"])

    @staticmethod
    def verdict(check: Any) -> bool:
        try:
            check()
            return True
        except WebhookSignatureError as e:
            assert e.code == "WEBHOOK_SIGNATURE_INVALID"
            return False


if __name__ == "__main__":
    unittest.main()
