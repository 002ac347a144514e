import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  // Served by the server under /admin/ (apps/server/src/app.ts).
  base: '/admin/',
  // .vite/manifest.json: which chunks and CSS the entry loads, read by the sign-in budget test.
  build: { manifest: true },
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { proxy: { '/admin/api': 'http://localhost:8080' } },
});
