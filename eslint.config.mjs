// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const electronOnlyInShell = {
  name: 'electron',
  message:
    'Electron is imported only by the thin shell (src/main/index.ts, src/main/shell/**) and the preload.',
};
const keytarOnlyInSecrets = {
  name: 'keytar',
  message: 'keytar is imported only by src/main/secrets.',
};
const rawIpc = [
  {
    selector: "MemberExpression[object.name='ipcRenderer']",
    message: 'Use the typed bridge (src/preload) instead of raw ipcRenderer.',
  },
  {
    selector: "MemberExpression[object.name='ipcMain']",
    message: 'Register handlers through the typed handle wrapper (src/main/shell/ipc-handle.ts).',
  },
  {
    selector: "MemberExpression[property.name='send'][object.property.name='webContents']",
    message: 'Emit events through the typed event sender (src/main/shell/ipc-handle.ts).',
  },
];

/** Imports every renderer file is denied: Node, main, and another folder's insides past its index. */
const rendererBase = [
  { group: ['node:*', '**/main/**'], message: 'The renderer reaches main only through the bridge.' },
  {
    regex: '^(\\.\\./)+(session|store|features/[a-z-]+)/',
    message: 'Enter session, store and each feature through its index (`../../session`, `../filters`).',
  },
];
const rendererImports = (forbidden) => ({
  paths: [electronOnlyInShell, keytarOnlyInSecrets],
  patterns: [...rendererBase, ...forbidden],
});
/** A layer may not import the layers named: those above it. */
const above = (names, layer) => ({
  regex: `^(\\.\\./)+(${names.join('|')})(/|$)`,
  message: `${layer} may not import ${names.join(', ')}: only layers below it (docs/architecture.md).`,
});
const RENDERER_LAYERS = [
  {
    files: ['src/renderer/src/features/**/*.{ts,tsx}'],
    forbidden: [
      above(['app'], 'A feature'),
      {
        regex: '^\\.\\./(?!\\.\\.)[a-z-]+/',
        message: "Enter another feature through its index ('../filters'), not its files.",
      },
    ],
  },
  {
    files: ['src/renderer/src/components/**/*.{ts,tsx}'],
    forbidden: [above(['app', 'features'], 'A shared component')],
  },
  {
    files: ['src/renderer/src/session/**/*.{ts,tsx}'],
    forbidden: [above(['app', 'features', 'components'], 'Session state')],
  },
  {
    files: ['src/renderer/src/store/**/*.{ts,tsx}', 'src/renderer/src/bridge/**/*.{ts,tsx}'],
    forbidden: [
      above(['app', 'features', 'components', 'session', 'store', 'bridge'], 'The store kit or the bridge'),
    ],
  },
];
const rendererSyntax = [
  {
    selector: "MemberExpression[object.name='window'][property.name='portolan']",
    message: 'The bridge is installed once in main.tsx (setApi) and read with getApi() inside actions.',
  },
  {
    selector: 'CallExpression[callee.name=/^use[A-Z][A-Za-z]*Store$/][arguments.length=0]',
    message: 'Subscribe with a selector (useXStore((s) => s.field)); actions come from useXStore.getState().',
  },
];

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'resources/**', '**/*.cjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [electronOnlyInShell, keytarOnlyInSecrets] }],
      'no-restricted-syntax': ['error', ...rawIpc],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', rendererImports([])],
      'no-restricted-syntax': ['error', ...rawIpc, ...rendererSyntax],
    },
  },
  // The renderer's layers (docs/architecture.md): app > features > components > session > store, bridge.
  // Nothing imports a layer above its own, and a folder is entered through its index.
  ...RENDERER_LAYERS.map(({ files, forbidden }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', rendererImports(forbidden)] },
  })),
  {
    // Where the bridge is installed: the one place that reads window.portolan.
    files: ['src/renderer/src/main.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...rawIpc, ...rendererSyntax.slice(1)] },
  },
  {
    files: ['src/main/index.ts', 'src/main/shell/**/*.ts', 'src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [keytarOnlyInSecrets] }] },
  },
  {
    files: ['src/main/secrets/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnlyInShell] }] },
  },
  {
    // The two typed wrappers are the only places raw IPC is allowed.
    files: ['src/main/shell/ipc-handle.ts', 'src/preload/index.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
