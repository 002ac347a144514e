/**
 * Phones and tablets by their user agent (docs/api.md): iOS and Android devices, iPads that report
 * themselves as iPads, and the other mobile browsers that still say so. Anything else is a desktop.
 */
const PHONE_OR_TABLET =
  /android|iphone|ipod|ipad|mobile|tablet|silk|kindle|playbook|bb10|blackberry|opera mini|iemobile|windows phone|webos/i;

export const isDesktopUserAgent = (userAgent: string) => !PHONE_OR_TABLET.test(userAgent);

/**
 * A desktop browser shows the app as a phone-width column in the middle of the window (desktop.css)
 * rather than a phone screen stretched across it. iPadOS Safari reports a Mac; its touch points give it away.
 */
export function markDesktop(root: HTMLElement = document.documentElement) {
  const touchMac = /macintosh/i.test(navigator.userAgent) && navigator.maxTouchPoints > 1;
  root.classList.toggle('desktop', isDesktopUserAgent(navigator.userAgent) && !touchMac);
}
