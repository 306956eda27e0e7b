"""What the client raises: the service's error envelope, a wait that ran out, a signature that does not hold."""

from __future__ import annotations

from .models import FieldError, InProgressDataJob


class CollectApiError(Exception):
    """An answer that is not 2xx (after the client's retries), or none at all (code NETWORK_ERROR, status 0)."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int,
        request_id: str | None = None,
        field_errors: list[FieldError] | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(f"{code} ({status}): {message}")
        self.code = code
        self.message = message
        self.status = status
        self.request_id = request_id
        self.field_errors = field_errors or []
        self.retry_after_seconds = retry_after_seconds


class JobWaitTimeoutError(Exception):
    """The job was still running when the wait budget (its maxWaitSeconds, or the caller's) ran out."""

    def __init__(self, job: InProgressDataJob, waited_seconds: float) -> None:
        super().__init__(f"job {job.id} still {job.phase} after {waited_seconds:.0f} s ({job.completed_task_count}/{job.total_task_count} units)")
        self.job = job


class WebhookSignatureError(Exception):
    """A delivery whose signature is missing, wrong or too old: refuse it."""

    code = "WEBHOOK_SIGNATURE_INVALID"
