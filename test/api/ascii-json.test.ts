import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AsciiJsonReader, asciiJsonText } from '../../src/main/api/ascii-json';

/** What the client parsed before: the body decoded as `Response.text()` decodes it. */
const decoded = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes);

/** JSON.parse's outcome: the value, or that it refused the text. */
function parsed(text: string): { value: unknown } | { refused: true } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { refused: true };
  }
}

/** The client's reading: the one-byte text where there is one, else the decoded body. */
function clientReading(bytes: Uint8Array): { value: unknown } | { refused: true } {
  return parsed(asciiJsonText(bytes) ?? decoded(bytes));
}

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const isOneByte = (s: string): boolean => [...s].every((c) => c.charCodeAt(0) < 0x80);

describe('an answer read as one-byte JSON text', () => {
  it('gives the same records as the decoded body, names in any script included', () => {
    const body = utf8(
      JSON.stringify({
        total: 4,
        shipments: [
          { importerName: 'Acme Boru Sanayi A.Ş.', productDetail: 'Çelik boru, İzmir' },
          { importerName: '上海不锈钢管有限公司', productDetail: 'ステンレス鋼管' },
          { importerName: 'Ωmega Trading ΕΠΕ', productDetail: 'pipes 🚢 by sea, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢' },
          { importerName: 'Plain ASCII Ltd', productDetail: 'tab\there, quote " and \\ backslash' },
        ],
      }),
    );
    const text = asciiJsonText(body);
    expect(text).not.toBeNull();
    expect(isOneByte(text!)).toBe(true);
    expect(JSON.parse(text!)).toEqual(JSON.parse(decoded(body)));
  });

  it('is the body itself when the body is all ASCII', () => {
    const body = utf8('{"total": 1, "shipments": [{"hsCode": "730640"}]}');
    expect(asciiJsonText(body)).toBe(body.toString('latin1'));
  });

  it('drops a byte-order mark, as Response.text() does', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('{"name": "Café"}')]);
    expect(JSON.parse(asciiJsonText(body)!)).toEqual({ name: 'Café' });
  });

  it('reads bytes that are not UTF-8 as the replacement character, as the decoder does', () => {
    const cases = [
      [0x80], // a continuation byte alone
      [0xc3], // a sequence cut short by the closing quote
      [0xe4, 0xb8], // a three-byte sequence cut short
      [0xc0, 0xaf], // an overlong slash
      [0xed, 0xa0, 0x80], // a surrogate written as UTF-8
      [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
      [0xff, 0x41, 0xc3, 0xa9], // a bad byte, then "A", then a good "é"
    ];
    for (const bad of cases) {
      const body = Buffer.concat([utf8('{"name": "x'), Buffer.from(bad), utf8('y"}')]);
      expect(clientReading(body)).toEqual(parsed(decoded(body)));
      expect(isOneByte(asciiJsonText(body)!)).toBe(true);
    }
  });

  it('keeps an escaped backslash before a character beyond ASCII, and refuses an escape of one', () => {
    // "\\é" is a backslash then é; "\é" is not JSON, and must not become "\\u00e9" (valid) by escaping.
    const valid = utf8('{"name": "a\\\\é"}');
    expect(clientReading(valid)).toEqual({ value: { name: 'a\\é' } });
    const invalid = utf8('{"name": "a\\é"}');
    expect(asciiJsonText(invalid)).toBeNull();
    expect(clientReading(invalid)).toEqual({ refused: true });
    const threeSlashes = utf8('{"name": "a\\\\\\é"}');
    expect(asciiJsonText(threeSlashes)).toBeNull();
  });

  it('refuses what the decoded body refuses: a character beyond ASCII outside a string', () => {
    for (const body of ['{"total": é}', '{é: 1}', '[1, 2]ü', '{"a": 1} ¶']) {
      expect(parsed(decoded(utf8(body)))).toEqual({ refused: true });
      expect(clientReading(utf8(body))).toEqual({ refused: true });
    }
  });

  it('leaves a body that does not open an object or an array to the decoder', () => {
    for (const body of ['', '   ', '\u00a0', '<html>gateway</html>', '"just a string"', '42', 'null']) {
      expect(asciiJsonText(utf8(body))).toBeNull();
    }
    expect(asciiJsonText(utf8(' \r\n\t{"a": "ü"}'))).not.toBeNull();
  });

  it('gives what the decoded body gives, for any JSON value written as UTF-8', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('', ' ', '\n'), (value, space) => {
        const body = utf8(`${space}${JSON.stringify({ v: value })}`);
        const text = asciiJsonText(body);
        return (
          text !== null &&
          isOneByte(text) &&
          JSON.stringify(JSON.parse(text)) === JSON.stringify(JSON.parse(decoded(body)))
        );
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same text wherever the body lies in memory, a character beyond ASCII at any byte', () => {
    // The scan reads four bytes at a time where they are aligned: every alignment of the body and every
    // place of a character within a word, a long ASCII stretch between them.
    const fill = 'a'.repeat(61);
    const values = Array.from({ length: 24 }, (_, i) => `${fill.slice(0, i)}é${fill}€${'b'.repeat(i % 5)}`);
    const long = JSON.stringify({ shipments: values.map((v) => ({ name: v })) });
    for (const body of [long, '{}', '[1]', '["é"]', '{"a":"é"}'].map(utf8)) {
      const expected = JSON.parse(decoded(body)) as unknown;
      for (let offset = 0; offset < 8; offset++) {
        const memory = new Uint8Array(body.length + 8);
        memory.set(body, offset);
        const text = asciiJsonText(memory.subarray(offset, offset + body.length));
        expect(text).not.toBeNull();
        expect(isOneByte(text!)).toBe(true);
        expect(JSON.parse(text!)).toEqual(expected);
      }
    }
  });

  it('reads any bytes inside a string as the decoder does, or refuses them as it does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (inner) => {
        const body = Buffer.concat([utf8('{"s": "'), Buffer.from(inner), utf8('"}')]);
        expect(clientReading(body)).toEqual(parsed(decoded(body)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('an answer read as one-byte JSON text while it arrives', () => {
  /** The reader's text for `body` pushed in the chunks that end at `cuts` (sorted, inside the body). */
  function inChunks(body: Uint8Array, cuts: readonly number[], expected = 0): string | null {
    const reader = new AsciiJsonReader(expected);
    let from = 0;
    for (const cut of [...cuts, body.length]) {
      // Each chunk in memory of its own, as the network hands them over.
      reader.push(Uint8Array.from(body.subarray(from, cut)));
      from = cut;
    }
    const read = reader.end();
    if (read) expect(Buffer.from(read.bytes).toString('latin1')).toBe(read.text);
    return read?.text ?? null;
  }
  /**
   * An ASCII field first, longer than the 64 KiB the reader judges the start on: the chunks after those
   * bytes are written as they come, not gathered with the start. `padded(body)` has it; `tail` is where
   * the rest of the body starts.
   */
  const PAD = `{"pad":"${'x'.repeat(1 << 16)}",`;
  const padded = (json: string): { body: Buffer; tail: number } => {
    const lead = /^[\ufeff\s]*/.exec(json)![0];
    const body = utf8(`${lead}${PAD}${json.slice(lead.length + 1)}`);
    return { body, tail: utf8(`${lead}${PAD}`).length };
  };
  /** Places to cut `body` anywhere, and more where its chunks are written as they come (from `tail`). */
  const cutsOf = (length: number, tail = 0) =>
    fc
      .tuple(
        fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, length) }), { maxLength: 6 }),
        fc.uniqueArray(fc.integer({ min: tail, max: Math.max(tail, length) }), { maxLength: 12 }),
      )
      .map(([a, b]) => [...new Set([...a, ...b])].sort((x, y) => x - y));
  const bodyBytes = fc
    .tuple(fc.jsonValue(), fc.constantFrom('', ' ', '\ufeff', '\ufeff\n'), fc.boolean())
    .map(([value, lead, long]) => {
      const json = `${lead}${JSON.stringify({ v: value, s: 'é\\\\ü\\"€𝔘' })}`;
      return long ? padded(json) : { body: utf8(json), tail: 0 };
    });

  it('gives the text the whole body gives, however the body is cut, a cut inside a character included', () => {
    fc.assert(
      fc.property(
        bodyBytes.chain(({ body, tail }) => fc.tuple(fc.constant(body), cutsOf(body.length, tail))),
        ([body, cuts]) => {
          expect(inChunks(body, cuts)).toBe(asciiJsonText(body));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads any bytes inside a string as the decoder does, however they are cut', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.boolean()).chain(([inner, long]) => {
          const start = long ? utf8(PAD) : utf8('{');
          const body = Buffer.concat([start, utf8('"s": "'), Buffer.from(inner), utf8('"}')]);
          return fc.tuple(fc.constant(body), cutsOf(body.length, start.length));
        }),
        ([body, cuts]) => {
          const text = inChunks(body, cuts);
          expect(text).toBe(asciiJsonText(body));
          expect(parsed(text ?? decoded(body))).toEqual(parsed(decoded(body)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('counts the backslashes before a character beyond ASCII across chunks', () => {
    // "a\\\\é": two escaped backslashes, then é (valid); one more backslash escapes é (invalid).
    for (const [json, valid] of [
      ['{"n": "a\\\\é"}', true],
      ['{"n": "a\\\\\\é"}', false],
    ] as const) {
      // Gathered with the start (a short body), and written as they come (after a long first field).
      for (const { body, tail } of [{ body: utf8(json), tail: 0 }, padded(json)]) {
        const at = body.indexOf(0xc3);
        for (let cut = tail + 2; cut <= at + 1; cut++) {
          const text = inChunks(body, [cut]);
          if (valid) expect(JSON.parse(text!)).toEqual(JSON.parse(decoded(body)));
          else expect(text).toBeNull();
        }
      }
    }
  });

  it('writes a run beyond ASCII as long as many chunks as the whole body does', () => {
    // One run of 600,000 bytes (no ASCII between the characters), in chunks of 1 KiB.
    const body = utf8(JSON.stringify({ s: '上海不锈钢管有限公司'.repeat(20_000) }));
    const cuts = Array.from({ length: Math.floor(body.length / 1024) }, (_, i) => (i + 1) * 1024);
    const text = inChunks(body, cuts);
    expect(text).not.toBeNull();
    expect(text).toBe(asciiJsonText(body));
    expect(JSON.parse(text!)).toEqual(JSON.parse(decoded(body)));
  });

  it('takes no more room than it needs up front when a response claims a huge length', () => {
    const reader = new AsciiJsonReader(Number.MAX_SAFE_INTEGER);
    reader.push(utf8('{"name": "Café"}'));
    expect(JSON.parse(reader.end()!.text)).toEqual({ name: 'Café' });
  });

  it('judges a long body’s start and density on its first bytes, wherever the chunks end', () => {
    const record = JSON.stringify({ importerName: 'Société Générale', productDetail: 'x'.repeat(500) });
    const long = utf8(`{"shipments":[${Array.from({ length: 400 }, () => record).join(',')}]}`);
    const dense = utf8(JSON.stringify({ s: '上海 Steel 钢管, '.repeat(20_000) }));
    // Sparse in its first bytes, dense after: given up while it arrives, as the whole body's reading does.
    const denseLater = utf8(
      JSON.stringify({ a: `Société ${'x'.repeat(200)}`.repeat(1000), b: '上海 Steel 钢管, '.repeat(20_000) }),
    );
    for (const body of [long, dense, denseLater]) {
      const cuts = Array.from({ length: Math.floor(body.length / 4096) }, (_, i) => (i + 1) * 4096 - (i % 7));
      expect(inChunks(body, cuts, body.length)).toBe(asciiJsonText(body));
      expect(inChunks(body, cuts)).toBe(asciiJsonText(body));
    }
    expect(asciiJsonText(long)).not.toBeNull();
    expect(asciiJsonText(dense)).toBeNull();
    expect(asciiJsonText(denseLater)).toBeNull();
  });
});
