# Generated from client/openapi.json by scripts/generate-partner-clients.ts; do not edit.
"""The service's records, requests and answers as dataclasses; attributes are the JSON fields in snake_case."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Union


def _decimal(value: Any) -> Decimal:
    """Amounts arrive as Decimal (the client parses JSON floats so) or int: both are exact."""
    return value if isinstance(value, Decimal) else Decimal(str(value))


@dataclass(frozen=True)
class ApiError:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"code": "code", "message": "message", "request_id": "requestId", "field_errors": "fieldErrors"}
    code: str
    message: str
    request_id: str
    field_errors: list[FieldError] | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ApiError:
        return cls(
            code=d["code"],
            message=d["message"],
            request_id=d["requestId"],
            field_errors=None if d.get("fieldErrors") is None else [FieldError.from_json(x) for x in d["fieldErrors"]],
        )


@dataclass(frozen=True)
class HolderApproval:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"method": "method", "provider": "provider", "since": "since", "until": "until"}
    method: str
    provider: str
    since: str
    until: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HolderApproval:
        return cls(
            method=d["method"],
            provider=d["provider"],
            since=d["since"],
            until=d["until"],
        )


@dataclass(frozen=True)
class InProgressDataJob:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"kind": "kind", "id": "id", "provider_code": "providerCode", "schema": "schema", "credential_id": "credentialId", "suggested_poll_interval_ms": "suggestedPollIntervalMs", "max_wait_seconds": "maxWaitSeconds", "unpublished_from": "unpublishedFrom", "phase": "phase", "completed_task_count": "completedTaskCount", "total_task_count": "totalTaskCount", "queue_position": "queuePosition", "maintenance_until": "maintenanceUntil", "awaiting_holder": "awaitingHolder"}
    kind: str
    id: str
    provider_code: str
    schema: str
    suggested_poll_interval_ms: int
    max_wait_seconds: int
    phase: str
    completed_task_count: int
    total_task_count: int
    credential_id: str | None = None
    unpublished_from: str | None = None
    queue_position: int | None = None
    maintenance_until: str | None = None
    awaiting_holder: HolderApproval | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> InProgressDataJob:
        return cls(
            kind=d["kind"],
            id=d["id"],
            provider_code=d["providerCode"],
            schema=d["schema"],
            suggested_poll_interval_ms=d["suggestedPollIntervalMs"],
            max_wait_seconds=d["maxWaitSeconds"],
            phase=d["phase"],
            completed_task_count=d["completedTaskCount"],
            total_task_count=d["totalTaskCount"],
            credential_id=None if d.get("credentialId") is None else d["credentialId"],
            unpublished_from=None if d.get("unpublishedFrom") is None else d["unpublishedFrom"],
            queue_position=None if d.get("queuePosition") is None else d["queuePosition"],
            maintenance_until=None if d.get("maintenanceUntil") is None else d["maintenanceUntil"],
            awaiting_holder=None if d.get("awaitingHolder") is None else HolderApproval.from_json(d["awaitingHolder"]),
        )


@dataclass(frozen=True)
class SucceededDataJob:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"kind": "kind", "id": "id", "provider_code": "providerCode", "schema": "schema", "credential_id": "credentialId", "suggested_poll_interval_ms": "suggestedPollIntervalMs", "max_wait_seconds": "maxWaitSeconds", "unpublished_from": "unpublishedFrom", "record_count": "recordCount", "since": "since", "results_expire_at": "resultsExpireAt"}
    kind: str
    id: str
    provider_code: str
    schema: str
    suggested_poll_interval_ms: int
    max_wait_seconds: int
    record_count: int
    credential_id: str | None = None
    unpublished_from: str | None = None
    since: str | None = None
    results_expire_at: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SucceededDataJob:
        return cls(
            kind=d["kind"],
            id=d["id"],
            provider_code=d["providerCode"],
            schema=d["schema"],
            suggested_poll_interval_ms=d["suggestedPollIntervalMs"],
            max_wait_seconds=d["maxWaitSeconds"],
            record_count=d["recordCount"],
            credential_id=None if d.get("credentialId") is None else d["credentialId"],
            unpublished_from=None if d.get("unpublishedFrom") is None else d["unpublishedFrom"],
            since=None if d.get("since") is None else d["since"],
            results_expire_at=None if d.get("resultsExpireAt") is None else d["resultsExpireAt"],
        )


@dataclass(frozen=True)
class FailedDataJob:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"kind": "kind", "id": "id", "provider_code": "providerCode", "schema": "schema", "credential_id": "credentialId", "suggested_poll_interval_ms": "suggestedPollIntervalMs", "max_wait_seconds": "maxWaitSeconds", "unpublished_from": "unpublishedFrom", "error": "error", "results_expire_at": "resultsExpireAt"}
    kind: str
    id: str
    provider_code: str
    schema: str
    suggested_poll_interval_ms: int
    max_wait_seconds: int
    error: JobError
    credential_id: str | None = None
    unpublished_from: str | None = None
    results_expire_at: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FailedDataJob:
        return cls(
            kind=d["kind"],
            id=d["id"],
            provider_code=d["providerCode"],
            schema=d["schema"],
            suggested_poll_interval_ms=d["suggestedPollIntervalMs"],
            max_wait_seconds=d["maxWaitSeconds"],
            error=JobError.from_json(d["error"]),
            credential_id=None if d.get("credentialId") is None else d["credentialId"],
            unpublished_from=None if d.get("unpublishedFrom") is None else d["unpublishedFrom"],
            results_expire_at=None if d.get("resultsExpireAt") is None else d["resultsExpireAt"],
        )


@dataclass(frozen=True)
class JobError:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"category": "category", "code": "code", "message": "message", "retryable": "retryable", "retry_after_seconds": "retryAfterSeconds"}
    category: str
    code: str
    message: str
    retryable: bool
    retry_after_seconds: int | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> JobError:
        return cls(
            category=d["category"],
            code=d["code"],
            message=d["message"],
            retryable=d["retryable"],
            retry_after_seconds=None if d.get("retryAfterSeconds") is None else d["retryAfterSeconds"],
        )


@dataclass(frozen=True)
class FieldError:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"field": "field", "code": "code", "message": "message"}
    field: str
    code: str
    message: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FieldError:
        return cls(
            field=d["field"],
            code=d["code"],
            message=d["message"],
        )


@dataclass(frozen=True)
class CreateDataJobRequest:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"provider_code": "providerCode", "schema": "schema", "params": "params", "credential_id": "credentialId", "delivery_route_id": "deliveryRouteId", "connection_id": "connectionId"}
    provider_code: str
    schema: str
    params: dict[str, Any] | None = None
    credential_id: str | None = None
    delivery_route_id: str | None = None
    connection_id: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CreateDataJobRequest:
        return cls(
            provider_code=d["providerCode"],
            schema=d["schema"],
            params=None if d.get("params") is None else d["params"],
            credential_id=None if d.get("credentialId") is None else d["credentialId"],
            delivery_route_id=None if d.get("deliveryRouteId") is None else d["deliveryRouteId"],
            connection_id=None if d.get("connectionId") is None else d["connectionId"],
        )


@dataclass(frozen=True)
class DataJobListItem:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"kind": "kind", "id": "id", "provider_code": "providerCode", "schema": "schema", "credential_id": "credentialId", "awaiting_holder": "awaitingHolder", "error": "error"}
    kind: str
    id: str
    provider_code: str
    schema: str
    credential_id: str | None = None
    awaiting_holder: HolderApproval | None = None
    error: JobError | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DataJobListItem:
        return cls(
            kind=d["kind"],
            id=d["id"],
            provider_code=d["providerCode"],
            schema=d["schema"],
            credential_id=None if d.get("credentialId") is None else d["credentialId"],
            awaiting_holder=None if d.get("awaitingHolder") is None else HolderApproval.from_json(d["awaitingHolder"]),
            error=None if d.get("error") is None else JobError.from_json(d["error"]),
        )


@dataclass(frozen=True)
class DataJobPage:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"items": "items", "next_cursor": "nextCursor"}
    items: list[DataJobListItem]
    next_cursor: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DataJobPage:
        return cls(
            items=[DataJobListItem.from_json(x) for x in d["items"]],
            next_cursor=None if d.get("nextCursor") is None else d["nextCursor"],
        )


@dataclass(frozen=True)
class DataJobResultsDeletion:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"job_id": "jobId", "record_count": "recordCount", "deleted_at": "deletedAt", "reason": "reason"}
    job_id: str
    record_count: int
    deleted_at: str
    reason: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DataJobResultsDeletion:
        return cls(
            job_id=d["jobId"],
            record_count=d["recordCount"],
            deleted_at=d["deletedAt"],
            reason=d["reason"],
        )


@dataclass(frozen=True)
class DownloadLink:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"url": "url", "expires_at": "expiresAt"}
    url: str
    expires_at: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DownloadLink:
        return cls(
            url=d["url"],
            expires_at=d["expiresAt"],
        )


@dataclass(frozen=True)
class CreateDownloadLinkRequest:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"expires_in_seconds": "expiresInSeconds", "format": "format"}
    expires_in_seconds: int | None = None
    format: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CreateDownloadLinkRequest:
        return cls(
            expires_in_seconds=None if d.get("expiresInSeconds") is None else d["expiresInSeconds"],
            format=None if d.get("format") is None else d["format"],
        )


@dataclass(frozen=True)
class RegistrationOption:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"kind": "kind", "schemas": "schemas", "provider_code": "providerCode"}
    kind: str
    schemas: list[str] | None = None
    provider_code: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RegistrationOption:
        return cls(
            kind=d["kind"],
            schemas=None if d.get("schemas") is None else list(d["schemas"]),
            provider_code=None if d.get("providerCode") is None else d["providerCode"],
        )


@dataclass(frozen=True)
class RegistrationSession:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"session_id": "sessionId", "status": "status", "expires_at": "expiresAt", "client_reference_id": "clientReferenceId", "registration_options": "registrationOptions", "origin_allowlist": "originAllowlist", "attempts": "attempts", "max_attempts": "maxAttempts", "credential_id": "credentialId", "credential_check": "credentialCheck"}
    session_id: str
    status: str
    expires_at: str
    registration_options: list[RegistrationOption]
    origin_allowlist: list[str]
    attempts: int
    max_attempts: int
    credential_check: CredentialCheck
    client_reference_id: str | None = None
    credential_id: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RegistrationSession:
        return cls(
            session_id=d["sessionId"],
            status=d["status"],
            expires_at=d["expiresAt"],
            registration_options=[RegistrationOption.from_json(x) for x in d["registrationOptions"]],
            origin_allowlist=list(d["originAllowlist"]),
            attempts=d["attempts"],
            max_attempts=d["maxAttempts"],
            credential_check=CredentialCheck.from_json(d["credentialCheck"]),
            client_reference_id=None if d.get("clientReferenceId") is None else d["clientReferenceId"],
            credential_id=None if d.get("credentialId") is None else d["credentialId"],
        )


@dataclass(frozen=True)
class CredentialCheck:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"state": "state", "error": "error", "checked_at": "checkedAt"}
    state: str
    error: JobError | None = None
    checked_at: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CredentialCheck:
        return cls(
            state=d["state"],
            error=None if d.get("error") is None else JobError.from_json(d["error"]),
            checked_at=None if d.get("checkedAt") is None else d["checkedAt"],
        )


@dataclass(frozen=True)
class Provider:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"code": "code", "name": "name", "kind": "kind", "sandbox": "sandbox", "verification": "verification", "schemas": "schemas", "accepted_auth_methods": "acceptedAuthMethods", "max_date_range_days": "maxDateRangeDays", "freshness": "freshness", "status": "status", "maintenance": "maintenance"}
    code: str
    name: str
    kind: str
    sandbox: bool
    verification: str
    schemas: list[str]
    accepted_auth_methods: list[str]
    max_date_range_days: int
    freshness: list[dict[str, Any]]
    status: dict[str, Any]
    maintenance: list[dict[str, Any]]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Provider:
        return cls(
            code=d["code"],
            name=d["name"],
            kind=d["kind"],
            sandbox=d["sandbox"],
            verification=d["verification"],
            schemas=list(d["schemas"]),
            accepted_auth_methods=list(d["acceptedAuthMethods"]),
            max_date_range_days=d["maxDateRangeDays"],
            freshness=list(d["freshness"]),
            status=d["status"],
            maintenance=list(d["maintenance"]),
        )


@dataclass(frozen=True)
class SchemaDetail:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"id": "id", "title": "title", "provider_codes": "providerCodes", "params": "params", "record": "record"}
    id: str
    title: str
    provider_codes: list[str]
    params: dict[str, Any]
    record: dict[str, Any]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SchemaDetail:
        return cls(
            id=d["id"],
            title=d["title"],
            provider_codes=list(d["providerCodes"]),
            params=d["params"],
            record=d["record"],
        )


@dataclass(frozen=True)
class WebhookEndpointWithSecret:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"id": "id", "url": "url", "description": "description", "events": "events", "created_at": "createdAt", "updated_at": "updatedAt", "previous_secret_expires_at": "previousSecretExpiresAt", "secret": "secret"}
    id: str
    url: str
    events: list[str]
    created_at: str
    updated_at: str
    secret: str
    description: str | None = None
    previous_secret_expires_at: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> WebhookEndpointWithSecret:
        return cls(
            id=d["id"],
            url=d["url"],
            events=list(d["events"]),
            created_at=d["createdAt"],
            updated_at=d["updatedAt"],
            secret=d["secret"],
            description=None if d.get("description") is None else d["description"],
            previous_secret_expires_at=None if d.get("previousSecretExpiresAt") is None else d["previousSecretExpiresAt"],
        )


@dataclass(frozen=True)
class BankAccountRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "account_number": "accountNumber", "account_number_formatted": "accountNumberFormatted", "account_type": "accountType", "available_balance": "availableBalance", "balance": "balance", "currency_code": "currencyCode", "display_name": "displayName", "product_name": "productName", "change": "change"}
    SCHEMA: ClassVar[str] = "bank.accounts.cb.v1"
    schema: str
    account_number: str
    account_type: str
    currency_code: str
    account_number_formatted: str | None = None
    available_balance: Decimal | None = None
    balance: Decimal | None = None
    display_name: str | None = None
    product_name: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BankAccountRecord:
        return cls(
            schema=d["schema"],
            account_number=d["accountNumber"],
            account_type=d["accountType"],
            currency_code=d["currencyCode"],
            account_number_formatted=None if d.get("accountNumberFormatted") is None else d["accountNumberFormatted"],
            available_balance=None if d.get("availableBalance") is None else _decimal(d["availableBalance"]),
            balance=None if d.get("balance") is None else _decimal(d["balance"]),
            display_name=None if d.get("displayName") is None else d["displayName"],
            product_name=None if d.get("productName") is None else d["productName"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class BankTransactionRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "account_number": "accountNumber", "account_number_formatted": "accountNumberFormatted", "account_type": "accountType", "amount": "amount", "balance": "balance", "currency_code": "currencyCode", "description": "description", "identifier": "identifier", "transaction_at": "transactionAt", "change": "change"}
    SCHEMA: ClassVar[str] = "bank.transactions.cb.v1"
    schema: str
    account_number: str
    account_type: str
    amount: Decimal
    currency_code: str
    identifier: str
    transaction_at: str
    account_number_formatted: str | None = None
    balance: Decimal | None = None
    description: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BankTransactionRecord:
        return cls(
            schema=d["schema"],
            account_number=d["accountNumber"],
            account_type=d["accountType"],
            amount=_decimal(d["amount"]),
            currency_code=d["currencyCode"],
            identifier=d["identifier"],
            transaction_at=d["transactionAt"],
            account_number_formatted=None if d.get("accountNumberFormatted") is None else d["accountNumberFormatted"],
            balance=None if d.get("balance") is None else _decimal(d["balance"]),
            description=None if d.get("description") is None else d["description"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class TaxInvoiceSalesRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "issue_date": "issueDate", "write_date": "writeDate", "supply_amount": "supplyAmount", "tax_amount": "taxAmount", "total_amount": "totalAmount", "buyer_address": "buyerAddress", "buyer_email": "buyerEmail", "buyer_email_secondary": "buyerEmailSecondary", "buyer_organization_name": "buyerOrganizationName", "buyer_representative_name": "buyerRepresentativeName", "buyer_sub_business_number": "buyerSubBusinessNumber", "invoice_classification": "invoiceClassification", "invoice_kind": "invoiceKind", "issue_channel": "issueChannel", "item_name": "itemName", "item_remark": "itemRemark", "item_specification": "itemSpecification", "nts_transaction_id": "ntsTransactionId", "payment_type": "paymentType", "remark": "remark", "supplier_address": "supplierAddress", "supplier_email": "supplierEmail", "supplier_organization_name": "supplierOrganizationName", "supplier_representative_name": "supplierRepresentativeName", "supplier_sub_business_number": "supplierSubBusinessNumber", "trustee_business_identifier": "trusteeBusinessIdentifier", "trustee_organization_name": "trusteeOrganizationName", "item_quantity": "itemQuantity", "item_supply_amount": "itemSupplyAmount", "item_tax_amount": "itemTaxAmount", "item_unit_price": "itemUnitPrice", "item_supply_date": "itemSupplyDate", "send_date": "sendDate", "supplier_business_identifier": "supplierBusinessIdentifier", "buyer_business_identifier": "buyerBusinessIdentifier", "change": "change"}
    SCHEMA: ClassVar[str] = "taxportal.tax-invoices.sales.v1"
    schema: str
    issue_date: str
    write_date: str
    supply_amount: Decimal
    tax_amount: Decimal
    total_amount: Decimal
    supplier_business_identifier: str
    buyer_address: str | None = None
    buyer_email: str | None = None
    buyer_email_secondary: str | None = None
    buyer_organization_name: str | None = None
    buyer_representative_name: str | None = None
    buyer_sub_business_number: str | None = None
    invoice_classification: str | None = None
    invoice_kind: str | None = None
    issue_channel: str | None = None
    item_name: str | None = None
    item_remark: str | None = None
    item_specification: str | None = None
    nts_transaction_id: str | None = None
    payment_type: str | None = None
    remark: str | None = None
    supplier_address: str | None = None
    supplier_email: str | None = None
    supplier_organization_name: str | None = None
    supplier_representative_name: str | None = None
    supplier_sub_business_number: str | None = None
    trustee_business_identifier: str | None = None
    trustee_organization_name: str | None = None
    item_quantity: Decimal | None = None
    item_supply_amount: Decimal | None = None
    item_tax_amount: Decimal | None = None
    item_unit_price: Decimal | None = None
    item_supply_date: str | None = None
    send_date: str | None = None
    buyer_business_identifier: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TaxInvoiceSalesRecord:
        return cls(
            schema=d["schema"],
            issue_date=d["issueDate"],
            write_date=d["writeDate"],
            supply_amount=_decimal(d["supplyAmount"]),
            tax_amount=_decimal(d["taxAmount"]),
            total_amount=_decimal(d["totalAmount"]),
            supplier_business_identifier=d["supplierBusinessIdentifier"],
            buyer_address=None if d.get("buyerAddress") is None else d["buyerAddress"],
            buyer_email=None if d.get("buyerEmail") is None else d["buyerEmail"],
            buyer_email_secondary=None if d.get("buyerEmailSecondary") is None else d["buyerEmailSecondary"],
            buyer_organization_name=None if d.get("buyerOrganizationName") is None else d["buyerOrganizationName"],
            buyer_representative_name=None if d.get("buyerRepresentativeName") is None else d["buyerRepresentativeName"],
            buyer_sub_business_number=None if d.get("buyerSubBusinessNumber") is None else d["buyerSubBusinessNumber"],
            invoice_classification=None if d.get("invoiceClassification") is None else d["invoiceClassification"],
            invoice_kind=None if d.get("invoiceKind") is None else d["invoiceKind"],
            issue_channel=None if d.get("issueChannel") is None else d["issueChannel"],
            item_name=None if d.get("itemName") is None else d["itemName"],
            item_remark=None if d.get("itemRemark") is None else d["itemRemark"],
            item_specification=None if d.get("itemSpecification") is None else d["itemSpecification"],
            nts_transaction_id=None if d.get("ntsTransactionId") is None else d["ntsTransactionId"],
            payment_type=None if d.get("paymentType") is None else d["paymentType"],
            remark=None if d.get("remark") is None else d["remark"],
            supplier_address=None if d.get("supplierAddress") is None else d["supplierAddress"],
            supplier_email=None if d.get("supplierEmail") is None else d["supplierEmail"],
            supplier_organization_name=None if d.get("supplierOrganizationName") is None else d["supplierOrganizationName"],
            supplier_representative_name=None if d.get("supplierRepresentativeName") is None else d["supplierRepresentativeName"],
            supplier_sub_business_number=None if d.get("supplierSubBusinessNumber") is None else d["supplierSubBusinessNumber"],
            trustee_business_identifier=None if d.get("trusteeBusinessIdentifier") is None else d["trusteeBusinessIdentifier"],
            trustee_organization_name=None if d.get("trusteeOrganizationName") is None else d["trusteeOrganizationName"],
            item_quantity=None if d.get("itemQuantity") is None else _decimal(d["itemQuantity"]),
            item_supply_amount=None if d.get("itemSupplyAmount") is None else _decimal(d["itemSupplyAmount"]),
            item_tax_amount=None if d.get("itemTaxAmount") is None else _decimal(d["itemTaxAmount"]),
            item_unit_price=None if d.get("itemUnitPrice") is None else _decimal(d["itemUnitPrice"]),
            item_supply_date=None if d.get("itemSupplyDate") is None else d["itemSupplyDate"],
            send_date=None if d.get("sendDate") is None else d["sendDate"],
            buyer_business_identifier=None if d.get("buyerBusinessIdentifier") is None else d["buyerBusinessIdentifier"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class TaxInvoicePurchaseRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "issue_date": "issueDate", "write_date": "writeDate", "supply_amount": "supplyAmount", "tax_amount": "taxAmount", "total_amount": "totalAmount", "buyer_address": "buyerAddress", "buyer_email": "buyerEmail", "buyer_email_secondary": "buyerEmailSecondary", "buyer_organization_name": "buyerOrganizationName", "buyer_representative_name": "buyerRepresentativeName", "buyer_sub_business_number": "buyerSubBusinessNumber", "invoice_classification": "invoiceClassification", "invoice_kind": "invoiceKind", "issue_channel": "issueChannel", "item_name": "itemName", "item_remark": "itemRemark", "item_specification": "itemSpecification", "nts_transaction_id": "ntsTransactionId", "payment_type": "paymentType", "remark": "remark", "supplier_address": "supplierAddress", "supplier_email": "supplierEmail", "supplier_organization_name": "supplierOrganizationName", "supplier_representative_name": "supplierRepresentativeName", "supplier_sub_business_number": "supplierSubBusinessNumber", "trustee_business_identifier": "trusteeBusinessIdentifier", "trustee_organization_name": "trusteeOrganizationName", "item_quantity": "itemQuantity", "item_supply_amount": "itemSupplyAmount", "item_tax_amount": "itemTaxAmount", "item_unit_price": "itemUnitPrice", "item_supply_date": "itemSupplyDate", "send_date": "sendDate", "supplier_business_identifier": "supplierBusinessIdentifier", "buyer_business_identifier": "buyerBusinessIdentifier", "change": "change"}
    SCHEMA: ClassVar[str] = "taxportal.tax-invoices.purchase.v1"
    schema: str
    issue_date: str
    write_date: str
    supply_amount: Decimal
    tax_amount: Decimal
    total_amount: Decimal
    buyer_business_identifier: str
    buyer_address: str | None = None
    buyer_email: str | None = None
    buyer_email_secondary: str | None = None
    buyer_organization_name: str | None = None
    buyer_representative_name: str | None = None
    buyer_sub_business_number: str | None = None
    invoice_classification: str | None = None
    invoice_kind: str | None = None
    issue_channel: str | None = None
    item_name: str | None = None
    item_remark: str | None = None
    item_specification: str | None = None
    nts_transaction_id: str | None = None
    payment_type: str | None = None
    remark: str | None = None
    supplier_address: str | None = None
    supplier_email: str | None = None
    supplier_organization_name: str | None = None
    supplier_representative_name: str | None = None
    supplier_sub_business_number: str | None = None
    trustee_business_identifier: str | None = None
    trustee_organization_name: str | None = None
    item_quantity: Decimal | None = None
    item_supply_amount: Decimal | None = None
    item_tax_amount: Decimal | None = None
    item_unit_price: Decimal | None = None
    item_supply_date: str | None = None
    send_date: str | None = None
    supplier_business_identifier: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TaxInvoicePurchaseRecord:
        return cls(
            schema=d["schema"],
            issue_date=d["issueDate"],
            write_date=d["writeDate"],
            supply_amount=_decimal(d["supplyAmount"]),
            tax_amount=_decimal(d["taxAmount"]),
            total_amount=_decimal(d["totalAmount"]),
            buyer_business_identifier=d["buyerBusinessIdentifier"],
            buyer_address=None if d.get("buyerAddress") is None else d["buyerAddress"],
            buyer_email=None if d.get("buyerEmail") is None else d["buyerEmail"],
            buyer_email_secondary=None if d.get("buyerEmailSecondary") is None else d["buyerEmailSecondary"],
            buyer_organization_name=None if d.get("buyerOrganizationName") is None else d["buyerOrganizationName"],
            buyer_representative_name=None if d.get("buyerRepresentativeName") is None else d["buyerRepresentativeName"],
            buyer_sub_business_number=None if d.get("buyerSubBusinessNumber") is None else d["buyerSubBusinessNumber"],
            invoice_classification=None if d.get("invoiceClassification") is None else d["invoiceClassification"],
            invoice_kind=None if d.get("invoiceKind") is None else d["invoiceKind"],
            issue_channel=None if d.get("issueChannel") is None else d["issueChannel"],
            item_name=None if d.get("itemName") is None else d["itemName"],
            item_remark=None if d.get("itemRemark") is None else d["itemRemark"],
            item_specification=None if d.get("itemSpecification") is None else d["itemSpecification"],
            nts_transaction_id=None if d.get("ntsTransactionId") is None else d["ntsTransactionId"],
            payment_type=None if d.get("paymentType") is None else d["paymentType"],
            remark=None if d.get("remark") is None else d["remark"],
            supplier_address=None if d.get("supplierAddress") is None else d["supplierAddress"],
            supplier_email=None if d.get("supplierEmail") is None else d["supplierEmail"],
            supplier_organization_name=None if d.get("supplierOrganizationName") is None else d["supplierOrganizationName"],
            supplier_representative_name=None if d.get("supplierRepresentativeName") is None else d["supplierRepresentativeName"],
            supplier_sub_business_number=None if d.get("supplierSubBusinessNumber") is None else d["supplierSubBusinessNumber"],
            trustee_business_identifier=None if d.get("trusteeBusinessIdentifier") is None else d["trusteeBusinessIdentifier"],
            trustee_organization_name=None if d.get("trusteeOrganizationName") is None else d["trusteeOrganizationName"],
            item_quantity=None if d.get("itemQuantity") is None else _decimal(d["itemQuantity"]),
            item_supply_amount=None if d.get("itemSupplyAmount") is None else _decimal(d["itemSupplyAmount"]),
            item_tax_amount=None if d.get("itemTaxAmount") is None else _decimal(d["itemTaxAmount"]),
            item_unit_price=None if d.get("itemUnitPrice") is None else _decimal(d["itemUnitPrice"]),
            item_supply_date=None if d.get("itemSupplyDate") is None else d["itemSupplyDate"],
            send_date=None if d.get("sendDate") is None else d["sendDate"],
            supplier_business_identifier=None if d.get("supplierBusinessIdentifier") is None else d["supplierBusinessIdentifier"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class CashReceiptSalesRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "approval_number": "approvalNumber", "supply_amount": "supplyAmount", "tax_amount": "taxAmount", "total_amount": "totalAmount", "transaction_at": "transactionAt", "tip": "tip", "issue_method": "issueMethod", "issue_type": "issueType", "remark": "remark", "transaction_type": "transactionType", "use_type": "useType", "change": "change"}
    SCHEMA: ClassVar[str] = "taxportal.cash-receipts.sales.v1"
    schema: str
    approval_number: str
    supply_amount: Decimal
    tax_amount: Decimal
    total_amount: Decimal
    transaction_at: str
    tip: Decimal | None = None
    issue_method: str | None = None
    issue_type: str | None = None
    remark: str | None = None
    transaction_type: str | None = None
    use_type: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CashReceiptSalesRecord:
        return cls(
            schema=d["schema"],
            approval_number=d["approvalNumber"],
            supply_amount=_decimal(d["supplyAmount"]),
            tax_amount=_decimal(d["taxAmount"]),
            total_amount=_decimal(d["totalAmount"]),
            transaction_at=d["transactionAt"],
            tip=None if d.get("tip") is None else _decimal(d["tip"]),
            issue_method=None if d.get("issueMethod") is None else d["issueMethod"],
            issue_type=None if d.get("issueType") is None else d["issueType"],
            remark=None if d.get("remark") is None else d["remark"],
            transaction_type=None if d.get("transactionType") is None else d["transactionType"],
            use_type=None if d.get("useType") is None else d["useType"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class CashReceiptPurchaseRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "approval_number": "approvalNumber", "supply_amount": "supplyAmount", "tax_amount": "taxAmount", "total_amount": "totalAmount", "transaction_at": "transactionAt", "tip": "tip", "business_type_code": "businessTypeCode", "business_type_name": "businessTypeName", "contact_number": "contactNumber", "deductible": "deductible", "deduction_classification_code": "deductionClassificationCode", "deduction_classification_name": "deductionClassificationName", "issue_method": "issueMethod", "issue_type_code": "issueTypeCode", "issue_type_name": "issueTypeName", "lot_address": "lotAddress", "merchant_business_identifier": "merchantBusinessIdentifier", "merchant_classification": "merchantClassification", "organization_name": "organizationName", "road_address": "roadAddress", "transaction_type": "transactionType", "change": "change"}
    SCHEMA: ClassVar[str] = "taxportal.cash-receipts.purchase.v1"
    schema: str
    approval_number: str
    supply_amount: Decimal
    tax_amount: Decimal
    total_amount: Decimal
    transaction_at: str
    tip: Decimal | None = None
    business_type_code: str | None = None
    business_type_name: str | None = None
    contact_number: str | None = None
    deductible: str | None = None
    deduction_classification_code: str | None = None
    deduction_classification_name: str | None = None
    issue_method: str | None = None
    issue_type_code: str | None = None
    issue_type_name: str | None = None
    lot_address: str | None = None
    merchant_business_identifier: str | None = None
    merchant_classification: str | None = None
    organization_name: str | None = None
    road_address: str | None = None
    transaction_type: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CashReceiptPurchaseRecord:
        return cls(
            schema=d["schema"],
            approval_number=d["approvalNumber"],
            supply_amount=_decimal(d["supplyAmount"]),
            tax_amount=_decimal(d["taxAmount"]),
            total_amount=_decimal(d["totalAmount"]),
            transaction_at=d["transactionAt"],
            tip=None if d.get("tip") is None else _decimal(d["tip"]),
            business_type_code=None if d.get("businessTypeCode") is None else d["businessTypeCode"],
            business_type_name=None if d.get("businessTypeName") is None else d["businessTypeName"],
            contact_number=None if d.get("contactNumber") is None else d["contactNumber"],
            deductible=None if d.get("deductible") is None else d["deductible"],
            deduction_classification_code=None if d.get("deductionClassificationCode") is None else d["deductionClassificationCode"],
            deduction_classification_name=None if d.get("deductionClassificationName") is None else d["deductionClassificationName"],
            issue_method=None if d.get("issueMethod") is None else d["issueMethod"],
            issue_type_code=None if d.get("issueTypeCode") is None else d["issueTypeCode"],
            issue_type_name=None if d.get("issueTypeName") is None else d["issueTypeName"],
            lot_address=None if d.get("lotAddress") is None else d["lotAddress"],
            merchant_business_identifier=None if d.get("merchantBusinessIdentifier") is None else d["merchantBusinessIdentifier"],
            merchant_classification=None if d.get("merchantClassification") is None else d["merchantClassification"],
            organization_name=None if d.get("organizationName") is None else d["organizationName"],
            road_address=None if d.get("roadAddress") is None else d["roadAddress"],
            transaction_type=None if d.get("transactionType") is None else d["transactionType"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class TaxInvoiceLineRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "approval_number": "approvalNumber", "side": "side", "write_date": "writeDate", "line_number": "lineNumber", "item_name": "itemName", "item_specification": "itemSpecification", "quantity": "quantity", "unit_price": "unitPrice", "supply_amount": "supplyAmount", "tax_amount": "taxAmount", "supply_date": "supplyDate", "remark": "remark", "change": "change"}
    SCHEMA: ClassVar[str] = "taxportal.tax-invoice-lines.v1"
    schema: str
    approval_number: str
    side: str
    write_date: str
    line_number: int
    supply_amount: int
    item_name: str | None = None
    item_specification: str | None = None
    quantity: Decimal | None = None
    unit_price: Decimal | None = None
    tax_amount: int | None = None
    supply_date: str | None = None
    remark: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TaxInvoiceLineRecord:
        return cls(
            schema=d["schema"],
            approval_number=d["approvalNumber"],
            side=d["side"],
            write_date=d["writeDate"],
            line_number=d["lineNumber"],
            supply_amount=d["supplyAmount"],
            item_name=None if d.get("itemName") is None else d["itemName"],
            item_specification=None if d.get("itemSpecification") is None else d["itemSpecification"],
            quantity=None if d.get("quantity") is None else _decimal(d["quantity"]),
            unit_price=None if d.get("unitPrice") is None else _decimal(d["unitPrice"]),
            tax_amount=None if d.get("taxAmount") is None else d["taxAmount"],
            supply_date=None if d.get("supplyDate") is None else d["supplyDate"],
            remark=None if d.get("remark") is None else d["remark"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class BusinessCardPurchaseRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "transaction_identifier": "transactionIdentifier", "transaction_date": "transactionDate", "card_number_masked": "cardNumberMasked", "card_company": "cardCompany", "merchant_name": "merchantName", "merchant_business_identifier": "merchantBusinessIdentifier", "merchant_classification": "merchantClassification", "business_type_code": "businessTypeCode", "business_type_name": "businessTypeName", "business_item_name": "businessItemName", "supply_amount": "supplyAmount", "tax_amount": "taxAmount", "tip": "tip", "total_amount": "totalAmount", "deductible": "deductible", "deduction_classification_code": "deductionClassificationCode", "deduction_classification_name": "deductionClassificationName", "change": "change"}
    SCHEMA: ClassVar[str] = "taxportal.business-card-purchases.v1"
    schema: str
    transaction_identifier: str
    transaction_date: str
    card_number_masked: str
    supply_amount: int
    tax_amount: int
    total_amount: int
    card_company: str | None = None
    merchant_name: str | None = None
    merchant_business_identifier: str | None = None
    merchant_classification: str | None = None
    business_type_code: str | None = None
    business_type_name: str | None = None
    business_item_name: str | None = None
    tip: int | None = None
    deductible: str | None = None
    deduction_classification_code: str | None = None
    deduction_classification_name: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BusinessCardPurchaseRecord:
        return cls(
            schema=d["schema"],
            transaction_identifier=d["transactionIdentifier"],
            transaction_date=d["transactionDate"],
            card_number_masked=d["cardNumberMasked"],
            supply_amount=d["supplyAmount"],
            tax_amount=d["taxAmount"],
            total_amount=d["totalAmount"],
            card_company=None if d.get("cardCompany") is None else d["cardCompany"],
            merchant_name=None if d.get("merchantName") is None else d["merchantName"],
            merchant_business_identifier=None if d.get("merchantBusinessIdentifier") is None else d["merchantBusinessIdentifier"],
            merchant_classification=None if d.get("merchantClassification") is None else d["merchantClassification"],
            business_type_code=None if d.get("businessTypeCode") is None else d["businessTypeCode"],
            business_type_name=None if d.get("businessTypeName") is None else d["businessTypeName"],
            business_item_name=None if d.get("businessItemName") is None else d["businessItemName"],
            tip=None if d.get("tip") is None else d["tip"],
            deductible=None if d.get("deductible") is None else d["deductible"],
            deduction_classification_code=None if d.get("deductionClassificationCode") is None else d["deductionClassificationCode"],
            deduction_classification_name=None if d.get("deductionClassificationName") is None else d["deductionClassificationName"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class BusinessStatusRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "business_number": "businessNumber", "registered": "registered", "status": "status", "status_code": "statusCode", "tax_type": "taxType", "tax_type_code": "taxTypeCode", "closure_date": "closureDate", "unit_taxation_closure": "unitTaxationClosure", "tax_type_change_date": "taxTypeChangeDate", "invoice_apply_date": "invoiceApplyDate", "previous_tax_type": "previousTaxType", "previous_tax_type_code": "previousTaxTypeCode", "change": "change"}
    SCHEMA: ClassVar[str] = "business.status.v1"
    schema: str
    business_number: str
    registered: bool
    status: str | None = None
    status_code: str | None = None
    tax_type: str | None = None
    tax_type_code: str | None = None
    closure_date: str | None = None
    unit_taxation_closure: bool | None = None
    tax_type_change_date: str | None = None
    invoice_apply_date: str | None = None
    previous_tax_type: str | None = None
    previous_tax_type_code: str | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BusinessStatusRecord:
        return cls(
            schema=d["schema"],
            business_number=d["businessNumber"],
            registered=d["registered"],
            status=None if d.get("status") is None else d["status"],
            status_code=None if d.get("statusCode") is None else d["statusCode"],
            tax_type=None if d.get("taxType") is None else d["taxType"],
            tax_type_code=None if d.get("taxTypeCode") is None else d["taxTypeCode"],
            closure_date=None if d.get("closureDate") is None else d["closureDate"],
            unit_taxation_closure=None if d.get("unitTaxationClosure") is None else d["unitTaxationClosure"],
            tax_type_change_date=None if d.get("taxTypeChangeDate") is None else d["taxTypeChangeDate"],
            invoice_apply_date=None if d.get("invoiceApplyDate") is None else d["invoiceApplyDate"],
            previous_tax_type=None if d.get("previousTaxType") is None else d["previousTaxType"],
            previous_tax_type_code=None if d.get("previousTaxTypeCode") is None else d["previousTaxTypeCode"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class CorporateCardRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "card_name": "cardName", "card_number_masked": "cardNumberMasked", "change": "change"}
    SCHEMA: ClassVar[str] = "card.cards.corp.v1"
    schema: str
    card_name: str
    card_number_masked: str
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CorporateCardRecord:
        return cls(
            schema=d["schema"],
            card_name=d["cardName"],
            card_number_masked=d["cardNumberMasked"],
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class CardApprovalRecord:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"schema": "schema", "approval_number": "approvalNumber", "approved_at": "approvedAt", "card_number_masked": "cardNumberMasked", "installment_months": "installmentMonths", "lifecycle_stage": "lifecycleStage", "merchant_address": "merchantAddress", "merchant_business_identifier": "merchantBusinessIdentifier", "merchant_business_type": "merchantBusinessType", "merchant_contact_number": "merchantContactNumber", "merchant_name": "merchantName", "merchant_representative_name": "merchantRepresentativeName", "original_amount": "originalAmount", "original_currency_code": "originalCurrencyCode", "overseas": "overseas", "payment_method": "paymentMethod", "settled_amount": "settledAmount", "settled_currency_code": "settledCurrencyCode", "status": "status", "tax_amount": "taxAmount", "transaction_identifier": "transactionIdentifier", "change": "change"}
    SCHEMA: ClassVar[str] = "card.approvals.corp.v1"
    schema: str
    approval_number: str
    approved_at: str
    card_number_masked: str
    lifecycle_stage: str
    merchant_name: str
    overseas: bool
    payment_method: str
    settled_amount: Decimal
    settled_currency_code: str
    status: str
    transaction_identifier: str
    installment_months: int | None = None
    merchant_address: str | None = None
    merchant_business_identifier: str | None = None
    merchant_business_type: str | None = None
    merchant_contact_number: str | None = None
    merchant_representative_name: str | None = None
    original_amount: Decimal | None = None
    original_currency_code: str | None = None
    tax_amount: Decimal | None = None
    change: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CardApprovalRecord:
        return cls(
            schema=d["schema"],
            approval_number=d["approvalNumber"],
            approved_at=d["approvedAt"],
            card_number_masked=d["cardNumberMasked"],
            lifecycle_stage=d["lifecycleStage"],
            merchant_name=d["merchantName"],
            overseas=d["overseas"],
            payment_method=d["paymentMethod"],
            settled_amount=_decimal(d["settledAmount"]),
            settled_currency_code=d["settledCurrencyCode"],
            status=d["status"],
            transaction_identifier=d["transactionIdentifier"],
            installment_months=None if d.get("installmentMonths") is None else d["installmentMonths"],
            merchant_address=None if d.get("merchantAddress") is None else d["merchantAddress"],
            merchant_business_identifier=None if d.get("merchantBusinessIdentifier") is None else d["merchantBusinessIdentifier"],
            merchant_business_type=None if d.get("merchantBusinessType") is None else d["merchantBusinessType"],
            merchant_contact_number=None if d.get("merchantContactNumber") is None else d["merchantContactNumber"],
            merchant_representative_name=None if d.get("merchantRepresentativeName") is None else d["merchantRepresentativeName"],
            original_amount=None if d.get("originalAmount") is None else _decimal(d["originalAmount"]),
            original_currency_code=None if d.get("originalCurrencyCode") is None else d["originalCurrencyCode"],
            tax_amount=None if d.get("taxAmount") is None else _decimal(d["taxAmount"]),
            change=None if d.get("change") is None else d["change"],
        )


@dataclass(frozen=True)
class CreateRegistrationSessionRequest:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"registration_options": "registrationOptions", "origin_allowlist": "originAllowlist", "client_reference_id": "clientReferenceId", "recover_credential_id": "recoverCredentialId"}
    registration_options: list[RegistrationOption]
    origin_allowlist: list[str]
    client_reference_id: str | None = None
    recover_credential_id: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CreateRegistrationSessionRequest:
        return cls(
            registration_options=[RegistrationOption.from_json(x) for x in d["registrationOptions"]],
            origin_allowlist=list(d["originAllowlist"]),
            client_reference_id=None if d.get("clientReferenceId") is None else d["clientReferenceId"],
            recover_credential_id=None if d.get("recoverCredentialId") is None else d["recoverCredentialId"],
        )


@dataclass(frozen=True)
class RegistrationSessionCreated:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"session_id": "sessionId", "session_token": "sessionToken", "expires_at": "expiresAt", "status": "status"}
    session_id: str
    session_token: str
    expires_at: str
    status: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RegistrationSessionCreated:
        return cls(
            session_id=d["sessionId"],
            session_token=d["sessionToken"],
            expires_at=d["expiresAt"],
            status=d["status"],
        )


@dataclass(frozen=True)
class CreateWebhookEndpointRequest:
    JSON_FIELDS: ClassVar[dict[str, str]] = {"url": "url", "events": "events", "description": "description"}
    url: str
    events: list[str]
    description: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CreateWebhookEndpointRequest:
        return cls(
            url=d["url"],
            events=list(d["events"]),
            description=None if d.get("description") is None else d["description"],
        )


DataJob = Union[InProgressDataJob, SucceededDataJob, FailedDataJob]
JobRecord = Union[BankAccountRecord, BankTransactionRecord, TaxInvoiceSalesRecord, TaxInvoicePurchaseRecord, CashReceiptSalesRecord, CashReceiptPurchaseRecord, TaxInvoiceLineRecord, BusinessCardPurchaseRecord, BusinessStatusRecord, CorporateCardRecord, CardApprovalRecord]

# Each record type by its schema identifier.
RECORD_TYPES: dict[str, type[JobRecord]] = {
    "bank.accounts.cb.v1": BankAccountRecord,
    "bank.transactions.cb.v1": BankTransactionRecord,
    "taxportal.tax-invoices.sales.v1": TaxInvoiceSalesRecord,
    "taxportal.tax-invoices.purchase.v1": TaxInvoicePurchaseRecord,
    "taxportal.cash-receipts.sales.v1": CashReceiptSalesRecord,
    "taxportal.cash-receipts.purchase.v1": CashReceiptPurchaseRecord,
    "taxportal.tax-invoice-lines.v1": TaxInvoiceLineRecord,
    "taxportal.business-card-purchases.v1": BusinessCardPurchaseRecord,
    "business.status.v1": BusinessStatusRecord,
    "card.cards.corp.v1": CorporateCardRecord,
    "card.approvals.corp.v1": CardApprovalRecord,
}


def data_job_from_json(d: dict[str, Any]) -> DataJob:
    kind = d["kind"]
    if kind == "InProgress":
        return InProgressDataJob.from_json(d)
    if kind == "Succeeded":
        return SucceededDataJob.from_json(d)
    return FailedDataJob.from_json(d)
