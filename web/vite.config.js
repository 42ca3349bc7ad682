// The web app: a static site with relative paths (any host, any sub-path). The worker
// imports the npm package's build in dist/ as `gotrace`; public/ (the sample trace) is
// served as it is.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

// The page's Content Security Policy, less connect-src: boot.js adds connect-src (the
// page's origin, and the ?url= origin when one is given) as a second policy. Policies
// only ever narrow one another, so connect-src must be absent here. Build only: the dev
// server injects inline scripts. worker-src allows blob: for the page's workers
// (model/policyWorker.js): a one-line blob that imports the bundled worker script, so
// that the worker inherits this policy, connect-src included; its script still comes
// from 'self' and nowhere else.
const csp = [
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "media-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const cspMeta = {
  name: 'gotrace-csp',
  apply: 'build',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: csp }, injectTo: 'head-prepend' },
  ],
};

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: here('../public'),
  plugins: [preact(), cspMeta],
  resolve: { alias: { gotrace: here('../dist/index.js') } },
  worker: { format: 'es' },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
});
