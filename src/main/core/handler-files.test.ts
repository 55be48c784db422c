/**
 * One hop from channel to handler: each group of the contract (`<group>Channels`) has one file,
 * src/main/<domain>/<group>-handlers.ts in the domain that owns it (the core keeps only the
 * groups of the till as a whole), exporting `<group>Handlers`, and no other file of the core or
 * of a shell defines a handler of it (no handler inline in a composition root, none overridden
 * by a shell). Read from the source with the TypeScript parser, no type checker.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as contract from '#shared/bridge/contract';
import { channelNames } from '#shared/bridge/contract';

const MAIN = join(import.meta.dirname, '..');
const CORE = import.meta.dirname;

const groups = Object.entries(contract).flatMap(([name, value]) => {
  const match = /^([a-z]+)Channels$/.exec(name);
  return match?.[1] && typeof value === 'object' && value !== null
    ? [{ group: match[1], exportName: name, channels: Object.keys(value) }]
    : [];
});

/** The folder of src/main that owns each group's handler file. */
const OWNER: Readonly<Record<string, string>> = {
  app: 'core',
  settings: 'core',
  shell: 'core',
  report: 'core',
  sale: 'engine',
  sync: 'sync',
  payout: 'payouts',
  exception: 'reports',
  printing: 'printing',
  session: 'auth',
  hub: 'hub',
};

const groupOf = new Map(groups.flatMap((g) => g.channels.map((channel) => [channel, g.group])));

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The core and the shells: every file of core/, and every file that imports the core. */
function compositionAndShells(): string[] {
  return productionFiles(MAIN).filter(
    (path) =>
      path.startsWith(CORE) ||
      /from '#main\/core\/|from '\.\.\/core\//.test(readFileSync(path, 'utf8')),
  );
}

/** Members named after a channel whose value is a function: a handler, wherever it sits. */
function handlerMembers(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      for (const member of node.properties) {
        const name = member.name && ts.isIdentifier(member.name) ? member.name.text : null;
        if (name === null || !groupOf.has(name)) continue;
        const isFunction =
          ts.isMethodDeclaration(member) ||
          ts.isShorthandPropertyAssignment(member) ||
          (ts.isPropertyAssignment(member) &&
            (ts.isArrowFunction(member.initializer) ||
              ts.isFunctionExpression(member.initializer)));
        if (isFunction) found.push(name);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function handlerFileOf(group: string): string {
  return join(MAIN, OWNER[group] ?? 'core', `${group}-handlers.ts`);
}

describe('the handler files', () => {
  it('cover the contract: eleven groups, each channel in exactly one, each with its owner', () => {
    expect(groups.map((g) => g.group)).toHaveLength(11);
    for (const { group } of groups) expect(OWNER[group], group).toBeDefined();
    expect(groups.flatMap((g) => g.channels).sort()).toEqual([...channelNames].sort());
  });

  it.each(groups)(
    '$exportName: its handler file exports the group handlers',
    async ({ group, exportName }) => {
      const path = handlerFileOf(group);
      expect(existsSync(path), `${relative(MAIN, path)} is missing`).toBe(true);
      const module = (await import(path)) as Record<string, unknown>;
      expect(typeof module[`${group}Handlers`]).toBe('function');
      expect(readFileSync(path, 'utf8')).toContain(`HandlersOf<typeof ${exportName}>`);
    },
  );

  it('hold every handler of their group, and nothing else in the core or a shell defines one', () => {
    const misplaced: string[] = [];
    for (const path of compositionAndShells()) {
      for (const channel of handlerMembers(readFileSync(path, 'utf8'), path)) {
        const own = handlerFileOf(groupOf.get(channel) ?? '');
        if (path !== own) misplaced.push(`${relative(MAIN, path)}: ${channel}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('each name a group in HandlersOf only in that group’s file', () => {
    const elsewhere: string[] = [];
    for (const path of productionFiles(MAIN)) {
      const source = readFileSync(path, 'utf8');
      for (const { group, exportName } of groups) {
        if (source.includes(`HandlersOf<typeof ${exportName}>`) && path !== handlerFileOf(group)) {
          elsewhere.push(`${relative(MAIN, path)}: ${exportName}`);
        }
      }
    }
    expect(elsewhere).toEqual([]);
  });

  it('see a handler written inline or as an override (the check can fail)', () => {
    expect(
      handlerMembers('const t = { ...core.handlers, rotateShellToken: () => rotate() };'),
    ).toEqual(['rotateShellToken']);
    expect(handlerMembers('const t = { getAppInfo() { return info; }, getStatus };')).toEqual([
      'getAppInfo',
      'getStatus',
    ]);
    expect(handlerMembers('const t = { getStatus: status, lock: true };')).toEqual([]);
  });
});
