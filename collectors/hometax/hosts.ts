/** The portal and the two sub-sites the adapter calls, each its own application and session (S1, S2, S3). */
export const PORTAL = "https://hometax.go.kr";
/** The portal under the name current clients log in on (S1 challenge and pubcLogin.do; S3 every login call). */
export const WWW = "https://www.hometax.go.kr";
export const TEET = "https://teet.hometax.go.kr";
export const TECR = "https://tecr.hometax.go.kr";
/** NetFunnel, the queue the login page takes a ticket from (S2, S4, S10, S11). */
export const NETFUNNEL = "https://apct.hometax.go.kr";

export const HOMETAX_HOSTS = [PORTAL, WWW, TEET, TECR, NETFUNNEL].map((origin) => new URL(origin).hostname);

/** `wqAction.do` of a site: every data call is this URL with its action and screen (S1 `action_params`). */
export function actionUrl(site: string, actionId: string, screenId: string, popup = false): string {
  return `${site}/wqAction.do?${new URLSearchParams({ actionId, screenId, popupYn: String(popup), realScreenId: "" })}`;
}
