/**
 * `platform-sim run --report`: one self-contained HTML page (no scripts, nothing fetched), which
 * headless Chromium renders without a console error; the screenshot in docs/ is of this page
 * (`UPDATE_DOCS=1 npx vitest run test/scenarios/report.test.ts` takes it again). Where Debian's
 * chromium is not installed the browser part is skipped with the reason printed.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.ts';

const root = join(import.meta.dirname, '..', '..');
const browser = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const screenshot = join(root, 'docs', 'scenario-report.png');
const shown = ['scenarios/workloads/ordered-ready-halt.yaml', 'scenarios/certificates/csr-approve-and-issue.yaml', 'scenarios/identity/token-expiry-leeway.yaml'];

async function writeReport(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'psim-report-')), 'report.html');
  const r = await cli(['run', ...shown.map((f) => join(root, f)), '--report', out], { out: () => {}, err: () => {} });
  expect(r.code).toBe(0);
  return out;
}

describe('the scenario report', () => {
  it('is one self-contained page: steps, a timeline per scenario, token windows; nothing to fetch, no scripts', async () => {
    const html = readFileSync(await writeReport(), 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|src=|href="https?:/i);
    expect(html.match(/<h2 /g)).toHaveLength(3);
    expect(html).toContain('statefulset-controller: created Pod web-1');
    expect(html).toContain('Tokens: valid from issue to expiry');
    expect(html).toContain('CSR issued');
    expect(html).toMatch(/<td>alice<\/td><td>Approved,Issued<\/td><td>csr-signer<\/td>/);
    expect(html).toContain('<td>alice</td><td>Approved</td><td>system:admin (PUT …/alice/approval)</td>');
  });

  it.skipIf(browser === undefined)('renders in headless Chromium without console errors', async () => {
    const page = await writeReport();
    const b = await chromium.launch({ executablePath: browser!, args: ['--no-sandbox'] });
    try {
      const tab = await b.newPage({ viewport: { width: 1400, height: 1000 } });
      const problems: string[] = [];
      tab.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      tab.on('request', (r) => {
        if (!r.url().startsWith('file:')) problems.push(`fetched ${r.url()}`);
      });
      await tab.goto(`file://${page}`);
      expect(await tab.locator('h2').count()).toBe(3);
      expect(await tab.locator('.picture svg').count()).toBe(3);
      const box = await tab.locator('.picture svg').first().boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(300);
      expect(problems).toEqual([]);
      if (process.env['UPDATE_DOCS'] === '1') await tab.screenshot({ path: screenshot, fullPage: false });
    } finally {
      await b.close();
    }
    expect(existsSync(screenshot)).toBe(true);
  }, 60_000);

  if (browser === undefined) console.log('scenario report: headless rendering skipped: no chromium at /usr/bin/chromium (Debian package chromium)');
});
