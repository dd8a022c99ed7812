/**
 * Cost of the signed client and the redacting logger, each against a baseline measured in the same
 * run on the same machine:
 *  - a 10,000-record shipment search through the client (validate, sign, send, parse, check every
 *    field) against a bare fetch + JSON.parse of the same bytes from the same local server;
 *  - a request log line through createLogger (field walk + redaction with secrets registered)
 *    against JSON.stringify of the same entry.
 *
 *   npm run bench -- api-client
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceClient } from '../src/main/api';
import { createLogger, registerSecret, type LogSink } from '../src/main/log';
import { SHIPMENT_FIELDS } from '../src/shared/spec';

const RECORDS = 10_000;
const ROUNDS = 5;
const LOG_LINES = 100_000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function benchClient(): Promise<void> {
  const record: Record<string, string> = {};
  for (const f of SHIPMENT_FIELDS) record[f] = `${f}-value-Çelik-不锈钢`;
  const body = Buffer.from(
    JSON.stringify({ total: RECORDS, shipments: Array.from({ length: RECORDS }, () => record) }),
    'utf8',
  );
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createServiceClient({
    baseUrl: url,
    credentials: { apiKey: 'pk_bench_0000', apiSecret: 'sk_bench' },
  });

  const raw = async (): Promise<void> => {
    const res = await fetch(`${url}/api/v1/shipment/search`, { method: 'POST', body: '{"size":10000}' });
    const json = JSON.parse(await res.text()) as { shipments: unknown[] };
    if (json.shipments.length !== RECORDS) throw new Error('short');
  };
  const signed = async (): Promise<void> => {
    const res = await client.shipmentSearch({ size: RECORDS, product_detail: 'steel pipe' });
    if (res.shipments.length !== RECORDS) throw new Error('short');
  };
  await raw();
  await signed(); // warm-up
  const base: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await time(raw));
    ours.push(await time(signed));
  }
  server.close();
  const b = median(base);
  const o = median(ours);
  console.log(
    `shipmentSearch ${RECORDS} records (${(body.length / 1e6).toFixed(1)} MB, ${SHIPMENT_FIELDS.length} fields): ` +
      `client ${o.toFixed(0)} ms, bare fetch+JSON.parse ${b.toFixed(0)} ms, ratio ${(o / b).toFixed(2)}`,
  );
}

function benchLogger(): void {
  const un = [
    registerSecret('sk-bench-secret-value-0042'),
    registerSecret('pk_bench_key_1234', { keepLast: 4 }),
  ];
  let bytes = 0;
  const sink: LogSink = { write: (l) => void (bytes += l.length) };
  const log = createLogger({ sink, scope: 'main' }).child('api');
  const fields = {
    op: 'shipmentSearch',
    method: 'POST',
    path: '/api/v1/shipment/search',
    status: 200,
    ms: 35,
    attempt: 1,
  };

  const t0 = performance.now();
  for (let i = 0; i < LOG_LINES; i++) {
    sink.write(
      JSON.stringify({
        ts: new Date().toISOString(),
        level: 'info',
        scope: 'main.api',
        msg: 'request',
        ...fields,
      }),
    );
  }
  const base = performance.now() - t0;
  const t1 = performance.now();
  for (let i = 0; i < LOG_LINES; i++) log.info('request', fields);
  const ours = performance.now() - t1;
  un.forEach((f) => f());
  console.log(
    `log line: redacting logger ${((ours / LOG_LINES) * 1000).toFixed(1)} µs, ` +
      `JSON.stringify ${((base / LOG_LINES) * 1000).toFixed(1)} µs, ratio ${(ours / base).toFixed(2)} (${LOG_LINES} lines, ${bytes} chars)`,
  );
}

void benchClient()
  .then(benchLogger)
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
