// The house drawn from the imports: every folder of src/main with its layer (MAIN_FOLDERS), every
// folder → folder arrow found in production files, the arrows that run up and the cycles between
// folders, and the core's imports of row-reading store modules; then the import cycles between
// the files of src/ (file-cycles.js). `npm run house [root]` prints it and fails on an arrow up,
// a folder cycle, a core file reading rows or a runtime file cycle; house.test.ts and
// file-cycles.test.ts assert there are none.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { fileCycles, renderFileCycles, stronglyConnected } from './file-cycles.js';
import { MAIN_LAYERS, isTestFile, mainPlaceOf, mainViolation, targetOf } from './layering.js';

/**
 * @typedef {import('./layering.js').MainPlace} MainPlace
 * @typedef {{ readonly from: MainPlace, readonly to: MainPlace, readonly imports: readonly string[], readonly up: string | null }} Arrow
 * @typedef {{ readonly folders: readonly MainPlace[], readonly arrows: readonly Arrow[], readonly cycles: readonly (readonly string[])[] }} House
 */

/**
 * The production source files of src/main (tests aside), relative to root.
 * @param {string} root
 * @returns {string[]}
 */
function productionFiles(root) {
  const main = path.join(root, 'src/main');
  return readdirSync(main, { recursive: true, encoding: 'utf8' })
    .filter((rel) => /\.[cm]?tsx?$/.test(rel) && !/\.d\.ts$/.test(rel))
    .map((rel) => path.join(main, rel))
    .filter((file) => !isTestFile(file, root));
}

/**
 * @param {string} root absolute project root
 * @returns {House}
 */
export function drawHouse(root) {
  /** @type {Map<string, MainPlace>} */
  const folders = new Map();
  /** @type {Map<string, { from: MainPlace, to: MainPlace, imports: string[] }>} */
  const arrows = new Map();
  for (const file of productionFiles(root)) {
    const from = mainPlaceOf(file, root);
    if (!from) continue;
    folders.set(from.folder, from);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: source } of importedFiles) {
      const target = targetOf(source, file, root);
      if (target.kind !== 'file' || !target.place || target.place.folder === from.folder) continue;
      const key = `${from.folder}\0${target.place.folder}`;
      const arrow = arrows.get(key) ?? { from, to: target.place, imports: [] };
      arrow.imports.push(`${path.relative(path.join(root, 'src/main'), file)} → ${source}`);
      arrows.set(key, arrow);
    }
  }
  const drawn = [...arrows.values()].map((arrow) => ({
    ...arrow,
    up: mainViolation(arrow.from, arrow.to),
  }));
  return {
    folders: [...folders.values()].sort(byLayerThenName),
    arrows: drawn.sort((a, b) => byLayerThenName(a.from, b.from) || byLayerThenName(a.to, b.to)),
    cycles: cyclesOf(drawn),
  };
}

/**
 * The store modules the core may import: those that open the file and keep it (its space, its
 * backups, the maintenance and retention its schedule runs). Every other store module reads or
 * writes rows (a repository, a named query, the callback inbox), which is a domain's work: the
 * core composes.
 */
export const STORE_MODULES_FOR_CORE = Object.freeze([
  'database',
  'store-space',
  'backup',
  'maintenance',
  'retention',
]);

/**
 * Each import of a row-reading store module by a production file of src/main/core, as
 * "core/<file> → <import>".
 * @param {string} root absolute project root
 * @returns {string[]}
 */
export function coreRowImports(root) {
  /** @type {string[]} */
  const found = [];
  for (const file of productionFiles(root)) {
    if (mainPlaceOf(file, root)?.folder !== 'core') continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: source } of importedFiles) {
      const target = targetOf(source, file, root);
      if (target.kind !== 'file' || target.place?.folder !== 'store') continue;
      const module = path.basename(source).replace(/\.[cm]?[jt]sx?$/, '');
      if (STORE_MODULES_FOR_CORE.includes(module)) continue;
      found.push(`${path.relative(path.join(root, 'src/main'), file)} → ${source}`);
    }
  }
  return found.sort();
}

/** @param {MainPlace} a @param {MainPlace} b */
function byLayerThenName(a, b) {
  const rank = (/** @type {MainPlace} */ p) => (p.layer ? MAIN_LAYERS.indexOf(p.layer) : -1);
  return rank(a) - rank(b) || a.folder.localeCompare(b.folder);
}

/**
 * The groups of two or more folders importing each other round: each is a cycle of imports.
 * @param {readonly Arrow[]} arrows
 * @returns {string[][]}
 */
export function cyclesOf(arrows) {
  /** @type {Map<string, string[]>} */
  const next = new Map();
  for (const { from, to } of arrows) {
    next.set(from.folder, [...(next.get(from.folder) ?? []), to.folder]);
    if (!next.has(to.folder)) next.set(to.folder, []);
  }
  return stronglyConnected(next);
}

/**
 * The house as text: the layers top-down with their folders and the arrows out of each folder.
 * @param {House} house
 * @returns {string}
 */
export function renderHouse(house) {
  const lines = [];
  for (const layer of [...MAIN_LAYERS].reverse()) {
    const here = house.folders.filter((f) => f.layer === layer);
    lines.push(`${layer.padEnd(8)} │ ${here.map((f) => f.folder).join('  ')}`);
  }
  const unlisted = house.folders.filter((f) => f.layer === null);
  if (unlisted.length > 0) lines.push(`no layer │ ${unlisted.map((f) => f.folder).join('  ')}`);
  lines.push('', 'arrows (folder → folder, imports):');
  for (const arrow of house.arrows) {
    const mark = arrow.up ? '  ↑ UP' : '';
    lines.push(
      `  ${arrow.from.folder} (${arrow.from.layer ?? '?'}) → ${arrow.to.folder} (${arrow.to.layer ?? '?'}) ×${arrow.imports.length}${mark}`,
    );
    if (arrow.up) for (const line of arrow.imports) lines.push(`      ${line}`);
  }
  const up = house.arrows.filter((a) => a.up);
  lines.push(
    '',
    `arrows up: ${up.length} (${up.reduce((n, a) => n + a.imports.length, 0)} imports)`,
  );
  lines.push(`cycles between folders: ${house.cycles.length}`);
  for (const cycle of house.cycles) lines.push(`  ${cycle.join(' ⇄ ')}`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
  const house = drawHouse(root);
  const files = fileCycles(root);
  const rows = coreRowImports(root);
  console.log(renderHouse(house));
  console.log(`core files reading or writing rows: ${rows.length}`);
  for (const line of rows) console.log(`  ${line}`);
  console.log(`\n${renderFileCycles(files)}`);
  const broken =
    house.arrows.some((a) => a.up) ||
    house.cycles.length > 0 ||
    rows.length > 0 ||
    files.runtime.length > 0;
  process.exitCode = broken ? 1 : 0;
}
