/** Won as the console writes amounts: "108,900원". */
export const won = (amount: number) => `${amount.toLocaleString("ko-KR")}원`;

/**
 * The three rows every amount the console shows is made of, as on a Korean tax invoice: supply, VAT (10%) and total,
 * each cell with an id of its own (`<idPrefix>supply`, `…vat`, `…total`) for whoever reads the page.
 */
export const VatRows = (props: { supply: number; vat: number; total: number; idPrefix?: string }) => {
  const id = (name: string) => `${props.idPrefix ?? ""}${name}`;
  return (
    <>
      <tr>
        <th scope="row">공급가액</th>
        <td id={id("supply")}>{won(props.supply)}</td>
      </tr>
      <tr>
        <th scope="row">부가세 (10%)</th>
        <td id={id("vat")}>{won(props.vat)}</td>
      </tr>
      <tr>
        <th scope="row">합계</th>
        <td id={id("total")}>{won(props.total)}</td>
      </tr>
    </>
  );
};
