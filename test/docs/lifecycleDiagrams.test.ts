/**
 * The lifecycle diagrams of the docs are rendered from the lifecycle tables (src/core/lifecycle.ts):
 * each chapter carries the rendering between `<!-- lifecycle:<name>:start -->` and
 * `<!-- lifecycle:<name>:end -->`. A table change without a docs change fails here and prints the
 * block to paste; `UPDATE_DOCS=1 npx vitest run test/docs/lifecycleDiagrams.test.ts` rewrites it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Lifecycle, Move } from '../../src/core/lifecycle.ts';
import { renderLifecycle } from '../../src/core/lifecycleDiagram.ts';
import { csrLifecycle } from '../../src/registry/certificates/csr/lifecycle.ts';
import { podLifecycle } from '../../src/controllers/node-agent/podLifecycle.ts';
import { statefulSetPodLifecycle } from '../../src/controllers/stateful-set/podLifecycle.ts';

const docsDir = join(import.meta.dirname, '..', '..', 'docs');
const update = process.env['UPDATE_DOCS'] === '1';

const chapters: { file: string; lifecycle: Lifecycle<string, Move<string>> }[] = [
  { file: 'certificates.md', lifecycle: csrLifecycle },
  { file: 'node-agent.md', lifecycle: podLifecycle },
  { file: 'statefulset.md', lifecycle: statefulSetPodLifecycle },
];

describe('lifecycle diagrams in the docs', () => {
  for (const { file, lifecycle } of chapters) {
    it(`docs/${file} shows the ${lifecycle.name} lifecycle as its table renders it`, () => {
      const path = join(docsDir, file);
      const text = readFileSync(path, 'utf8');
      const start = `<!-- lifecycle:${lifecycle.name}:start -->\n`;
      const end = `\n<!-- lifecycle:${lifecycle.name}:end -->`;
      const from = text.indexOf(start);
      const to = text.indexOf(end, from);
      expect(from >= 0 && to >= 0, `docs/${file} has no ${start.trim()} … ${end.trim()} markers`).toBe(true);
      const shown = text.slice(from + start.length, to);
      const expected = renderLifecycle(lifecycle);
      if (shown === expected) return;
      if (update) {
        writeFileSync(path, text.slice(0, from + start.length) + expected + text.slice(to));
        return;
      }
      throw new Error(
        `docs/${file}: the ${lifecycle.name} lifecycle differs from its table. Paste this between the markers ` +
          `(or run UPDATE_DOCS=1 npx vitest run test/docs/lifecycleDiagrams.test.ts):\n\n${start}${expected}${end}\n`,
      );
    });
  }
});
