"""collect-edge's collection API for Python 3.10+, standard library only."""

from .client import CollectClient, CredentialCheckResult, Records
from .errors import CollectApiError, JobWaitTimeoutError, WebhookSignatureError
from .models import *  # noqa: F403 - the generated records, requests and answers
from .webhooks import verify_standard_webhook, verify_webhook

__all__ = ["CollectClient", "CredentialCheckResult", "Records", "CollectApiError", "JobWaitTimeoutError", "WebhookSignatureError", "verify_webhook", "verify_standard_webhook"]
