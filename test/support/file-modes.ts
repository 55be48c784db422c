import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file and folder under `root` with its permission bits, as "0600 logs/main.log". */
export function modesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      found.push(`${mode} ${relative(root, path)}${stat.isDirectory() ? '/' : ''}`);
      if (stat.isDirectory()) walk(path);
    }
  };
  walk(root);
  return found;
}

/** Makes a folder and all under it readable by everyone (0755 / 0644), as an older version left it. */
export function loosenModes(root: string): void {
  chmodSync(root, 0o755);
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (lstatSync(path).isDirectory()) loosenModes(path);
    else chmodSync(path, 0o644);
  }
}
