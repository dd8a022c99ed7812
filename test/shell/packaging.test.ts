import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const configPath = join(import.meta.dirname, '../../electron-builder.yml');

/** The `key: value` lines of one top-level block of the YAML file (the block is a flat map). */
function block(yaml: string, name: string): Map<string, string> | null {
  const lines = yaml.split('\n');
  const start = lines.findIndex((l) => l === `${name}:`);
  if (start < 0) return null;
  const out = new Map<string, string>();
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const m = /^ {2}([A-Za-z]+):\s*(\S+)\s*$/.exec(line);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

/** electron-builder's FuseOptionsV1 (from @electron/fuses): a misspelt key would be silently ignored. */
const KNOWN_FUSES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
];

describe('packaged app', () => {
  it('flips the Electron fuses that close the ways around the signed app', async () => {
    const yaml = await readFile(configPath, 'utf8');
    const fuses = block(yaml, 'electronFuses');
    expect(fuses).not.toBeNull();
    expect(Object.fromEntries(fuses!)).toMatchObject({
      runAsNode: 'false',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableCookieEncryption: 'true',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
      grantFileProtocolExtraPrivileges: 'false',
    });
    for (const key of fuses!.keys()) expect(KNOWN_FUSES, key).toContain(key);
  });

  it('packs the app into an asar archive whose integrity is embedded', async () => {
    const yaml = await readFile(configPath, 'utf8');
    expect(yaml).toMatch(/^asar: true$/m);
    expect(yaml).not.toMatch(/disableIntegrity/);
  });
});
