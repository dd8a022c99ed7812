import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { isSystemError } from '../refusal';

/**
 * Why a zip is not read: damaged, or larger than an import may expand to. The system failing to open
 * or read the file (locked, permissions, a drive gone) is not a refusal of its content: that error is
 * passed on as it came, with its code.
 */
export class ZipRefusal extends Error {
  constructor(
    readonly reason: 'damaged' | 'too-large',
    message: string,
  ) {
    super(message);
    this.name = 'ZipRefusal';
  }
}

/** The system's error as it came; anything else (yauzl's or zlib's complaint) as a damaged zip. */
function contentOr(e: unknown, what: string): Error {
  return isSystemError(e) ? e : new ZipRefusal('damaged', what);
}

export interface ZipLimits {
  /** The most bytes all entries may expand to, as declared in the zip's directory. */
  maxUncompressedBytes: number;
}

/**
 * A zip read through its central directory (yauzl): the entries and their declared sizes are known
 * before a byte is inflated, so a workbook that would expand past the limits is refused up front, and
 * yauzl stops an entry whose data inflates past its declared size (a zip bomb that lies).
 */
export class ZipArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly entries: ReadonlyMap<string, yauzl.Entry>,
  ) {}

  static async open(path: string, limits: ZipLimits): Promise<ZipArchive> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(
        path,
        { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
        (err, z) => (err || !z ? reject(contentOr(err, 'not a zip')) : resolve(z)),
      ),
    );
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (e: yauzl.Entry) => {
          total += e.uncompressedSize;
          if (total > limits.maxUncompressedBytes) {
            reject(new ZipRefusal('too-large', 'expands past the limit'));
            return;
          }
          entries.set(e.fileName.replace(/^\/+/, ''), e);
          zip.readEntry();
        });
        zip.on('end', () => resolve());
        zip.on('error', (err: unknown) => reject(contentOr(err, 'damaged zip')));
        zip.readEntry();
      });
    } catch (e) {
      zip.close();
      throw e;
    }
    return new ZipArchive(zip, entries);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's inflated bytes as a stream; null when the archive has no such entry. */
  async stream(name: string): Promise<Readable | null> {
    const entry = this.entries.get(name);
    if (!entry) return null;
    return new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, (err, s) =>
        err || !s ? reject(contentOr(err, 'damaged entry')) : resolve(s),
      ),
    );
  }

  /** A small entry (workbook, styles, relationships) as text; null when absent. */
  async text(name: string): Promise<string | null> {
    const s = await this.stream(name);
    if (!s) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const c of s) chunks.push(c as Buffer);
    } catch (e) {
      throw contentOr(e, 'damaged entry');
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}
