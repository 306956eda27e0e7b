/** A card as its holder types it in to register it for recurring charges: passed to the gateway, never stored. */
export interface CardDetails {
  number: string;
  /** Two digits each, as Korean card forms ask for them. */
  expiryYear: string;
  expiryMonth: string;
  /** 생년월일 (YYMMDD) for a personal card, 사업자등록번호 for a corporate one. */
  birthOrBusinessRegistrationNumber: string;
  /** The first two digits of the card's PIN. */
  passwordTwoDigits: string;
}

/**
 * A payment gateway's recurring card billing, as worker/domain/billing/ uses it. Refusals are thrown as the catalog's 402
 * codes (CARD_DECLINED, CARD_LIMIT_EXCEEDED, INSUFFICIENT_FUNDS, MERCHANT_LIMIT_EXCEEDED, PAYMENT_FAILED).
 */
export interface PaymentGateway {
  registerCard(card: CardDetails, customerId: string): Promise<{ billingKey: string }>;
  /**
   * Charges the card once per `paymentId`: asked again for an id already paid (a retry after a crash), it answers that
   * payment instead of charging twice.
   */
  charge(input: { paymentId: string; billingKey: string; orderName: string; amount: number; customerId: string }): Promise<{ transactionId: string; paidAt: number }>;
  /**
   * What the gateway holds as paid under `paymentId`, if it is the payment asked for: paid, in won, at our store, of
   * `amount`, with the card whose billing key hashes (SHA-256, hex) to one of `billingKeyHashes`. Null for anything
   * else (unknown, refused, refunded, or another payment under that id), which is never recorded as ours.
   */
  paidPayment(paymentId: string, expected: { amount: number; billingKeyHashes: readonly string[] }): Promise<{ transactionId: string; paidAt: number; amount: number; billingKeyHash: string } | null>;
  /** Gives a payment's money back whole (PortOne's "cancel"); one already given back is no error. */
  refund(paymentId: string, reason: string): Promise<void>;
  /** Deletes the billing key at the gateway; one already gone is no error. */
  forgetCard(billingKey: string): Promise<void>;
}
