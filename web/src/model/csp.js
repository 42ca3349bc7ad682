// The connect-src policy of the page: its own origin, plus the origin of ?url= when it
// is an http(s) address.
export function urlOrigin(pageHref) {
  const page = new URL(pageHref);
  const target = page.searchParams.get('url');
  if (!target) return null;
  try {
    const u = new URL(target, page);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

export function connectPolicy(pageHref) {
  const origin = urlOrigin(pageHref);
  const self = new URL(pageHref).origin;
  return origin && origin !== self ? `connect-src 'self' ${origin}` : "connect-src 'self'";
}
