import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const alias = { '@shared': resolve(__dirname, 'src/shared') };

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
    plugins: [react()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
