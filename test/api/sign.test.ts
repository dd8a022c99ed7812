import { describe, expect, it } from 'vitest';
import { sign } from '../../src/main/api/sign';

/*
 * Known answers computed with OpenSSL, independently of this code:
 *   printf %s "$body" | openssl dgst -sha256 -hmac "$secret" -binary | base64
 * with secret='s3cr3t-Portolan-TEST-key/+=' (the last vector uses secret 'şifre-密钥').
 */
const SECRET = 's3cr3t-Portolan-TEST-key/+=';

const VECTORS: { name: string; body: string; signature: string }[] = [
  {
    name: 'ASCII body',
    body: '{"size":10,"product_detail":"steel pipe","importer_countries":["DE","FR"]}',
    signature: 'B8HORNwXsaDd/y6f7tUAXwcfn7N3XhfjV1xC2su6FGc=',
  },
  {
    name: 'Turkish product name',
    body: '{"size":100,"product_detail":"Çelik boru ürünleri, İstanbul"}',
    signature: 'KuCu4ZcTOXMdYneVRjAJZ0y0HvBjfOdpjz8ZgAoLH6A=',
  },
  {
    name: 'Chinese product name',
    body: '{"size":10,"product_detail":"不锈钢管"}',
    signature: 'Qj2+Cs1x+Q41lBBiWfYSFL+x+DbpNpB0YssIwkXr9MM=',
  },
  { name: 'empty GET payload', body: '', signature: 'RHGSj2f9mZ8Xxm3+JEOusFZQa4zMHA912y6stB+g5FU=' },
];

describe('sign', () => {
  for (const v of VECTORS) {
    it(`matches OpenSSL for the ${v.name} (string and UTF-8 bytes)`, () => {
      expect(sign(v.body, SECRET)).toBe(v.signature);
      expect(sign(new TextEncoder().encode(v.body), SECRET)).toBe(v.signature);
    });
  }

  it('encodes a non-ASCII secret as UTF-8', () => {
    expect(sign('{"firm":"acme-gmbh"}', 'şifre-密钥')).toBe('84FDnFLOfNgkL1Fo27T8I1HwvGv4ZbJJwONbhfni6rw=');
  });

  it('changes when fields are re-ordered, matching OpenSSL for the re-ordered text', () => {
    const reordered = '{"product_detail":"steel pipe","size":10,"importer_countries":["DE","FR"]}';
    expect(JSON.parse(reordered)).toEqual(JSON.parse(VECTORS[0]!.body));
    expect(sign(reordered, SECRET)).toBe('b64Hdt4YBHBBl95Le849V452PXHasK9r8XQpBDGv51U=');
    expect(sign(reordered, SECRET)).not.toBe(VECTORS[0]!.signature);
  });

  it('changes when only whitespace changes, matching OpenSSL for the spaced text', () => {
    const spaced = '{"size": 10,"product_detail":"steel pipe","importer_countries":["DE","FR"]}';
    expect(sign(spaced, SECRET)).toBe('9n7cdlOj+K/guT+QZ1ll4svNxJfdbXpPaTQRyGHU3uk=');
    expect(sign(spaced, SECRET)).not.toBe(VECTORS[0]!.signature);
  });

  it('differs for a different secret', () => {
    expect(sign(VECTORS[0]!.body, `${SECRET}x`)).not.toBe(VECTORS[0]!.signature);
  });
});
