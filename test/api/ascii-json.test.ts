import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiJsonText } from '../../src/main/api/ascii-json';

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
