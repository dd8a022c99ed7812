// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import { dependencyPolicies, elementDescriptors } from './architecture.config.mjs';

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

// DuckDB's window operator up to 1.5.5 failed now and then ("INTERNAL Error: Attempted to access index 0
// within vector of size 0") on a window with neither PARTITION BY nor ORDER BY, `count(*) OVER ()`, when
// it ran on more than one thread (duckdb/duckdb#22846 and #25713, which report the database unusable after
// it until the app restarts; seen in this project's CI). Such a window reads its input as it came, and an
// empty chunk of it let a thread finish the window before another had begun (duckdb/duckdb#22373); a
// frame (`OVER (ROWS BETWEEN …)`) or a named window (`WINDOW w AS ()`) without either clause is the same
// window. A scalar subquery over the same rows gives the same figure. A partitioned or ordered window is
// sorted first and never sees an empty chunk; `row_number() OVER ()` runs in another operator: both allowed.
// 1.5.6, the version pinned, has the fix; the rule stays so that a DuckDB without it (the pin moved back)
// cannot bring the failure back unnoticed. Only an OVER after a call's `)`, or first in a template's part
// after an interpolation (the call being interpolated), is SQL; prose "over (…)" is not.
const unsortedSpec = '\\((?![^)]*\\b(?:PARTITION|ORDER)\\s+BY\\b)';
const unsortedWindow = `/(?<!row_number\\(\\)\\s*)(?<=(?:\\)|^)\\s*)OVER\\s*${unsortedSpec}|\\bWINDOW\\s+\\w+\\s+AS\\s*${unsortedSpec}/i`;
const duckdbSql = ['TemplateElement[value.raw=', 'Literal[value='].map((node) => ({
  selector: `${node}${unsortedWindow}]`,
  message:
    'A window without PARTITION BY or ORDER BY failed intermittently in DuckDB up to 1.5.5 and invalidated the library (duckdb/duckdb#25713): count with a scalar subquery over the same rows instead.',
}));

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
      'no-restricted-syntax': ['error', ...rawIpc, ...duckdbSql],
    },
  },
  {
    // Type-aware checks of the app's sources: a switch over a union (an AppCommand, a job's progress, an
    // error kind…) must name every member, so a new variant cannot be forgotten silently.
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        project: ['tsconfig.json', 'tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': ['error', ...rawIpc, ...rendererSyntax],
    },
  },
  {
    // The architecture table (architecture.config.mjs, shown in docs/architecture.md): which folder may
    // import which folder, through which entry, and which packages. Anything else is an error, and so
    // is a source file in a folder the table does not list.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elementDescriptors(),
      'boundaries/include': ['src/**/*'],
      // The file-mode descriptor of the shell's entry is still the documented way for a single file.
      'boundaries/legacy-warnings': false,
      // Imports resolve as the bundler does: relative paths with TypeScript's extensions, `@shared/…`.
      'import/resolver': {
        alias: { map: [['@shared', './src/shared']], extensions: ['.ts', '.tsx', '.mjs', '.js'] },
        node: { extensions: ['.ts', '.tsx', '.mjs', '.js'] },
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          checkAllOrigins: true,
          message:
            'Architecture (docs/architecture.md): {{from.element.type}} may not import {{to.element.type}}{{#if to.module.source}}{{to.module.source}}{{/if}} {{to.file.internalPath}}.',
          policies: dependencyPolicies(),
        },
      ],
      'boundaries/no-unknown-files': 'error',
    },
  },
  {
    // One owner of the library's writes: a unit of work (library.write(tx => …)). Only the library's
    // own unit, its migrations and the connection wrapper open a transaction.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/library/library.ts', 'src/main/library/schema.ts', 'src/main/library/db.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...rawIpc,
        ...duckdbSql,
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: "Write the library's tables in a unit of work: library.write((tx) => …).",
        },
      ],
    },
  },
  {
    // Where the bridge is installed: the one place that reads window.portolan.
    files: ['src/renderer/src/main.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...rawIpc, ...rendererSyntax.slice(1)] },
  },
  {
    // The two typed wrappers are the only places raw IPC is allowed.
    files: ['src/main/shell/ipc-handle.ts', 'src/preload/index.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
