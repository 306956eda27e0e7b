/** The JSON envelope every replica answer carries (S1 comment, S2 fixtures; docs/institutions/hometax.md §2). */
export const OK = { detailMsg: "", msg: "", code: "", result: "S" };

/** A refusal in the portal's `resultMsg` shape (S1's quoted `ETICMZ0008` answer). */
export const failure = (msg: string, code = "") => ({ resultMsg: { detailMsg: "", msg, code, result: "F", exceptType: "APPLICATION", serviceTxId: `PTEET_${Date.now()}`, detailLogYn: "N" } });
