// After `npx electron-vite build`: the sandboxed preload must be one file that requires only 'electron'
// (a sandboxed preload cannot load anything else, and zod must not be bundled into it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const path = join(import.meta.dirname, '..', 'out', 'preload', 'index.cjs');
const code = readFileSync(path, 'utf8');
const required = [...code.matchAll(/require\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
const dynamic = /\bimport\s*\(/.test(code);
const bad = required.filter((r) => r !== 'electron');
console.log(`preload: ${code.length} bytes; requires: ${[...new Set(required)].join(', ') || 'nothing'}`);
if (bad.length > 0 || dynamic || /\bzod\b/.test(code)) {
  console.error(
    `preload must require only 'electron' (found: ${bad.join(', ') || 'a dynamic import or zod'})`,
  );
  process.exit(1);
}
