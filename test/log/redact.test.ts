import { afterEach, describe, expect, it } from 'vitest';
import { redact, registerSecret } from '../../src/main/log';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
function reg(value: string, keepLast?: number): () => void {
  const un = registerSecret(value, keepLast === undefined ? {} : { keepLast });
  cleanups.push(un);
  return un;
}

describe('redact', () => {
  it('removes a registered secret wherever it occurs, and only while registered', () => {
    const secret = 'sk-unit-secret-7781';
    const un = reg(secret);
    const out = redact(`failed: key=${secret}; again ${secret}!`);
    expect(out).not.toContain(secret);
    expect(out).toContain('failed:');
    un();
    expect(redact(`plain ${secret}`)).toBe(`plain ${secret}`);
  });

  it('removes the JSON-escaped and URL-encoded forms of a secret with quotes and non-ASCII', () => {
    const secret = 'pa"ss\\wörd-密钥-xyz';
    reg(secret);
    const asJson = JSON.stringify({ note: `the secret is ${secret}` });
    expect(asJson).not.toContain(secret); // the escaped form differs from the raw one
    expect(redact(asJson)).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(redact(`?s=${encodeURIComponent(secret)}`)).not.toContain(encodeURIComponent(secret));
  });

  it('counts registrations: one owner unregistering does not expose another owner’s secret', () => {
    const secret = 'shared-secret-abcdef';
    const a = reg(secret);
    reg(secret);
    a();
    a(); // a second call is a no-op, not a second release
    expect(redact(secret)).not.toContain(secret);
  });

  it('masks X-SIGNATURE and signature values in header, JSON and query forms', () => {
    const samples = [
      'X-SIGNATURE: abcDEF123/+xyz',
      '"x-signature":"abcDEF123/+xyz"',
      "{ 'X-SIGNATURE': 'abcDEF123/+xyz' }",
      'signature=abcDEF123/+xyz&next=1',
      '{\\"signature\\":\\"abcDEF123/+xyz\\"}',
    ];
    for (const s of samples) {
      const out = redact(s);
      expect(out, s).not.toContain('abcDEF123');
      expect(out, s).toContain('[REDACTED]');
    }
  });

  it('masks API keys but keeps their last 4 characters', () => {
    const out = redact('X-API-KEY: pk_live_1234567890ABCD and "apiKey":"pk_test_0000ZZZZ"');
    expect(out).not.toContain('pk_live_1234567890');
    expect(out).toContain('…ABCD');
    expect(out).not.toContain('pk_test_0000');
    expect(out).toContain('…ZZZZ');
  });

  it('masks a registered API key everywhere, keeping its last 4', () => {
    reg('pk_registered_key_WXYZ', 4);
    const out = redact('using pk_registered_key_WXYZ now');
    expect(out).toBe('using …WXYZ now');
  });

  it('masks anything shaped like a base64 HMAC-SHA256 (44 characters ending in =)', () => {
    const sig = 'B8HORNwXsaDd/y6f7tUAXwcfn7N3XhfjV1xC2su6FGc=';
    expect(redact(`sent ${sig} over the wire`)).toBe('sent [REDACTED] over the wire');
    expect(redact(`"${sig}"`)).toBe('"[REDACTED]"');
  });

  it('never masks a value too short to be a secret, so ordinary text stays readable', () => {
    const message =
      'Could not reach the service at 127.0.0.1:1. Check the base URL and your connection. {"ts":"x","scope":"s"}';
    for (const tooShort of ['s', 'k', 'e', 'ser', '1234567']) reg(tooShort);
    expect(redact(message)).toBe(message);
  });

  it('masks the whole token a secret is glued into, never a piece of a word', () => {
    const secret = 'Qx7vT2mP9kL4';
    reg(secret);
    expect(redact(`glued pk_live_ABCD${secret}tail and more`)).toBe('glued [REDACTED] and more');
    expect(redact(`as a word ${secret}, in a query ?s=${secret}&n=1, in a path /x/${secret}/y`)).toBe(
      'as a word [REDACTED], in a query ?s=[REDACTED]&n=1, in a path /x/[REDACTED]/y',
    );
    expect(redact(`percent-escaped %20${secret}`)).toBe('percent-escaped [REDACTED]');
  });

  it('keeps a JSON line parseable when a secret follows an escape sequence', () => {
    const secret = 'Qx7vT2mP9kL4';
    reg(secret);
    const line = JSON.stringify({ msg: `first line\n${secret}\tafter é\u0007${secret}` });
    const out = redact(line);
    expect(out).not.toContain(secret);
    expect(JSON.parse(out)).toEqual({ msg: 'first line\n[REDACTED]\tafter é\u0007[REDACTED]' });
  });

  it('masks a registered API key glued to other text whole, without its tail', () => {
    reg('pk_registered_key_WXYZ', 4);
    expect(redact('pk_registered_key_WXYZsecret-suffix')).toBe('[REDACTED]-suffix');
  });

  it('leaves ordinary text alone', () => {
    const texts = [
      'The service rejected the API key or signature (401). Check the key and secret in Settings → Profiles.',
      'POST /api/v1/shipment/search 200 in 35 ms (attempt 1)',
      // 43 characters without padding, and a 45-character run: not the shape of a signature.
      'B8HORNwXsaDd/y6f7tUAXwcfn7N3XhfjV1xC2su6FGc',
      'xB8HORNwXsaDd/y6f7tUAXwcfn7N3XhfjV1xC2su6FGc=',
      'Çelik boru ürünleri, İstanbul — 不锈钢管',
    ];
    for (const t of texts) expect(redact(t)).toBe(t);
  });
});
