import type { Child } from "hono/jsx";
import { ApiError } from "../platform/errors/api-error";

/** A destructive form's one field besides its token: the person ticks it, so no single stray click (or a link previewer) acts. */
const CONFIRM_FIELD = "confirm";

/** The box to tick, saying what the form's button is about to do and what cannot be undone. */
export const ConfirmBox = (props: { children: Child }) => (
  <label>
    <input type="checkbox" name={CONFIRM_FIELD} value="yes" required style="width:auto" /> {props.children}
  </label>
);

/**
 * Refuses a posted form whose box was not ticked: 400 MISSING_REQUIRED_PARAM with `message`. Browsers require the box
 * before they send, so this answers posts made some other way.
 */
export function requireConfirmed(form: Record<string, unknown>, message: string): void {
  if (form[CONFIRM_FIELD] !== "yes") throw new ApiError("MISSING_REQUIRED_PARAM", { message });
}
