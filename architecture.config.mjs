// @ts-check
/**
 * The architecture table: every folder of the app, what it is for, which folders and packages it may
 * import. ESLint enforces it (eslint.config.mjs builds the `boundaries/dependencies` policies from it)
 * and docs/architecture.md shows it (test/architecture checks the doc's table is this one, and that
 * each kind of rule fails on a violation).
 *
 * Imports between folders go to a folder's `index.ts` (its entry), except into `shared`, whose files are
 * small leaf modules imported one by one (the sandboxed preload must take exactly the two files it needs).
 */

/** Node's own modules (`node:fs`, …); allowed only where `node` is true. */
const NODE = true;

/**
 * @typedef {object} Layer
 * @property {string} type Element name used in the rules and error messages.
 * @property {string[]} paths Folders (or single files) of the element, from the repository root.
 * @property {string} what What lives there, for the doc.
 * @property {string[]} imports Elements it may import (its own files always).
 * @property {string[]} packages npm packages it may import.
 * @property {boolean} node Whether Node's built-in modules are allowed.
 * @property {string} [entry] How other elements enter it: 'index.ts' (default for src/main), '*' (any file), or a
 *   glob of its entry files.
 */

/** @type {Layer[]} */
export const LAYERS = [
  {
    type: 'shared',
    paths: ['src/shared'],
    what: "The service's model (`spec`: filter and request schemas, record fields, response parsers, usage), the one field model (`fields`: every field's type and title, the decimal-text and day rules, the default columns, used by grids, SQL, exporters and importers alike), the file handle (`files`), one bridge contract per capability (`<capability>/<capability>-contract.ts`), the aggregate map (`ipc/contract.ts`), error kinds and `buildApi` (`ipc`), rules both sides apply.",
    imports: [],
    packages: ['zod', 'papaparse'],
    node: false,
    entry: '*',
  },
  {
    type: 'log',
    paths: ['src/main/log'],
    what: 'The one redacting logger.',
    imports: ['shared'],
    packages: [],
    node: NODE,
  },
  {
    type: 'fs',
    paths: ['src/main/fs'],
    what: 'Atomic file replacement (temp file, fsync, rename) for every settings-like file.',
    imports: [],
    packages: [],
    node: NODE,
  },
  {
    type: 'file-handles',
    paths: ['src/main/file-handles'],
    what: 'The registry of file handles: which path each stands for, for which purpose; uploads it owns.',
    imports: ['shared'],
    packages: [],
    node: NODE,
  },
  {
    type: 'api',
    paths: ['src/main/api'],
    what: 'Signed HTTP client for the service; one error class per failure, all `AppError`s.',
    imports: ['shared', 'log'],
    packages: [],
    node: NODE,
  },
  {
    type: 'connection',
    paths: ['src/main/connection'],
    what: "Whether each profile's service answers, kept for the handlers (its only importer): told by every attempt of a profile's signed client (`onReach`: an answer, a gateway's 502/503/504, or none), probed by a bare TCP connect (no request, no quota) while nothing answers, announced on change as `service.connection` (the status bar); a fetch job and a Watched refresh wait on it for the service's return, and a client's refused connection is said as a service gone down once it answered before.",
    imports: ['shared'],
    packages: [],
    node: NODE,
  },
  {
    type: 'sim',
    paths: ['src/main/sim'],
    what: 'The service simulator (CLI, embeddable).',
    imports: ['shared'],
    packages: ['zod'],
    node: NODE,
  },
  {
    type: 'secrets',
    paths: ['src/main/secrets'],
    what: 'Keychain access; the only importer of keytar.',
    imports: ['shared'],
    packages: ['keytar'],
    node: NODE,
  },
  {
    type: 'profiles',
    paths: ['src/main/profiles'],
    what: 'Connection profiles (metadata file, written atomically).',
    imports: ['shared', 'fs'],
    packages: ['zod'],
    node: NODE,
  },
  {
    type: 'library',
    paths: ['src/main/library'],
    what: 'Offline library on DuckDB, the only module that runs SQL on its tables: one unit of work (`library.write(tx => …)`) for every write, the job store, and a read-only reader (SELECT only) for analysis and export; file import (`import/`); firm resolution (`firms/`: parties grouped into firms by evidence, the review queue, decisions); the watch tables (`watch/`: watched queries, their snapshots, which records arrived and went in which).',
    imports: ['shared'],
    packages: [
      '@duckdb/node-api',
      '@duckdb/node-bindings',
      'exceljs',
      'htmlparser2',
      'i18n-iso-countries',
      'papaparse',
      'yauzl',
      'zod',
    ],
    node: NODE,
  },
  {
    type: 'jobs',
    paths: ['src/main/jobs'],
    what: 'Long-running fetch jobs: a pure slicing planner, the request policy (rate, 429 waits, downloads left), the firm pager, the runner that stores each step through the library, and the job manager the handlers delegate to.',
    imports: ['shared', 'log', 'library'],
    packages: [],
    node: NODE,
  },
  {
    type: 'presets',
    paths: ['src/main/presets'],
    what: 'Saved filters (`presets.json`, atomic writes, versioned import/export).',
    imports: ['shared', 'fs'],
    packages: ['zod'],
    node: NODE,
  },
  {
    type: 'export',
    paths: ['src/main/export'],
    what: 'Excel (streaming writer), CSV and Parquet writers.',
    imports: ['shared', 'library'],
    packages: ['@duckdb/node-api', 'exceljs'],
    node: NODE,
  },
  {
    type: 'analysis',
    paths: ['src/main/analysis'],
    what: 'Summaries, firm profiles, snapshot diffs, what changed between snapshots of a watched query and unit values in DuckDB SQL, with drill-down filters.',
    imports: ['shared', 'library'],
    packages: ['@duckdb/node-api', 'exceljs'],
    node: NODE,
  },
  {
    type: 'watch',
    paths: ['src/main/watch'],
    what: 'Watched queries: the refresh plan (dates after the last snapshot, an overlap, windows left incomplete), the cost check and the date-narrowing fetch of each window, snapshots stored through the library.',
    imports: ['shared', 'library'],
    packages: [],
    node: NODE,
  },
  {
    type: 'handlers',
    paths: ['src/main/handlers'],
    what: 'Electron-free implementation of every bridge call (`createHandlers`) and `dispatch`, the sender-checked, schema-checked, result-wrapping entry point. A call resolves its profile once (`profile-session.ts`: the profile, its signed client, the provenance of what it saves); the credential guard, the demo runtime and the library handle are modules of their own.',
    imports: [
      'shared',
      'log',
      'fs',
      'file-handles',
      'api',
      'connection',
      'sim',
      'secrets',
      'profiles',
      'library',
      'jobs',
      'presets',
      'export',
      'analysis',
      'watch',
    ],
    packages: ['zod'],
    node: NODE,
  },
  {
    type: 'shell',
    paths: ['src/main/shell', 'src/main/index.ts'],
    what: 'The thin Electron shell: window, menu, security, IPC registration (each call gets an AbortSignal that fires when its page goes away, as the web host gives one per request). With the preload, the only importer of Electron.',
    imports: ['shared', 'log', 'fs', 'secrets', 'handlers', 'shell'],
    packages: ['electron', 'zod'],
    node: NODE,
    entry: '*',
  },
  {
    type: 'web-host',
    paths: ['src/main/web-host'],
    what: 'The browser test host: the same handlers over HTTP + server-sent events on 127.0.0.1.',
    imports: ['shared', 'log', 'handlers'],
    packages: [],
    node: NODE,
  },
  {
    type: 'preload',
    paths: ['src/preload'],
    what: 'One self-contained CommonJS bundle exposing `window.portolan` via `contextBridge`; takes only `shared/ipc/channels` and `shared/ipc/build-api`.',
    imports: ['shared'],
    packages: ['electron'],
    node: false,
  },
  {
    type: 'renderer-app',
    paths: ['src/renderer/src/app', 'src/renderer/src/main.tsx'],
    what: 'The renderer: React UI, reaching main only through `PortolanApi` (`window.portolan` or the web transport). Its layers, top to bottom, start here: the shell and composition root (`main.tsx` installs the bridge; boot, navigation bar, status bar, the page switch, `connectStores`, every store reaction turned on once at start).',
    imports: [
      'shared',
      'renderer-features',
      'renderer-components',
      'renderer-session',
      'renderer-store',
      'renderer-bridge',
      'renderer-theme',
      'renderer-app',
    ],
    packages: [
      'react',
      'react-dom',
      '@mantine/core',
      '@mantine/dates',
      '@mantine/hooks',
      '@mantine/notifications',
      '@mantine/spotlight',
      '@tabler/icons-react',
    ],
    node: false,
    entry: '*',
  },
  {
    type: 'renderer-features',
    paths: ['src/renderer/src/features/*'],
    what: 'One folder per capability (search, firms, library, analysis, usage, settings, filters, presets, jobs, export): its pages, store and hooks. A feature enters another through its `index.ts`.',
    imports: [
      'shared',
      'renderer-features',
      'renderer-components',
      'renderer-session',
      'renderer-store',
      'renderer-bridge',
      'renderer-theme',
    ],
    packages: [
      'react',
      '@mantine/core',
      '@mantine/dates',
      '@mantine/hooks',
      '@mantine/notifications',
      '@mantine/spotlight',
      '@tabler/icons-react',
      'zustand',
      'ag-grid-community',
      'ag-grid-react',
      'echarts',
      'i18n-iso-countries',
      'zod',
    ],
    node: false,
  },
  {
    type: 'renderer-components',
    paths: ['src/renderer/src/components'],
    what: 'Shared UI parts that know no feature: the page frame and header, messages, toasts, fields, dialog focus, the saved-copy offer, the usage table (Usage page, connection test), the grid parts (`components/grid`).',
    imports: ['shared', 'renderer-session', 'renderer-store', 'renderer-bridge', 'renderer-theme'],
    packages: [
      'react',
      '@mantine/core',
      '@mantine/dates',
      '@mantine/hooks',
      '@mantine/notifications',
      '@mantine/spotlight',
      '@tabler/icons-react',
      'ag-grid-community',
      'ag-grid-react',
    ],
    node: false,
    entry: '*',
  },
  {
    type: 'renderer-session',
    paths: ['src/renderer/src/session'],
    what: 'Cross-feature session state: profiles and connection, the page shown, usage and limits, the hand-overs between pages (drill-down, open a dataset).',
    imports: ['shared', 'renderer-store', 'renderer-bridge'],
    packages: ['react', 'zustand'],
    node: false,
  },
  {
    type: 'renderer-store',
    paths: ['src/renderer/src/store'],
    what: 'The store idiom: `defineStore` (state, actions, `initialState`, `reset()`) `latestWins` (latest answer wins) and `cancellableRuns` (a run with Cancel: a late answer is described, not shown).',
    imports: [],
    packages: ['zustand'],
    node: false,
  },
  {
    type: 'renderer-theme',
    paths: ['src/renderer/src/theme'],
    what: 'The design system (`docs/design-system.md`): the Mantine theme and its tokens, the colour scheme (light, dark or the system’s, remembered), the chart themes. It knows no state and no page.',
    imports: [],
    packages: [
      'react',
      '@mantine/core',
      '@mantine/dates',
      '@mantine/notifications',
      '@mantine/spotlight',
      'echarts',
    ],
    node: false,
    // The stylesheets are a second entry, for main.tsx alone: tests render without CSS.
    entry: '{index.ts,styles.ts}',
  },
  {
    type: 'renderer-bridge',
    paths: ['src/renderer/src/bridge'],
    what: "`setApi`/`getApi` (the bridge, installed once by `main.tsx`), the browser host's web transport, service outcomes.",
    imports: ['shared'],
    packages: ['react'],
    node: false,
    entry: '*',
  },
];

/** The only files of `shared` the sandboxed preload may bundle: the channel list and `buildApi`. */
export const PRELOAD_SHARED_FILES = ['ipc/channels.ts', 'ipc/build-api.ts'];

const byType = new Map(LAYERS.map((l) => [l.type, l]));

/** Where other elements may enter `layer`: its index.ts, or any file. */
function entryOf(/** @type {Layer} */ layer) {
  return layer.entry ?? 'index.ts';
}

/**
 * The `boundaries/dependencies` policies of the table: everything not allowed here is refused, local
 * files and packages alike (`checkAllOrigins`).
 * @returns {Record<string, unknown>[]}
 */
export function dependencyPolicies() {
  /** @type {Record<string, unknown>[]} */
  const policies = [];
  for (const layer of LAYERS) {
    const from = { element: { type: layer.type } };
    for (const target of layer.imports) {
      const to = byType.get(target);
      if (!to) throw new Error(`${layer.type} imports an unknown element ${target}`);
      const files =
        layer.type === 'preload' && target === 'shared'
          ? PRELOAD_SHARED_FILES
          : entryOf(to) === '*'
            ? '**'
            : entryOf(to);
      policies.push({ from, allow: { to: { element: { type: target, fileInternalPath: files } } } });
    }
    if (layer.packages.length > 0)
      policies.push({ from, allow: { to: { module: { origin: 'external', source: layer.packages } } } });
    if (layer.node) policies.push({ from, allow: { to: { module: { origin: 'core' } } } });
  }
  return policies;
}

/**
 * The elements as eslint-plugin-boundaries classifies files: folders, and single files (the entries of the
 * shell and the renderer), which need the file mode and must come first (a folder descriptor met before
 * them leaves them unclassified).
 */
export function elementDescriptors() {
  const all = LAYERS.flatMap((l) => l.paths.map((p) => ({ type: l.type, path: p })));
  const isFile = (/** @type {string} */ p) => /\.tsx?$/.test(p);
  return [
    ...all.filter((e) => isFile(e.path)).map((e) => ({ type: e.type, pattern: e.path, mode: 'file' })),
    ...all
      .filter((e) => !isFile(e.path))
      .map((e) => ({ type: e.type, pattern: e.path, partialMatch: false })),
  ];
}

/** The table as docs/architecture.md shows it (Markdown, unpadded; Prettier pads it in the doc). */
export function architectureTable() {
  const cell = (/** @type {string} */ s) => s.replace(/\|/g, '\\|');
  const code = (/** @type {string[]} */ xs) => (xs.length === 0 ? '—' : xs.map((x) => `\`${x}\``).join(', '));
  const rows = LAYERS.map((l) =>
    [
      `\`${l.type}\``,
      l.paths.map((p) => `\`${p}\``).join(' + '),
      cell(l.what),
      code(l.imports.filter((t) => t !== l.type)),
      [code(l.packages), l.node ? 'Node' : ''].filter((s) => s && s !== '—').join(', ') || '—',
      entryOf(l) === '*' ? 'any file' : `\`${entryOf(l)}\``,
    ].join(' | '),
  );
  return [
    '| element | folder | what | may import | packages | entered through |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r} |`),
  ].join('\n');
}
