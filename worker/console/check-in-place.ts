/**
 * Inline script of the credentials page: a row's "지금 확인" posts its form in the background and puts the answer's
 * row (확인 중) and its notice or refusal in place, then reads the page again every two seconds, swapping that row,
 * until its check is no longer CHECKING (a minute at most), as the jobs pages follow a job. Without it the form posts
 * as any other and the list answers.
 */
export const CHECK_IN_PLACE_SCRIPT = `
const outcome = document.getElementById("check-outcome");
const parse = async (answer) => new DOMParser().parseFromString(await answer.text(), "text/html");
const bind = (form) => form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = form.closest("tr").id;
  form.querySelector("button").disabled = true;
  let page;
  try { page = await parse(await fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)) })); }
  catch { return form.submit(); }
  const said = page.querySelector("main .notice[role=status], main [role=alert]");
  outcome.replaceChildren(...(said ? [document.importNode(said, true)] : []));
  const swap = (doc) => {
    const fresh = doc.getElementById(id), shown = document.getElementById(id);
    if (!fresh || !shown) return null;
    const adopted = document.importNode(fresh, true);
    shown.replaceWith(adopted);
    for (const again of adopted.querySelectorAll("form[data-check-in-place]")) bind(again);
    return adopted;
  };
  let row = swap(page);
  row?.querySelector("form[data-check-in-place] button")?.focus();
  for (let i = 0; i < 30 && row && row.querySelector("[data-check]").dataset.check === "CHECKING"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    try { row = swap(await parse(await fetch(location.pathname))) ?? row; } catch { break; }
  }
});
for (const form of document.querySelectorAll("form[data-check-in-place]")) bind(form);
`;
