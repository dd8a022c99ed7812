import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR, RENDERER_DIR } from './paths';

export default function setup(): void {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(
      `${RENDERER_DIR}/index.html is missing: run \`npx electron-vite build\` before the end-to-end tests.`,
    );
  }
  if (!existsSync('/usr/bin/chromium')) {
    throw new Error('/usr/bin/chromium is missing: apt-get install chromium (npm test installs it).');
  }
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
}
