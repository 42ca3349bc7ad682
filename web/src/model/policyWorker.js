// Workers that live under the page's Content Security Policy. A worker loaded from a file
// of the site gets no policy of its own unless the server sends one (a static host may
// not), so its fetches would reach any origin; a worker started from a blob: URL inherits
// the page's policy, connect-src included. The blob is one line that imports the bundled
// script, which still comes from the site ('self') and nowhere else.
export function policyWorker(scriptUrl, { type = 'module', name } = {}) {
  const script = new URL(scriptUrl, location.href).href;
  const source = type === 'module' ? `import ${JSON.stringify(script)};` : `importScripts(${JSON.stringify(script)});`;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url, { type, name });
  // The worker has fetched its one line once it runs; the blob can go at once.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return worker;
}
