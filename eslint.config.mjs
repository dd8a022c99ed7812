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
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInShell, keytarOnlyInSecrets],
          patterns: [
            {
              group: ['node:*', '**/main/**'],
              message: 'The renderer reaches main only through the bridge.',
            },
          ],
        },
      ],
    },
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
