/**
 * platform-sim as its users get it: the built bundle (`npm run bench` runs `npm run build` first),
 * not the sources through tsx, whose transpiling adds work of its own (esbuild's keep-names
 * wrappers). Typed by the sources it is built from.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = (file: string): string => pathToFileURL(join(import.meta.dirname, '..', 'dist', file)).href;

export const { createSimulation } = (await import(dist('index.js'))) as typeof import('../src/index.ts');
export const { serve } = (await import(dist('server.js'))) as typeof import('../src/server.ts');
export const testingKit = (await import(dist('testing.js'))) as typeof import('../src/testing.ts');
