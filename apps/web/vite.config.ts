import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // Brotli and gzip twins of every asset, written once at build time; the server picks one per request
  // (@fastify/static preCompressed) so no CPU is spent compressing on the hot path.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  base: './',
  // .vite/manifest.json: which chunks and CSS each entry and dynamic import loads, read by the first-screen
  // budget test (src/first-screen-budget.test.ts).
  build: {
    manifest: true,
    rollupOptions: {
      output: {
        // Vite's preload helper stays with the messages' loader (src/i18n), which the entry loads before
        // anything else: a lazy chunk that needs the helper then imports a chunk already there, instead of
        // the helper being split into a chunk of its own that the first screen downloads too (0.2 KB more).
        // Everything else the entry imports statically is one chunk with it: split by which lazy screens
        // share it, it was 17 files, and a phone on HTTP/1.1 (six connections) waited a round trip for each
        // batch of six before the first paint (Lighthouse's phone run: first paint 2.2 → 1.9 s).
        codeSplitting: {
          groups: [
            { name: 'i18n', test: /vite\/preload-helper|src\/i18n\/index\.ts/ },
            { name: 'app', tags: ['$initial'] },
          ],
        },
      },
    },
  },
  // The version the settings screen shows: the package's, fixed into the bundle when it is built.
  define: { __APP_VERSION__: JSON.stringify(version) },
  // Some of antd-mobile's dependencies accept only React ≤ 18, so npm hoists a React 18 beside ours;
  // one copy of React must serve the whole bundle.
  resolve: { dedupe: ['react', 'react-dom'] },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/manifest.json': 'http://localhost:8080',
      '/v1': { target: 'http://localhost:8080', ws: true },
    },
  },
});
