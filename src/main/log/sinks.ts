import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LogSink } from './logger';

export interface FileSinkOptions {
  /** Rotate before a write would take the file past this size. Default 5 MiB. */
  maxBytes?: number;
  /** Rotated files kept next to the live one (`app.log.1` … `app.log.<keep>`). Default 3. */
  keep?: number;
}

export type FileSink = LogSink & { close(): Promise<void> };

/**
 * Appends one line per write and rotates by size. Writes are synchronous on purpose: the app logs
 * a handful of lines per request, and a line written before a crash is worth more than the
 * microseconds an async queue would save. The file is created owner-only.
 */
export function createFileSink(path: string, opts: FileSinkOptions = {}): FileSink {
  const maxBytes = Math.max(1, opts.maxBytes ?? 5 * 1024 * 1024);
  const keep = Math.max(0, Math.floor(opts.keep ?? 3));
  mkdirSync(dirname(path), { recursive: true });

  let fd: number | null = null;
  let size = 0;
  let closed = false;

  const open = (): number => {
    fd = openSync(path, 'a', 0o600);
    try {
      size = statSync(path).size;
    } catch {
      size = 0;
    }
    return fd;
  };

  const rotate = (): void => {
    if (fd !== null) closeSync(fd);
    fd = null;
    if (keep === 0) {
      rmSync(path, { force: true });
    } else {
      rmSync(`${path}.${keep}`, { force: true });
      for (let i = keep - 1; i >= 1; i--) {
        try {
          renameSync(`${path}.${i}`, `${path}.${i + 1}`);
        } catch {
          // A gap in the numbering (file never written) is fine.
        }
      }
      renameSync(path, `${path}.1`);
    }
  };

  return {
    write(line: string): void {
      if (closed) return;
      const bytes = Buffer.from(line.endsWith('\n') ? line : `${line}\n`, 'utf8');
      const handle = fd ?? open();
      // An over-long single line still gets written, alone in a fresh file.
      if (size > 0 && size + bytes.length > maxBytes) {
        rotate();
        writeAll(open(), bytes);
      } else {
        writeAll(handle, bytes);
      }
      size += bytes.length;
    },
    close(): Promise<void> {
      closed = true;
      if (fd !== null) closeSync(fd);
      fd = null;
      return Promise.resolve();
    },
  };
}

function writeAll(fd: number, bytes: Buffer): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
}

export type MemorySink = LogSink & { lines: string[] };

/** Keeps lines in memory; for tests and for showing recent activity. */
export function createMemorySink(): MemorySink {
  const lines: string[] = [];
  return {
    lines,
    write(line: string): void {
      lines.push(line);
    },
  };
}

/** Writes to stderr; for CLIs. */
export function createStderrSink(): LogSink {
  return { write: (line) => void process.stderr.write(line.endsWith('\n') ? line : `${line}\n`) };
}
