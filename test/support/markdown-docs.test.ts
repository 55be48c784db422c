import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchor, parseMarkdown } from './markdown-docs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'till-md-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('headingAnchor', () => {
  it("follows GitHub's rule", () => {
    expect(headingAnchor("The owner's end of day")).toBe('the-owners-end-of-day');
    expect(headingAnchor('The seven-day trend: `getTrend` (owner)')).toBe(
      'the-seven-day-trend-gettrend-owner',
    );
    expect(headingAnchor('Control API, control URL')).toBe('control-api-control-url');
  });
});

describe('parseMarkdown', () => {
  it('finds links and images outside code, and numbers repeated headings', () => {
    const doc = parseMarkdown(
      [
        '# A',
        'See [b](b.md#x) and ![pic](screens/p.png), not `[c](c.md)`.',
        '```sh',
        'echo "[d](d.md)"',
        '```',
        '## A',
      ].join('\n'),
    );
    expect(doc.links.map((link) => [link.target, link.image])).toEqual([
      ['b.md#x', false],
      ['screens/p.png', true],
    ]);
    expect([...doc.anchors]).toEqual(['a', 'a-1']);
    expect(doc.lineCount).toBe(6);
  });

  it('takes only ```sh blocks right after the marker, and reports a misplaced marker', () => {
    const doc = parseMarkdown(
      [
        '<!-- runnable -->',
        '',
        '```sh',
        'echo one',
        '```',
        '```sh',
        'echo not marked',
        '```',
        '<!-- runnable -->',
        'text in between',
        '<!-- runnable -->',
        '```json',
        '{}',
        '```',
      ].join('\n'),
    );
    expect(doc.runnable).toEqual([{ line: 3, code: 'echo one' }]);
    expect(doc.markerProblems).toHaveLength(2);
  });
});

describe('brokenLinks', () => {
  it('passes links to files and headings that exist, and names each one that does not', () => {
    const root = tree({
      'README.md': '[guide](docs/guide.md#the-day) [web](https://example.ng/x.md)\n',
      'docs/guide.md': '# Guide\n## The day\n![shot](screens/a-pc.png) [top](#guide)\n',
      'docs/screens/a-pc.png': 'png',
    });
    expect(brokenLinks(root, 'README.md')).toEqual([]);
    expect(brokenLinks(root, 'docs/guide.md')).toEqual([]);
  });

  it('fails on a planted broken link, a missing screenshot and a missing heading', () => {
    const root = tree({
      'README.md':
        '[gone](docs/gone.md)\n![shot](docs/screens/missing-pc.png)\n[day](docs/guide.md#no-such)\n',
      'docs/guide.md': '# Guide\n',
    });
    expect(brokenLinks(root, 'README.md')).toEqual([
      'README.md:1: link docs/gone.md (no file docs/gone.md)',
      'README.md:2: image docs/screens/missing-pc.png (no file docs/screens/missing-pc.png)',
      'README.md:3: link docs/guide.md#no-such (no heading #no-such in docs/guide.md)',
    ]);
  });
});
