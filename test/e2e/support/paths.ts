import { resolve } from 'node:path';

export const PROJECT_ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const RENDERER_DIR = resolve(PROJECT_ROOT, 'out', 'renderer');
export const RESOURCES_DIR = resolve(PROJECT_ROOT, 'resources');
/** Screenshots and traces; kept by CI as artifacts. */
export const ARTIFACTS_DIR = resolve(PROJECT_ROOT, 'test-results', 'e2e');
