/** Where a signed-in user enters the code a command-line client shows (RFC 8628 verification URI). */
export const DEVICE_CODE_PAGE = "/console/device";
