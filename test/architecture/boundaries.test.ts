import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { architectureTable } from '../../architecture.config.mjs';

/**
 * The architecture table is enforced by ESLint: each kind of rule is shown refusing a real violation
 * (and allowing its lawful neighbour, so a rule that refuses everything would fail too). The snippets
 * are linted as if they were files of the tree; the modules they import are the real ones.
 */
const root = resolve(import.meta.dirname, '../..');
let eslint: ESLint;
/** The same configuration without type information, so snippets can pose as files that do not exist. */
let untyped: ESLint;

beforeAll(() => {
  // The snippets are linted as the text of files that exist on disk. With CI=true typescript-eslint
  // infers a single run and builds its program from the files on disk, so the types would be those of
  // the file, not of the snippet; watch mode reads the text being linted.
  eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      files: ['src/**/*.{ts,tsx}'],
      languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } },
    },
  });
  untyped = new ESLint({
    cwd: root,
    overrideConfig: {
      files: ['src/**/*.{ts,tsx}'],
      languageOptions: { parserOptions: { project: null } },
      rules: { '@typescript-eslint/switch-exhaustiveness-check': 'off' },
    },
  });
});

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await untyped.lintText(code, { filePath: join(root, file) });
  const fatal = result?.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`the snippet did not parse: ${fatal.message}`);
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('boundaries/'))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const refused = (errors: string[]) => expect(errors, 'expected an architecture error').not.toEqual([]);
const allowed = (errors: string[]) => expect(errors).toEqual([]);

describe('the core never reaches up into handlers or hosts', () => {
  it('refuses the library importing the handlers, and a capability importing a host', async () => {
    refused(
      await boundaryErrors('src/main/library/probe.ts', "export { createHandlers } from '../handlers';"),
    );
    refused(await boundaryErrors('src/main/jobs/probe.ts', "export { createWebHost } from '../web-host';"));
    refused(await boundaryErrors('src/main/handlers/probe.ts', "export * from '../shell/menu';"));
    refused(await boundaryErrors('src/main/analysis/probe.ts', "export { createClient } from '../api';"));
  });

  it('allows what the table lists', async () => {
    allowed(await boundaryErrors('src/main/jobs/probe.ts', "export { Library } from '../library';"));
    allowed(await boundaryErrors('src/main/handlers/probe.ts', "export { Library } from '../library';"));
    allowed(
      await boundaryErrors('src/main/web-host/probe.ts', "export { createHandlers } from '../handlers';"),
    );
  });
});

describe('a capability is entered only through its index.ts', () => {
  it('refuses an import past the index and allows the index', async () => {
    refused(await boundaryErrors('src/main/jobs/probe.ts', "export { Db } from '../library/db';"));
    refused(await boundaryErrors('src/main/handlers/probe.ts', "export * from '../export/xlsx-writer';"));
    allowed(await boundaryErrors('src/main/jobs/probe.ts', "export { Db } from '../library';"));
  });

  it('lets a capability use its own files freely', async () => {
    allowed(await boundaryErrors('src/main/library/probe.ts', "export { Db } from './db';"));
  });
});

describe('shared imports nothing of Node, main or the renderer', () => {
  it('refuses Node, main and the renderer, and allows zod and its own files', async () => {
    refused(await boundaryErrors('src/shared/probe.ts', "export { readFile } from 'node:fs';"));
    refused(await boundaryErrors('src/shared/probe.ts', "export { redact } from '../main/log';"));
    refused(await boundaryErrors('src/shared/probe.ts', "export * from '../renderer/src/bridge/api';"));
    allowed(await boundaryErrors('src/shared/probe.ts', "export { z } from 'zod';"));
    allowed(await boundaryErrors('src/shared/probe.ts', "export * from './spec/filter';"));
  });
});

describe('the preload imports only electron and the bridge contract', () => {
  it('refuses the rest of shared, Node and main', async () => {
    refused(await boundaryErrors('src/preload/probe.ts', "export * from '@shared/spec';"));
    refused(await boundaryErrors('src/preload/probe.ts', "export { join } from 'node:path';"));
    refused(await boundaryErrors('src/preload/probe.ts', "export * from '../main/log';"));
    allowed(
      await boundaryErrors('src/preload/probe.ts', "export { CALL_CHANNELS } from '@shared/ipc/channels';"),
    );
    allowed(await boundaryErrors('src/preload/probe.ts', "export { contextBridge } from 'electron';"));
  });
});

describe('packages belong to their element', () => {
  it('keeps electron in the shell and keytar in secrets', async () => {
    refused(await boundaryErrors('src/main/handlers/probe.ts', "export { app } from 'electron';"));
    refused(await boundaryErrors('src/main/profiles/probe.ts', "export { default } from 'keytar';"));
    refused(await boundaryErrors('src/renderer/src/probe.ts', "export { readFile } from 'node:fs';"));
    refused(await boundaryErrors('src/renderer/src/probe.ts', "export * from '../../main/log';"));
    allowed(await boundaryErrors('src/main/shell/probe.ts', "export { app } from 'electron';"));
  });
});

describe("the renderer's layers: app > features > components > session > store, bridge", () => {
  it('refuses an import of a layer above, and a feature entered past its index', async () => {
    refused(
      await boundaryErrors('src/renderer/src/features/search/probe.ts', "export * from '../../app/app';"),
    );
    refused(
      await boundaryErrors('src/renderer/src/components/probe.ts', "export * from '../features/filters';"),
    );
    refused(
      await boundaryErrors('src/renderer/src/session/probe.ts', "export * from '../components/format';"),
    );
    refused(await boundaryErrors('src/renderer/src/store/probe.ts', "export * from '../bridge/api';"));
    refused(
      await boundaryErrors(
        'src/renderer/src/features/search/probe.ts',
        "export * from '../filters/filter-store';",
      ),
    );
  });

  it('allows a layer below and another feature through its index', async () => {
    allowed(await boundaryErrors('src/renderer/src/features/search/probe.ts', "export * from '../filters';"));
    allowed(
      await boundaryErrors('src/renderer/src/features/search/probe.ts', "export * from '../../session';"),
    );
    allowed(await boundaryErrors('src/renderer/src/components/probe.ts', "export * from '../bridge/api';"));
  });
});

describe('every source folder is in the table', () => {
  it('refuses a file in a folder the table does not list', async () => {
    const errors = await boundaryErrors('src/main/newcomer/probe.ts', 'export const x = 1;');
    expect(errors.some((e) => e.startsWith('boundaries/no-unknown-files'))).toBe(true);
  });
});

describe("the library's writes have one owner", () => {
  it('refuses a transaction opened outside the unit of work, and allows library.write', async () => {
    const syntaxErrors = async (file: string, code: string) => {
      const [result] = await untyped.lintText(code, { filePath: join(root, file) });
      return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax');
    };
    const open = 'export const f = (db: { transaction(f: () => void): void }) => db.transaction(() => {});';
    expect(await syntaxErrors('src/main/library/firms/probe.ts', open)).toHaveLength(1);
    expect(await syntaxErrors('src/main/jobs/probe.ts', open)).toHaveLength(1);
    const unit = 'export const f = (lib: { write(f: () => void): void }) => lib.write(() => {});';
    expect(await syntaxErrors('src/main/library/firms/probe.ts', unit)).toHaveLength(0);
  });
});

describe("the library's SQL keeps out the windows DuckDB up to 1.5.5 failed on two threads", () => {
  const windowErrors = async (sql: string) => {
    const [result] = await untyped.lintText(`export const q = ${sql};`, {
      filePath: join(root, 'src/main/analysis/probe.ts'),
    });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax');
  };

  it('refuses a window without PARTITION BY or ORDER BY, however it is spelled', async () => {
    /* eslint-disable no-restricted-syntax -- the SQL the rule refuses, as what this test lints */
    for (const sql of [
      "'SELECT *, count(*) OVER () AS total FROM t'",
      '`SELECT *, count(*) FILTER (WHERE status = ${"\'new\'"}) OVER () AS c_new FROM t`',
      "'SELECT sum(fob) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t'",
      "'SELECT count(*) OVER w FROM t WINDOW w AS ()'",
      "'SELECT ntile(4) over () FROM t'",
      '`SELECT ${"count(*)"} OVER () AS total FROM t`',
    ]) {
      /* eslint-enable no-restricted-syntax */
      expect(await windowErrors(sql), sql).toHaveLength(1);
    }
  });

  it('allows partitioned and ordered windows, and numbering rows as they come', async () => {
    for (const sql of [
      "'SELECT idx, min(idx) OVER (PARTITION BY code) FROM fr_party'",
      '`SELECT count(*) OVER (PARTITION BY ${"k"}, name) AS n_name FROM t`',
      "'SELECT lag(row_no) OVER (ORDER BY rowid) FROM t'",
      "'SELECT count(*) OVER w FROM t WINDOW w AS (PARTITION BY g)'",
      "'SELECT (row_number() OVER () - 1) AS n FROM t'",
      "'Move the pointer over (or tab to) the first cell'",
    ]) {
      expect(await windowErrors(sql), sql).toHaveLength(0);
    }
  });
});

describe('docs/architecture.md', () => {
  it('shows the table the lint rules are built from', async () => {
    const doc = await readFile(join(root, 'docs', 'architecture.md'), 'utf8');
    const cells = (table: string) =>
      table
        .split('\n')
        .filter((l) => l.startsWith('|') && !/^\|[\s|-]+\|$/.test(l))
        .map((l) =>
          l
            .slice(1, -1)
            .split(/(?<!\\)\|/)
            .map((c) => c.trim()),
        );
    const start = doc.indexOf('<!-- architecture-table:start');
    const end = doc.indexOf('<!-- architecture-table:end');
    expect(start, 'the doc marks where the table goes').toBeGreaterThan(0);
    expect(
      cells(doc.slice(start, end)),
      'docs/architecture.md differs from architecture.config.mjs: run node scripts/architecture-doc.mjs',
    ).toEqual(cells(architectureTable()));
  });
});

describe('switches over a union name every member', () => {
  it('refuses a switch whose default hides a member, and allows one that names them all', async () => {
    // Linted as the text of a real source file: the rule needs the project's types.
    const file = join(root, 'src/main/handlers/types.ts');
    const lint = async (cases: string) => {
      const code = `type Kind = 'a' | 'b' | 'c';\nexport function f(k: Kind): number {\n  switch (k) {\n${cases}\n  }\n}\n`;
      const [result] = await eslint.lintText(code, { filePath: file });
      const fatal = result?.messages.find((m) => m.fatal);
      if (fatal) throw new Error(`the snippet did not parse: ${fatal.message}`);
      return (result?.messages ?? []).filter(
        (m) => m.ruleId === '@typescript-eslint/switch-exhaustiveness-check',
      );
    };
    expect(await lint("    case 'a':\n      return 1;\n    default:\n      return 2;")).toHaveLength(1);
    expect(await lint("    case 'a':\n    case 'b':\n    case 'c':\n      return 1;")).toHaveLength(0);
  }, 60_000);
});
