"""Checks a webhook delivery's signature, either of the two every delivery carries (contracts/webhooks.ts).

``X-SVC-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret text, "t.body")>``, and Standard Webhooks'
``webhook-id``, ``webhook-timestamp``, ``webhook-signature: v1,<base64 HMAC-SHA256(key, "id.t.body")>`` with the key
the bytes the ``whsec_`` secret's base64 encodes. Pass the raw body exactly as received.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .errors import WebhookSignatureError

SIGNATURE_HEADER = "X-SVC-Signature"
DEFAULT_TOLERANCE_SECONDS = 300


def _check_timestamp(t: int, tolerance: int, now: float | None) -> None:
    if abs((time.time() if now is None else now) - t) > tolerance:
        raise WebhookSignatureError(f"signature timestamp is more than {tolerance} seconds away from now")


def _same(candidate: str, expected: str) -> bool:
    # As bytes: compare_digest refuses a str with non-ASCII characters (TypeError), and a header is whatever was sent.
    return hmac.compare_digest(candidate.encode(), expected.encode())


def _parse(body: str) -> dict[str, Any]:
    try:
        event: dict[str, Any] = json.loads(body, parse_float=Decimal)
        return event
    except ValueError:
        raise WebhookSignatureError("signed body is not JSON") from None


def verify_webhook(body: str, signature_header: str | None, secret: str, *, tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS, now: float | None = None) -> dict[str, Any]:
    """The delivery's event, once its X-SVC-Signature header proves the service sent it with ``secret``."""
    if not signature_header:
        raise WebhookSignatureError(f"{SIGNATURE_HEADER} header is missing")
    t: int | None = None
    candidates: list[str] = []
    for part in signature_header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and re.fullmatch(r"\d+", value):
            t = int(value)
        elif key == "v1" and value:
            candidates.append(value)
    if t is None or not candidates:
        raise WebhookSignatureError(f"{SIGNATURE_HEADER} header is malformed")
    _check_timestamp(t, tolerance_seconds, now)
    expected = hmac.new(secret.encode(), f"{t}.{body}".encode(), hashlib.sha256).hexdigest()
    if not any(_same(c, expected) for c in candidates):
        raise WebhookSignatureError("no signature matches the body and secret")
    return _parse(body)


def _standard_key(secret: str) -> bytes:
    text = (secret[len("whsec_"):] if secret.startswith("whsec_") else secret).replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error:
        raise WebhookSignatureError("the secret is not base64") from None


def verify_standard_webhook(body: str, headers: Mapping[str, str], secret: str, *, tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS, now: float | None = None) -> dict[str, Any]:
    """The delivery's event, once its Standard Webhooks headers (any case) prove the service sent it with ``secret``."""
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id, timestamp, signatures = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
    if not msg_id or not timestamp or not signatures or not re.fullmatch(r"\d+", timestamp):
        raise WebhookSignatureError("Standard Webhooks headers are missing or malformed")
    _check_timestamp(int(timestamp), tolerance_seconds, now)
    mac = hmac.new(_standard_key(secret), f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    expected = "v1," + base64.b64encode(mac).decode()
    if not any(_same(c, expected) for c in signatures.split(" ")):
        raise WebhookSignatureError("no signature matches the body and secret")
    return _parse(body)
