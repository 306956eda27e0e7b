"""The collection API for Python 3.10+ on the standard library: what the TypeScript client in client/ gives, the Python way.

Every call repeats itself after a 429 (waiting Retry-After) and, where the service answers a repeat the same way
(GETs, DELETEs, a job creation under its Idempotency-Key), after a dropped connection or a 5xx, with backoff.
"""

from __future__ import annotations

import csv
import email.utils
import io
import json
import os
import random
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from http.client import HTTPResponse
from typing import Any, Generic, Literal, TypeVar, cast

from .errors import CollectApiError, JobWaitTimeoutError
from .models import (
    RECORD_TYPES,
    ApiError,
    CreateDataJobRequest,
    CreateRegistrationSessionRequest,
    CreateWebhookEndpointRequest,
    DataJob,
    DataJobListItem,
    DataJobPage,
    DataJobResultsDeletion,
    DownloadLink,
    FailedDataJob,
    HolderApproval,
    InProgressDataJob,
    JobRecord,
    Provider,
    RegistrationSession,
    RegistrationSessionCreated,
    SchemaDetail,
    WebhookEndpointWithSecret,
    data_job_from_json,
)

R = TypeVar("R", bound=JobRecord)
Replay = Literal["safe", "only-refused"]

_RETRIED_STATUSES = {429, 500, 502, 503, 504}
_KST = timezone(timedelta(hours=9))
_CREDENTIAL_REFUSED = {"CREDENTIAL", "CREDENTIAL_MISSING"}
_LOGIN_PASSED = {"USER_ENVIRONMENT", "INVALID_INPUT"}


@dataclass(frozen=True)
class Records(Generic[R]):
    """A job's records typed by its schema: all of them once the job has succeeded, those collected so far before."""

    job_id: str
    schema: str
    total_count: int
    data: list[R]


@dataclass(frozen=True)
class CredentialCheckResult:
    """VALID: the institution accepted the login; REFUSED: fix or register the credential; UNDETERMINED: another failure."""

    verdict: Literal["VALID", "REFUSED", "UNDETERMINED"]
    job: DataJob
    category: str | None


def _to_json(value: Any) -> Any:
    """A request dataclass as the JSON the service takes: camelCase names, unset (None) fields left out."""
    if hasattr(value, "JSON_FIELDS"):
        return {name: _to_json(getattr(value, attr)) for attr, name in value.JSON_FIELDS.items() if getattr(value, attr) is not None}
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _loads(raw: bytes) -> Any:
    # Amounts parse as Decimal, never float: 0.1 stays 0.1 and twenty-digit sums keep every digit.
    return json.loads(raw, parse_float=Decimal)


class CollectClient:
    """One client per API key; safe to share between threads (each call opens its own connection)."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        business: str | None = None,
        max_retries: int = 4,
        base_delay_seconds: float = 0.5,
        max_retry_after_seconds: int = 300,
        timeout_seconds: float = 60,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json"}
        if business:
            self._headers["X-SVC-Business"] = business
        self.max_retries = max_retries
        self.base_delay_seconds = base_delay_seconds
        self.max_retry_after_seconds = max_retry_after_seconds
        self.timeout_seconds = timeout_seconds

    # ---- jobs

    def create_job(self, request: CreateDataJobRequest, *, idempotency_key: str | None = None) -> DataJob:
        """Creates a job; every retry of this call sends the same Idempotency-Key, so the service makes one job."""
        key = idempotency_key or str(uuid.uuid4())
        return data_job_from_json(self._json("POST", "/api/v1/data-jobs", body=request, headers={"Idempotency-Key": key}))

    def get_job(self, job_id: str) -> DataJob:
        return data_job_from_json(self._json("GET", f"/api/v1/data-jobs/{_seg(job_id)}"))

    def wait_for_job(
        self,
        job: DataJob | str,
        *,
        on_progress: Callable[[InProgressDataJob], None] | None = None,
        on_awaiting_holder: Callable[[HolderApproval, InProgressDataJob], None] | None = None,
        max_wait_seconds: float | None = None,
    ) -> DataJob:
        """Polls at the job's suggestedPollIntervalMs until it is Succeeded or Failed, within its maxWaitSeconds.

        While the job's login awaits its holder's approval in their phone's app (awaitingHolder, the 간편인증 step),
        ``on_awaiting_holder`` hears of it once per request and the wait lasts at least until the approval's deadline:
        the service ends the job itself then, so that is no hang. Raises JobWaitTimeoutError after the budget.
        """
        current = self.get_job(job) if isinstance(job, str) else job
        budget = current.max_wait_seconds if max_wait_seconds is None else max_wait_seconds
        deadline = time.monotonic() + budget
        announced: str | None = None
        while isinstance(current, InProgressDataJob):
            if on_progress:
                on_progress(current)
            approval = current.awaiting_holder
            if approval is not None:
                if approval.since != announced and on_awaiting_holder:
                    on_awaiting_holder(approval, current)
                announced = approval.since
                until = datetime.fromisoformat(approval.until.replace("Z", "+00:00")).timestamp()
                deadline = max(deadline, time.monotonic() + until - time.time() + 2 * current.suggested_poll_interval_ms / 1000)
            left = deadline - time.monotonic()
            if left <= 0:
                raise JobWaitTimeoutError(current, budget)
            time.sleep(min(current.suggested_poll_interval_ms / 1000, left))
            current = self.get_job(current.id)
        return current

    def run_job(self, request: CreateDataJobRequest, *, job_retries: int = 2, **wait: Any) -> DataJob:
        """Creates a job and waits; after a failure whose ``retryable`` is true (only then) makes a new one, up to ``job_retries``."""
        attempt = 0
        while True:
            job = self.wait_for_job(self.create_job(request), **wait)
            if not isinstance(job, FailedDataJob) or not job.error.retryable or attempt >= job_retries:
                return job
            time.sleep(max(job.error.retry_after_seconds or 0, job.suggested_poll_interval_ms / 1000))
            attempt += 1

    def list_jobs(
        self,
        *,
        status: list[str] | None = None,
        schemas: list[str] | None = None,
        credential_id: str | None = None,
        page_size: int | None = None,
    ) -> Iterator[DataJobListItem]:
        """Every job matching the filter, newest first; each page is fetched only when iteration reaches it."""
        cursor: str | None = None
        while True:
            query = {"cursor": cursor, "limit": page_size, "status": ",".join(status) if status else None, "actionCodes": ",".join(schemas) if schemas else None, "credentialId": credential_id}
            page = DataJobPage.from_json(self._json("GET", "/api/v1/data-jobs", query=query))
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    # ---- results

    def results(self, job_id: str) -> dict[str, Any]:
        """A job's results as JSON (partial while it runs), amounts as Decimal."""
        answer: dict[str, Any] = self._json("GET", f"/api/v1/data-jobs/{_seg(job_id)}/results")
        return answer

    def records(self, job_id: str, record_type: type[R]) -> Records[R]:
        """A job's records as its schema's record type; refuses a job of another schema rather than mistype them."""
        results = self.results(job_id)
        found = RECORD_TYPES.get(results["schema"])
        if found is None or found is not record_type:
            raise TypeError(f"job {job_id} has schema {results['schema']}, not that of {record_type.__name__}")
        return Records(results["jobId"], results["schema"], results["totalCount"], [cast(R, found.from_json(r)) for r in results["data"]])

    def download_results_csv(self, job_id: str, path: str | os.PathLike[str]) -> int:
        """Streams the job's CSV (UTF-8 with BOM, Korean headers) to ``path`` in chunks, never whole in memory.

        Written beside it first and moved into place, so a broken download leaves no half file. Returns its size.
        """
        partial = f"{os.fspath(path)}.partial"
        with self._open("GET", f"/api/v1/data-jobs/{_seg(job_id)}/results.csv") as response, open(partial, "wb") as out:
            shutil.copyfileobj(response, out, 64 * 1024)
            size = out.tell()
        os.replace(partial, path)
        return size

    def iter_results_csv(self, job_id: str) -> Iterator[dict[str, str]]:
        """The job's CSV rows, read as they arrive, keyed by the Korean headers; values stay text (exact)."""
        with self._open("GET", f"/api/v1/data-jobs/{_seg(job_id)}/results.csv") as response:
            text = io.TextIOWrapper(response, encoding="utf-8-sig", newline="")
            yield from csv.DictReader(text)

    def delete_results(self, job_id: str) -> DataJobResultsDeletion:
        """Deletes a finished job's results now (the job stays); deleting twice answers the same deletion."""
        return DataJobResultsDeletion.from_json(self._json("DELETE", f"/api/v1/data-jobs/{_seg(job_id)}/results"))

    def create_download_link(self, job_id: str, *, expires_in_seconds: int | None = None) -> DownloadLink:
        """A URL that downloads the CSV without an API key; not repeated after a dropped connection (it carries no key)."""
        body = {} if expires_in_seconds is None else {"expiresInSeconds": expires_in_seconds}
        return DownloadLink.from_json(self._json("POST", f"/api/v1/data-jobs/{_seg(job_id)}/download-links", body=body, replay="only-refused"))

    # ---- providers, credentials, registration

    def get_provider(self, code: str) -> Provider:
        return Provider.from_json(self._json("GET", f"/api/v1/providers/{_seg(code)}"))

    def get_schema(self, schema: str) -> SchemaDetail:
        return SchemaDetail.from_json(self._json("GET", f"/api/v1/schemas/{_seg(schema)}"))

    def credential_check_request(self, provider_code: str, now: datetime | None = None) -> CreateDataJobRequest:
        """The provider's smallest job: a schema without a period if it has one, else yesterday in Korean time."""
        provider = self.get_provider(provider_code)
        for schema in provider.schemas:
            if "dateRangeStart" not in self.get_schema(schema).params.get("properties", {}):
                return CreateDataJobRequest(provider_code=provider_code, schema=schema, params={})
        yesterday = ((now or datetime.now(timezone.utc)).astimezone(_KST) - timedelta(days=1)).date().isoformat()
        return CreateDataJobRequest(provider_code=provider_code, schema=provider.schemas[0], params={"dateRangeStart": yesterday, "dateRangeEnd": yesterday})

    def check_credential(self, provider_code: str, **wait: Any) -> CredentialCheckResult:
        """The spec's credential check after a credential is registered or changed."""
        job = self.run_job(self.credential_check_request(provider_code), **wait)
        if not isinstance(job, FailedDataJob):
            return CredentialCheckResult("VALID", job, None)
        category = job.error.category
        verdict: Literal["VALID", "REFUSED", "UNDETERMINED"] = "REFUSED" if category in _CREDENTIAL_REFUSED else "VALID" if category in _LOGIN_PASSED else "UNDETERMINED"
        return CredentialCheckResult(verdict, job, category)

    def create_registration_session(self, request: CreateRegistrationSessionRequest) -> RegistrationSessionCreated:
        """A session for the registration SDK (give ``session_token`` to its page); repeated after a 429 only."""
        return RegistrationSessionCreated.from_json(self._json("POST", "/api/v1/registration-sessions", body=request, replay="only-refused"))

    def get_registration_session(self, session_id: str) -> RegistrationSession:
        return RegistrationSession.from_json(self._json("GET", f"/api/v1/registration-sessions/{_seg(session_id)}"))

    # ---- webhooks

    def create_webhook_endpoint(self, endpoint: CreateWebhookEndpointRequest) -> WebhookEndpointWithSecret:
        """Registers an HTTPS endpoint; its ``secret`` (shown only here) is what the webhooks module checks with."""
        return WebhookEndpointWithSecret.from_json(self._json("POST", "/api/v1/webhook-endpoints", body=endpoint, replay="only-refused"))

    def delete_webhook_endpoint(self, endpoint_id: str) -> None:
        with self._open("DELETE", f"/api/v1/webhook-endpoints/{_seg(endpoint_id)}"):
            pass

    # ---- transport

    def _json(self, method: str, path: str, *, body: Any = None, headers: Mapping[str, str] | None = None, query: Mapping[str, Any] | None = None, replay: Replay = "safe") -> Any:
        with self._open(method, path, body=body, headers=headers, query=query, replay=replay) as response:
            return _loads(response.read())

    def _open(self, method: str, path: str, *, body: Any = None, headers: Mapping[str, str] | None = None, query: Mapping[str, Any] | None = None, replay: Replay = "safe") -> HTTPResponse:
        """One call with the retries its replay allows, answering the open 2xx response (its body streams)."""
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        data = None if body is None else json.dumps(_to_json(body)).encode()
        all_headers = {**self._headers, **(headers or {}), **({"Content-Type": "application/json"} if data is not None else {})}
        retry = 0
        while True:
            request = urllib.request.Request(url, data=data, method=method, headers=all_headers)
            try:
                response: HTTPResponse = urllib.request.urlopen(request, timeout=self.timeout_seconds)
                return response
            except urllib.error.HTTPError as answer:
                failure = _error_of(answer)
                retried = failure.status in _RETRIED_STATUSES if replay == "safe" else failure.status == 429
                if not retried or (failure.retry_after_seconds or 0) > self.max_retry_after_seconds:
                    raise failure from None
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as lost:
                failure = CollectApiError("NETWORK_ERROR", f"could not reach the service: {lost}", 0)
                if replay != "safe":
                    raise failure from lost
            if retry >= self.max_retries:
                raise failure
            wait = failure.retry_after_seconds if failure.retry_after_seconds is not None else _backoff(retry, self.base_delay_seconds)
            time.sleep(wait)
            retry += 1


def _backoff(retry: int, base: float) -> float:
    ceiling = min(base * 2.0**retry, 30.0)
    return ceiling / 2 + random.random() * ceiling / 2


def _retry_after(header: str | None) -> int | None:
    if header is None:
        return None
    if header.strip().isdigit():
        return int(header.strip())
    try:
        return max(0, int(email.utils.parsedate_to_datetime(header).timestamp() - time.time()) + 1)
    except (TypeError, ValueError):
        return None


def _error_of(answer: urllib.error.HTTPError) -> CollectApiError:
    """The error for an answer that is not 2xx; a body that is not our envelope (a proxy's page) still gives one."""
    raw = answer.read(64 * 1024)
    request_id = answer.headers.get("X-Request-Id")
    retry_after = _retry_after(answer.headers.get("Retry-After"))
    try:
        envelope = ApiError.from_json(_loads(raw))
    except (ValueError, KeyError, TypeError, AttributeError):
        return CollectApiError(f"HTTP_{answer.code}", f"HTTP {answer.code}", answer.code, request_id, None, retry_after)
    return CollectApiError(envelope.code, envelope.message, answer.code, envelope.request_id or request_id, envelope.field_errors, retry_after)


def _seg(value: str) -> str:
    return urllib.parse.quote(value, safe="")


__all__ = ["CollectClient", "CredentialCheckResult", "Records"]
