import { redact, redactFieldValue } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogSink {
  write(line: string): void;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

export interface LoggerOptions {
  sink: LogSink;
  level?: LogLevel;
  scope?: string;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const MAX_DEPTH = 6;
const MAX_STRING = 4_000;
const MAX_ITEMS = 50;

/**
 * Turns arbitrary field values into plain JSON data: errors keep name, message, kind, status and
 * stack; binary data becomes its length (request bodies do not belong in logs); cycles and deep
 * nesting are cut instead of throwing.
 */
function toLoggable(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
      return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…(${value.length} chars)` : value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'symbol':
      return value.toString();
    case 'function':
      return undefined;
    case 'object':
    case 'undefined':
      break;
  }
  const obj = value as object;
  if (seen.has(obj)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Nested]';
  if (obj instanceof Uint8Array || obj instanceof ArrayBuffer) return `[${obj.byteLength} bytes]`;
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  seen.add(obj);
  try {
    if (obj instanceof Error) {
      const out: Record<string, unknown> = { name: obj.name, message: obj.message };
      for (const key of ['kind', 'status', 'retryAfterSeconds', 'code', 'reason', 'path'] as const) {
        const v = (obj as unknown as Record<string, unknown>)[key];
        if (v !== undefined) out[key] = toLoggable(v, depth + 1, seen);
      }
      if (obj.stack) out.stack = obj.stack;
      if (obj.cause !== undefined) out.cause = toLoggable(obj.cause, depth + 1, seen);
      return out;
    }
    if (Array.isArray(obj)) {
      const items = obj.slice(0, MAX_ITEMS).map((v) => toLoggable(v, depth + 1, seen));
      if (obj.length > MAX_ITEMS) items.push(`…(${obj.length - MAX_ITEMS} more)`);
      return items;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      const safe = redactFieldValue(k, v);
      out[k] = safe === v ? toLoggable(v, depth + 1, seen) : safe;
    }
    return out;
  } finally {
    seen.delete(obj);
  }
}

function serialize(level: LogLevel, scope: string, msg: string, fields?: Record<string, unknown>): string {
  const entry: Record<string, unknown> = {};
  if (fields) {
    const loggable = toLoggable(fields, 0, new WeakSet());
    if (loggable && typeof loggable === 'object' && !Array.isArray(loggable)) Object.assign(entry, loggable);
  }
  // The four fixed keys win over same-named fields so every line can be read the same way.
  Object.assign(entry, { ts: new Date().toISOString(), level, scope, msg: String(msg) });
  const ordered = { ts: entry.ts, level, scope, msg: entry.msg, ...entry };
  return redact(JSON.stringify(ordered));
}

export function createLogger(opts: LoggerOptions): Logger {
  const min = RANK[opts.level ?? 'info'];
  const scope = opts.scope ?? '';
  const sink = opts.sink;

  const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (RANK[level] < min) return;
    let line: string;
    try {
      line = serialize(level, scope || 'app', msg, fields);
    } catch (e) {
      // A field whose getter throws must not take the caller down with it.
      line = redact(
        JSON.stringify({
          ts: new Date().toISOString(),
          level,
          scope: scope || 'app',
          msg: String(msg),
          logError: String(e),
        }),
      );
    }
    try {
      sink.write(line);
    } catch {
      // Logging is never allowed to break the operation being logged.
    }
  };

  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (childScope) =>
      createLogger({
        sink,
        level: opts.level ?? 'info',
        scope: scope ? `${scope}.${childScope}` : childScope,
      }),
  };
}

/** A logger that drops everything; the default when a caller passes none. */
export const nullLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => nullLogger,
};
