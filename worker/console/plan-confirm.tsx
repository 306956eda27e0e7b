import type { TestCard } from "../domain/billing/replica-test-cards";
import type { UpgradeQuote } from "../domain/billing/upgrade-quote";
import { PLAN_NAMES } from "../domain/workspaces/plans";
import { CsrfField, SidewaysScroll } from "../web/layout";
import { VatRows, won } from "./amounts";

/**
 * The upgrade's second step, rendered by the server: what the card will be charged (공급가액, 부가세, 합계, credits) and
 * which card, with the one button that charges it. The button carries the amount shown, and the charge goes ahead only
 * while that is still the amount (billing.tsx changePlanForm), so nobody pays a sum they did not see.
 */
export const PlanConfirm = (props: { quote: UpgradeQuote; action: string; cancel: string; csrf: string }) => {
  const { quote } = props;
  return (
    <section id="plan-confirm" data-plan={quote.plan} data-charged={quote.chargedAmount} aria-labelledby="plan-confirm-title">
      <h3 id="plan-confirm-title">{PLAN_NAMES[quote.plan]} 플랜 결제 확인</h3>
      <p>아래 금액을 확인한 뒤 결제해 주세요. 결제를 누르기 전에는 아무것도 청구하지 않습니다.</p>
      <SidewaysScroll>
        <table>
          <tbody>
            <VatRows supply={quote.supplyAmount} vat={quote.vatAmount} total={quote.totalAmount} idPrefix="confirm-" />
            {quote.creditAmount > 0 && (
              <tr>
                <th scope="row">크레딧</th>
                <td id="confirm-credit">-{won(quote.creditAmount)}</td>
              </tr>
            )}
            <tr>
              <th scope="row">결제 금액</th>
              <td id="confirm-charged">
                <strong>{won(quote.chargedAmount)}</strong>
                {quote.card && ` (끝자리 ${quote.card.cardLast4} 카드)`}
              </td>
            </tr>
          </tbody>
        </table>
      </SidewaysScroll>
      <p>결제한 때부터 한 달이 결제 기간이고, 기간이 끝나면 같은 금액으로 갱신 결제합니다.</p>
      <form method="post" action={props.action}>
        <CsrfField token={props.csrf} />
        <input type="hidden" name="plan" value={quote.plan} />
        <input type="hidden" name="confirmedAmount" value={String(quote.chargedAmount)} />
        <button type="submit">{won(quote.chargedAmount)} 결제하고 {PLAN_NAMES[quote.plan]} 플랜 시작</button>
      </form>
      <p>
        <a href={props.cancel}>취소</a>
      </p>
    </section>
  );
};

const grouped = (number: string) => number.replace(/(\d{4})(?=\d)/g, "$1 ");

/** The sandbox replica's test cards, beside the form they are typed into: only where the gateway is that replica. */
export const TestCards = (props: { cards: TestCard[] }) => (
  <section id="test-cards" aria-labelledby="test-cards-title">
    <h3 id="test-cards-title">샌드박스 테스트 카드</h3>
    <p>이 환경의 결제대행사는 샌드박스의 PortOne 복제본이라 실제로 청구하지 않습니다. 유효기간, 생년월일, 비밀번호 앞 두 자리는 아무 값이나 됩니다.</p>
    <SidewaysScroll>
      <table>
        <thead>
          <tr>
            <th scope="col">카드 번호</th>
            <th scope="col">등록</th>
            <th scope="col">결제</th>
          </tr>
        </thead>
        <tbody>
          {props.cards.map((card) => (
            <tr data-test-card={card.number}>
              <td>{grouped(card.number)}</td>
              <td>{card.registers ? "됨" : `거절 (${card.refusedWith})`}</td>
              <td>{!card.registers ? "-" : card.refusedWith ? `거절 ${card.refusedWith}: ${card.pgMessage ?? ""}` : "결제됨"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </SidewaysScroll>
  </section>
);
