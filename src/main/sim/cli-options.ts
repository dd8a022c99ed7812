import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { USAGE_METRICS, describeIssues, isCalendarDate, toSpecIssues } from '@shared/spec';
import { validateFaults } from './faults';
import { DEFAULT_RECORDS, generateAccount } from './server';
import type { SimAccount, SimFaults, SimOptions } from './types';

export const DEFAULT_PORT = 8787;
/** Where `--api-key`'s secret comes from: never the command line, which every user of the machine can read. */
export const SECRET_ENV = 'PORTOLAN_SIM_API_SECRET';

const rate = z.number().min(0).max(1);
const faultsSchema = z.strictObject({
  latencyMs: z.number().min(0).optional(),
  errorRate: rate.optional(),
  errorStatuses: z.array(z.number().int().min(500).max(599)).min(1).optional(),
  burst429: z
    .strictObject({
      every: z.number().int().min(1),
      count: z.number().int().min(0),
      retryAfter: z.number().int().min(0).optional(),
    })
    .optional(),
  invalidJsonRate: rate.optional(),
  truncateRate: rate.optional(),
  dropRate: rate.optional(),
  seed: z.number().int().optional(),
});

const limitsSchema = z.partialRecord(z.enum(USAGE_METRICS), z.number().int().min(-1));

/** The `--config` file. Every field optional; command-line flags win over it. */
export const configFileSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).optional(),
  records: z.number().int().min(0).max(5_000_000).optional(),
  seed: z.number().int().optional(),
  hsCodesCsvPath: z.string().min(1).optional(),
  accounts: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        apiKey: z.string().min(1),
        apiSecret: z.string().min(1),
        limits: limitsSchema.optional(),
      }),
    )
    .optional(),
  faults: faultsSchema.optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

export interface CliSetup {
  options: SimOptions;
  /** Accounts whose secret the simulator made up (printed, since nobody else knows it). */
  generated: SimAccount[];
  help: boolean;
}

export const USAGE_TEXT = `Usage: npm run sim -- [flags]

  --port N              port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 = any free port)
  --records N           number of shipment records (default ${DEFAULT_RECORDS})
  --seed N              data seed (default 1); same seed, same data
  --api-key KEY         accept this key, with the secret in the environment variable
                        ${SECRET_ENV} (both or neither; never a secret on the command line)
  --account-name NAME   account name for --api-key (default "default")
  --config FILE         JSON file with accounts, limits, faults (see docs/simulator.md)
  --hs-codes FILE       HS code CSV (default resources/data/hs-codes.csv)
  --latency MS          added latency per response
  --error-rate R        share (0..1) of requests answered 500/503
  --error-statuses L    comma-separated statuses for --error-rate (default 500,503)
  --burst-429 E:C[:S]   of every E requests the last C get 429 (Retry-After: S seconds, default 1)
  --invalid-json-rate R share of 200 bodies sent as invalid JSON
  --truncate-rate R     share of 200 bodies cut in half
  --drop-rate R         share of connections dropped without a response
  --fault-seed N        seed of the fault draws (default 1)
  --as-of DATE          the data as published on DATE (yyyy-MM-dd): records appear 1 to 20
                        days after they arrive, so later days add records
  --grow D:S            with --as-of: publish D more days of records every S seconds
  --help                this text`;

function num(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new Error(`--${flag} needs a number, got "${v}"`);
  return n;
}

function int(flag: string, v: string | undefined): number | undefined {
  const n = num(flag, v);
  if (n !== undefined && !Number.isInteger(n)) throw new Error(`--${flag} needs a whole number, got "${v}"`);
  return n;
}

/** Reads and validates a config file; the error names the file and every problem in it. */
export function readConfigFile(path: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`config file ${path}: ${(e as Error).message}`);
  }
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`config file ${path}: ${describeIssues(toSpecIssues(parsed.error))}`);
  return parsed.data;
}

/**
 * Turns command-line arguments (and the secret from the environment) into simulator options. Throws an
 * Error with a readable message.
 */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliSetup {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      records: { type: 'string' },
      seed: { type: 'string' },
      'api-key': { type: 'string' },
      'api-secret': { type: 'string' },
      'account-name': { type: 'string' },
      config: { type: 'string' },
      'hs-codes': { type: 'string' },
      latency: { type: 'string' },
      'error-rate': { type: 'string' },
      'error-statuses': { type: 'string' },
      'burst-429': { type: 'string' },
      'invalid-json-rate': { type: 'string' },
      'truncate-rate': { type: 'string' },
      'drop-rate': { type: 'string' },
      'fault-seed': { type: 'string' },
      'as-of': { type: 'string' },
      grow: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const config: ConfigFile = values.config ? readConfigFile(values.config) : {};

  if (values['api-secret'] !== undefined) {
    // Refused rather than used: by now it is already in the shell history and in every `ps` listing.
    throw new Error(
      `a secret on the command line can be read by every user of this machine (ps) and stays in the shell history; ` +
        `put it in the environment variable ${SECRET_ENV}, or in the accounts of a --config file`,
    );
  }
  const accounts: SimAccount[] = [];
  const key = values['api-key'];
  const secret = env[SECRET_ENV];
  if (key !== undefined && secret === undefined)
    throw new Error(`--api-key needs its secret in the environment variable ${SECRET_ENV}`);
  if (key !== undefined && secret !== undefined) {
    if (!key || !secret) throw new Error(`--api-key and ${SECRET_ENV} must not be empty`);
    accounts.push({ name: values['account-name'] ?? 'default', apiKey: key, apiSecret: secret });
  }
  for (const a of config.accounts ?? [])
    accounts.push(a.limits ? { ...a, limits: { ...a.limits } } : { ...a });
  const generated: SimAccount[] = [];
  if (accounts.length === 0) {
    const a = generateAccount(values['account-name'] ?? 'default');
    accounts.push(a);
    generated.push(a);
  }

  const faults: SimFaults = { ...config.faults };
  const set = <K extends keyof SimFaults>(k: K, v: SimFaults[K] | undefined): void => {
    if (v !== undefined) faults[k] = v;
  };
  set('latencyMs', num('latency', values.latency));
  set('errorRate', num('error-rate', values['error-rate']));
  set('invalidJsonRate', num('invalid-json-rate', values['invalid-json-rate']));
  set('truncateRate', num('truncate-rate', values['truncate-rate']));
  set('dropRate', num('drop-rate', values['drop-rate']));
  set('seed', int('fault-seed', values['fault-seed']));
  if (values['error-statuses'] !== undefined) {
    set(
      'errorStatuses',
      values['error-statuses'].split(',').map((s) => int('error-statuses', s.trim()) as number),
    );
  }
  if (values['burst-429'] !== undefined) {
    const m = /^(\d+):(\d+)(?::(\d+))?$/.exec(values['burst-429']);
    if (!m) throw new Error(`--burst-429 needs EVERY:COUNT[:SECONDS], got "${values['burst-429']}"`);
    set('burst429', {
      every: Number(m[1]),
      count: Number(m[2]),
      ...(m[3] !== undefined ? { retryAfter: Number(m[3]) } : {}),
    });
  }
  validateFaults(faults);

  const port = int('port', values.port) ?? config.port ?? DEFAULT_PORT;
  if (port < 0 || port > 65535) throw new Error('--port must be between 0 and 65535');
  const records = int('records', values.records) ?? config.records ?? DEFAULT_RECORDS;
  if (records < 0) throw new Error('--records must not be negative');
  const options: SimOptions = {
    port,
    host: '127.0.0.1',
    records,
    seed: int('seed', values.seed) ?? config.seed ?? 1,
    accounts,
    faults: Object.keys(faults).length > 0 ? faults : undefined,
  };
  const asOf = values['as-of'];
  if (asOf !== undefined) {
    if (!isCalendarDate(asOf)) throw new Error(`--as-of needs a date written yyyy-MM-dd, got "${asOf}"`);
    options.asOf = asOf;
  }
  if (values.grow !== undefined) {
    const m = /^(\d+):(\d+(?:\.\d+)?)$/.exec(values.grow);
    if (!m || Number(m[1]) < 1 || !(Number(m[2]) > 0))
      throw new Error(`--grow needs DAYS:SECONDS (both above 0), got "${values.grow}"`);
    if (asOf === undefined) throw new Error('--grow needs --as-of: the day the data starts from');
    options.grow = { days: Number(m[1]), everySeconds: Number(m[2]) };
  }
  const hs = values['hs-codes'] ?? config.hsCodesCsvPath;
  if (hs) options.hsCodesCsvPath = hs;
  return { options, generated, help: values.help === true };
}
