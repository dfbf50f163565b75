/**
 * The configured links the landing renders (`SUPPORT_URL` as an href, `CONTACT_EMAIL` in a mailto:):
 * what the server accepts at start and the web app checks again before rendering.
 */

/** An address a `mailto:` link may carry as it is: no query (`?cc=`, `&body=`), no spaces, nothing to escape. */
export const PLAIN_EMAIL = /^[A-Za-z0-9.!#$'*+/=^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/** A path of this site: one leading slash (`//host` and `/\host` are another host to a browser), no spaces. */
export function isSitePath(url: string): boolean {
  return url.startsWith('/') && !/^\/[/\\]/.test(url) && !/[\s\\]/.test(url);
}

/** An absolute http(s) URL. */
export function isHttpUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
