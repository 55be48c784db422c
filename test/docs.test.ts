// The documents' test (docs/testing.md, "The documents' test"): README.md and docs/*.md link only
// to files and headings that exist, README.md stays short, and every command block marked
// runnable (<!-- runnable --> before a ```sh block) runs against a real browser shell with its
// embedded sandbox, started here on a fresh data directory and a free port on 127.0.0.1.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { docBlockRunner, type DocBlockRunner } from '#support/doc-blocks';
import { freePort } from '#support/free-port';
import { brokenLinks, outsideCitations, parseMarkdown } from '#support/markdown-docs';

const root = join(import.meta.dirname, '..');
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const parsed = new Map(
  documents.map((file) => [file, parseMarkdown(readFileSync(join(root, file), 'utf8'))]),
);

describe('the documents', () => {
  it('link only to files and headings that exist (screenshots included)', () => {
    expect(documents.flatMap((file) => brokenLinks(root, file))).toEqual([]);
  });

  it('cite nothing outside the repository: a clone has only what is in it', () => {
    expect(documents.flatMap((file) => outsideCitations(root, file, documents))).toEqual([]);
  });

  it('find a planted citation of a document outside the repository', () => {
    const planted = mkdtempSync(join(tmpdir(), 'till-docs-cite-'));
    try {
      mkdirSync(join(planted, 'docs'));
      writeFileSync(join(planted, 'docs/sandbox.md'), '# Sandbox\n');
      writeFileSync(
        join(planted, 'GUIDE.md'),
        [
          'See [the sandbox](docs/sandbox.md), `sandbox.md` and [the web](https://example.com/a.md).',
          'Names are in [the contracts](../shared/CONTRACTS.md).',
          'The interface (`../shared/provider-interface.md`) is the authority.',
          'The house style (`ARCHITECTURE.md`).',
        ].join('\n'),
      );
      expect(outsideCitations(planted, 'GUIDE.md', ['docs/sandbox.md', 'GUIDE.md'])).toEqual([
        'GUIDE.md:2: link ../shared/CONTRACTS.md is outside the repository',
        'GUIDE.md:2: ../shared/CONTRACTS.md is outside the repository',
        'GUIDE.md:3: ../shared/provider-interface.md is outside the repository',
        'GUIDE.md:4: ARCHITECTURE.md is not in the repository',
      ]);
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });

  it('keep README.md at most 250 lines', () => {
    expect(parsed.get('README.md')?.lineCount).toBeLessThanOrEqual(250);
  });

  it('mark only ```sh blocks runnable, and README.md has the first sale among them', () => {
    expect(
      [...parsed].flatMap(([file, doc]) => doc.markerProblems.map((p) => `${file} ${p}`)),
    ).toEqual([]);
    const readme =
      parsed
        .get('README.md')
        ?.runnable.map((block) => block.code)
        .join('\n') ?? '';
    expect(readme).toContain('createSale');
    expect(readme).toContain('npm run pay');
  });
});

describe('the runnable commands, against a real till', () => {
  let dataDir: string;
  let shell: JsonChild<{ url: string; control_url: string }>;
  let runner: DocBlockRunner;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'till-docs-'));
    const port = await freePort();
    shell = await startJsonChild('scripts/web.ts', ['--port', String(port)], {
      cwd: root,
      env: { TRANSFER_TILL_DATA_DIR: dataDir },
      timeoutMs: 150_000,
    });
    runner = docBlockRunner({
      cwd: root,
      env: { TRANSFER_TILL_DATA_DIR: dataDir },
      timeoutMs: 45_000,
    });
  }, 180_000);

  afterAll(async () => {
    await shell?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const withBlocks = documents.filter((file) => (parsed.get(file)?.runnable.length ?? 0) > 0);

  it.each(withBlocks)(
    '%s: every runnable block succeeds',
    async (file) => {
      const failure = await runner.run(file, parsed.get(file)?.runnable ?? []);
      expect(
        failure &&
          `${file}:${failure.block?.line ?? '?'} exited ${failure.exitCode}: ${failure.block?.code.split('\n')[0] ?? ''}\n${failure.output}`,
      ).toBeNull();
    },
    60_000,
  );

  it('fails on a planted broken command and on a refusal of the till, naming the block', async () => {
    const planted = parseMarkdown(
      [
        '<!-- runnable -->',
        '',
        '```sh',
        'TILL_URL=$(npm run --silent web-info -- url)',
        '```',
        '',
        '<!-- runnable -->',
        '',
        '```sh',
        '# an account the sandbox never made: it refuses the transfer, npm run pay exits 1',
        'npm run pay -- 0000000001 1500',
        'echo "not reached"',
        '```',
      ].join('\n'),
    ).runnable;
    const failure = await runner.run('planted.md', planted);
    expect(failure?.block?.line).toBe(9);
    expect(failure?.exitCode).toBe(1);
    expect(failure?.output).toContain('The sandbox refused the transfer (404)');
    expect(failure?.output).not.toContain('not reached');
    const refused = parseMarkdown(
      [
        '<!-- runnable -->',
        '```sh',
        'TILL_URL=$(npm run --silent web-info -- url)',
        '# the bridge answers an unknown channel 200 {"ok":false,…}: still a failure',
        'curl -s -X POST "${TILL_URL%%#*}api/call/noSuchChannel" -H "authorization: Bearer ${TILL_URL##*token=}" \\',
        "  -H 'content-type: application/json' -d '{}'",
        'echo "not reached"',
        '```',
      ].join('\n'),
    ).runnable;
    const refusal = await runner.run('refused.md', refused);
    expect(refusal?.output).toContain('UNKNOWN_CHANNEL');
    expect(refusal?.output).toContain('the till refused the call (ok:false)');
    expect(refusal?.output).not.toContain('not reached');
  }, 60_000);
});
