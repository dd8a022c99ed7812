import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { contentSecurityPolicy, CSP_PLACEHOLDER } from './src/shared/csp';

const alias = { '@shared': resolve(__dirname, 'src/shared') };

/**
 * Writes the page's Content Security Policy into index.html's meta tag from the one definition the
 * hosts send as a header (src/shared/csp.ts), so the two cannot drift apart. The dev server's page gets
 * the development policy (its inline React-refresh preamble, its HMR websocket).
 */
function cspMeta(): Plugin {
  return {
    name: 'portolan-csp-meta',
    transformIndexHtml: {
      order: 'pre',
      handler(html, ctx) {
        if (!html.includes(CSP_PLACEHOLDER)) throw new Error(`index.html has no ${CSP_PLACEHOLDER} to fill`);
        const devUrl = ctx.server?.resolvedUrls?.local[0];
        return html.replace(
          CSP_PLACEHOLDER,
          contentSecurityPolicy(ctx.server ? { url: devUrl ?? 'http://localhost:5173/' } : null),
        );
      },
    },
  };
}

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      // Native and heavy modules stay in node_modules; everything else is bundled.
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // File imports are read and converted in a worker thread of their own (import-worker.ts).
          'import-worker': resolve(__dirname, 'src/main/library/import/import-worker.ts'),
        },
        // An optional dependency (absent where its native build failed), loaded on first use.
        external: ['keytar'],
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      // sandbox: true preloads cannot require() anything but electron: one self-contained CJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    resolve: { alias },
    plugins: [cspMeta(), react()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
