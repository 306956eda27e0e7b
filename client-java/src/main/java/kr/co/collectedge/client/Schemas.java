// Generated from client/openapi.json by scripts/generate-partner-clients.ts; do not edit.
package kr.co.collectedge.client;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** The service's records, requests and answers; nullable fields are the document's optional or null ones. */
public final class Schemas {
  private Schemas() {}

  /** A job as GET /data-jobs/{id} answers it: InProgress, Succeeded or Failed (its `kind`). */
  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "kind", visible = true)
  @JsonSubTypes({
    @JsonSubTypes.Type(value = InProgressDataJob.class, name = "InProgress"),
    @JsonSubTypes.Type(value = SucceededDataJob.class, name = "Succeeded"),
    @JsonSubTypes.Type(value = FailedDataJob.class, name = "Failed")
  })
  public sealed interface DataJob permits InProgressDataJob, SucceededDataJob, FailedDataJob {
    String kind();
    String id();
    String providerCode();
    String schema();
    String credentialId();
    long suggestedPollIntervalMs();
    long maxWaitSeconds();
  }

  /** A job's records of one schema, each a record type below. */
  public sealed interface JobRecord permits BankAccountRecord, BankTransactionRecord, TaxInvoiceSalesRecord, TaxInvoicePurchaseRecord, CashReceiptSalesRecord, CashReceiptPurchaseRecord, TaxInvoiceLineRecord, BusinessCardPurchaseRecord, BusinessStatusRecord, CorporateCardRecord, CardApprovalRecord {
    String schema();
    String change();
  }

  /** Each record type by its schema identifier. */
  public static final Map<String, Class<? extends JobRecord>> RECORD_TYPES = Map.ofEntries(
    Map.entry("bank.accounts.cb.v1", BankAccountRecord.class),
    Map.entry("bank.transactions.cb.v1", BankTransactionRecord.class),
    Map.entry("taxportal.tax-invoices.sales.v1", TaxInvoiceSalesRecord.class),
    Map.entry("taxportal.tax-invoices.purchase.v1", TaxInvoicePurchaseRecord.class),
    Map.entry("taxportal.cash-receipts.sales.v1", CashReceiptSalesRecord.class),
    Map.entry("taxportal.cash-receipts.purchase.v1", CashReceiptPurchaseRecord.class),
    Map.entry("taxportal.tax-invoice-lines.v1", TaxInvoiceLineRecord.class),
    Map.entry("taxportal.business-card-purchases.v1", BusinessCardPurchaseRecord.class),
    Map.entry("business.status.v1", BusinessStatusRecord.class),
    Map.entry("card.cards.corp.v1", CorporateCardRecord.class),
    Map.entry("card.approvals.corp.v1", CardApprovalRecord.class)
  );

  public record ApiError(
      String code,
      String message,
      String requestId,
      List<FieldError> fieldErrors
  ) {
  }

  public record HolderApproval(
      String method,
      String provider,
      String since,
      String until
  ) {
  }

  public record InProgressDataJob(
      String kind,
      String id,
      String providerCode,
      String schema,
      String credentialId,
      long suggestedPollIntervalMs,
      long maxWaitSeconds,
      String unpublishedFrom,
      String phase,
      long completedTaskCount,
      long totalTaskCount,
      Long queuePosition,
      String maintenanceUntil,
      HolderApproval awaitingHolder
  ) implements DataJob {
  }

  public record SucceededDataJob(
      String kind,
      String id,
      String providerCode,
      String schema,
      String credentialId,
      long suggestedPollIntervalMs,
      long maxWaitSeconds,
      String unpublishedFrom,
      long recordCount,
      String since,
      String resultsExpireAt
  ) implements DataJob {
  }

  public record FailedDataJob(
      String kind,
      String id,
      String providerCode,
      String schema,
      String credentialId,
      long suggestedPollIntervalMs,
      long maxWaitSeconds,
      String unpublishedFrom,
      JobError error,
      String resultsExpireAt
  ) implements DataJob {
  }

  public record JobError(
      String category,
      String code,
      String message,
      boolean retryable,
      Long retryAfterSeconds
  ) {
  }

  public record FieldError(
      String field,
      String code,
      String message
  ) {
  }

  public record CreateDataJobRequest(
      String providerCode,
      String schema,
      JsonNode params,
      String credentialId,
      String deliveryRouteId,
      String connectionId
  ) {
  }

  public record DataJobListItem(
      String kind,
      String id,
      String providerCode,
      String schema,
      String credentialId,
      HolderApproval awaitingHolder,
      JobError error
  ) {
  }

  public record DataJobPage(
      List<DataJobListItem> items,
      String nextCursor
  ) {
  }

  public record DataJobResultsDeletion(
      String jobId,
      long recordCount,
      String deletedAt,
      String reason
  ) {
  }

  public record DownloadLink(
      String url,
      String expiresAt
  ) {
  }

  public record CreateDownloadLinkRequest(
      Integer expiresInSeconds,
      String format
  ) {
  }

  public record RegistrationOption(
      String kind,
      List<String> schemas,
      String providerCode
  ) {
  }

  public record RegistrationSession(
      String sessionId,
      String status,
      String expiresAt,
      String clientReferenceId,
      List<RegistrationOption> registrationOptions,
      List<String> originAllowlist,
      int attempts,
      int maxAttempts,
      String credentialId,
      CredentialCheck credentialCheck
  ) {
  }

  public record CredentialCheck(
      String state,
      JobError error,
      String checkedAt
  ) {
  }

  public record Provider(
      String code,
      String name,
      String kind,
      boolean sandbox,
      String verification,
      List<String> schemas,
      List<String> acceptedAuthMethods,
      int maxDateRangeDays,
      List<JsonNode> freshness,
      JsonNode status,
      List<JsonNode> maintenance
  ) {
  }

  public record SchemaDetail(
      String id,
      String title,
      List<String> providerCodes,
      JsonNode params,
      JsonNode record
  ) {
  }

  public record WebhookEndpointWithSecret(
      String id,
      String url,
      String description,
      List<String> events,
      String createdAt,
      String updatedAt,
      String previousSecretExpiresAt,
      String secret
  ) {
  }

  public record BankAccountRecord(
      String schema,
      String accountNumber,
      String accountNumberFormatted,
      String accountType,
      BigDecimal availableBalance,
      BigDecimal balance,
      String currencyCode,
      String displayName,
      String productName,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "bank.accounts.cb.v1";
  }

  public record BankTransactionRecord(
      String schema,
      String accountNumber,
      String accountNumberFormatted,
      String accountType,
      BigDecimal amount,
      BigDecimal balance,
      String currencyCode,
      String description,
      String identifier,
      String transactionAt,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "bank.transactions.cb.v1";
  }

  public record TaxInvoiceSalesRecord(
      String schema,
      String issueDate,
      String writeDate,
      BigDecimal supplyAmount,
      BigDecimal taxAmount,
      BigDecimal totalAmount,
      String buyerAddress,
      String buyerEmail,
      String buyerEmailSecondary,
      String buyerOrganizationName,
      String buyerRepresentativeName,
      String buyerSubBusinessNumber,
      String invoiceClassification,
      String invoiceKind,
      String issueChannel,
      String itemName,
      String itemRemark,
      String itemSpecification,
      String ntsTransactionId,
      String paymentType,
      String remark,
      String supplierAddress,
      String supplierEmail,
      String supplierOrganizationName,
      String supplierRepresentativeName,
      String supplierSubBusinessNumber,
      String trusteeBusinessIdentifier,
      String trusteeOrganizationName,
      BigDecimal itemQuantity,
      BigDecimal itemSupplyAmount,
      BigDecimal itemTaxAmount,
      BigDecimal itemUnitPrice,
      String itemSupplyDate,
      String sendDate,
      String supplierBusinessIdentifier,
      String buyerBusinessIdentifier,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "taxportal.tax-invoices.sales.v1";
  }

  public record TaxInvoicePurchaseRecord(
      String schema,
      String issueDate,
      String writeDate,
      BigDecimal supplyAmount,
      BigDecimal taxAmount,
      BigDecimal totalAmount,
      String buyerAddress,
      String buyerEmail,
      String buyerEmailSecondary,
      String buyerOrganizationName,
      String buyerRepresentativeName,
      String buyerSubBusinessNumber,
      String invoiceClassification,
      String invoiceKind,
      String issueChannel,
      String itemName,
      String itemRemark,
      String itemSpecification,
      String ntsTransactionId,
      String paymentType,
      String remark,
      String supplierAddress,
      String supplierEmail,
      String supplierOrganizationName,
      String supplierRepresentativeName,
      String supplierSubBusinessNumber,
      String trusteeBusinessIdentifier,
      String trusteeOrganizationName,
      BigDecimal itemQuantity,
      BigDecimal itemSupplyAmount,
      BigDecimal itemTaxAmount,
      BigDecimal itemUnitPrice,
      String itemSupplyDate,
      String sendDate,
      String supplierBusinessIdentifier,
      String buyerBusinessIdentifier,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "taxportal.tax-invoices.purchase.v1";
  }

  public record CashReceiptSalesRecord(
      String schema,
      String approvalNumber,
      BigDecimal supplyAmount,
      BigDecimal taxAmount,
      BigDecimal totalAmount,
      String transactionAt,
      BigDecimal tip,
      String issueMethod,
      String issueType,
      String remark,
      String transactionType,
      String useType,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "taxportal.cash-receipts.sales.v1";
  }

  public record CashReceiptPurchaseRecord(
      String schema,
      String approvalNumber,
      BigDecimal supplyAmount,
      BigDecimal taxAmount,
      BigDecimal totalAmount,
      String transactionAt,
      BigDecimal tip,
      String businessTypeCode,
      String businessTypeName,
      String contactNumber,
      String deductible,
      String deductionClassificationCode,
      String deductionClassificationName,
      String issueMethod,
      String issueTypeCode,
      String issueTypeName,
      String lotAddress,
      String merchantBusinessIdentifier,
      String merchantClassification,
      String organizationName,
      String roadAddress,
      String transactionType,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "taxportal.cash-receipts.purchase.v1";
  }

  public record TaxInvoiceLineRecord(
      String schema,
      String approvalNumber,
      String side,
      String writeDate,
      int lineNumber,
      String itemName,
      String itemSpecification,
      BigDecimal quantity,
      BigDecimal unitPrice,
      long supplyAmount,
      Long taxAmount,
      String supplyDate,
      String remark,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "taxportal.tax-invoice-lines.v1";
  }

  public record BusinessCardPurchaseRecord(
      String schema,
      String transactionIdentifier,
      String transactionDate,
      String cardNumberMasked,
      String cardCompany,
      String merchantName,
      String merchantBusinessIdentifier,
      String merchantClassification,
      String businessTypeCode,
      String businessTypeName,
      String businessItemName,
      long supplyAmount,
      long taxAmount,
      Long tip,
      long totalAmount,
      String deductible,
      String deductionClassificationCode,
      String deductionClassificationName,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "taxportal.business-card-purchases.v1";
  }

  public record BusinessStatusRecord(
      String schema,
      String businessNumber,
      boolean registered,
      String status,
      String statusCode,
      String taxType,
      String taxTypeCode,
      String closureDate,
      Boolean unitTaxationClosure,
      String taxTypeChangeDate,
      String invoiceApplyDate,
      String previousTaxType,
      String previousTaxTypeCode,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "business.status.v1";
  }

  public record CorporateCardRecord(
      String schema,
      String cardName,
      String cardNumberMasked,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "card.cards.corp.v1";
  }

  public record CardApprovalRecord(
      String schema,
      String approvalNumber,
      String approvedAt,
      String cardNumberMasked,
      Integer installmentMonths,
      String lifecycleStage,
      String merchantAddress,
      String merchantBusinessIdentifier,
      String merchantBusinessType,
      String merchantContactNumber,
      String merchantName,
      String merchantRepresentativeName,
      BigDecimal originalAmount,
      String originalCurrencyCode,
      boolean overseas,
      String paymentMethod,
      BigDecimal settledAmount,
      String settledCurrencyCode,
      String status,
      BigDecimal taxAmount,
      String transactionIdentifier,
      String change
  ) implements JobRecord {
    public static final String SCHEMA = "card.approvals.corp.v1";
  }

  public record CreateRegistrationSessionRequest(
      List<RegistrationOption> registrationOptions,
      List<String> originAllowlist,
      String clientReferenceId,
      String recoverCredentialId
  ) {
  }

  public record RegistrationSessionCreated(
      String sessionId,
      String sessionToken,
      String expiresAt,
      String status
  ) {
  }

  public record CreateWebhookEndpointRequest(
      String url,
      List<String> events,
      String description
  ) {
  }
}
