/**
 * kube-apiserver's `--token-auth-file`: CSV records `token,user,uid,"group1,group2"` (groups
 * optional, quoted when there are several). Blank lines and lines starting with `#` are skipped.
 */
import { readFileSync } from 'node:fs';
import type { StaticUser } from '../../sim/options.ts';

function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
    } else if (c === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((f) => f.trim());
}

export function parseTokenAuthCsv(text: string): { ok: true; users: StaticUser[] } | { ok: false; message: string } {
  const users: StaticUser[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [token = '', user = '', uid = '', groups = ''] = fields(line);
    if (token === '' || user === '') return { ok: false, message: `token file line ${n + 1}: expected at least token and user name` };
    users.push({ token, user, ...(uid === '' ? {} : { uid }), groups: groups === '' ? [] : groups.split(',').map((g) => g.trim()).filter((g) => g !== '') });
  }
  return { ok: true, users };
}

export function readTokenAuthFile(path: string): { ok: true; users: StaticUser[] } | { ok: false; message: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, message: `cannot read token file ${path}: ${(e as Error).message}` };
  }
  return parseTokenAuthCsv(text);
}
