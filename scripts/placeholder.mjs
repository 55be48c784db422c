#!/usr/bin/env node
// Scripts whose implementation belongs to a later issue say so instead of pretending to work.
const name = process.argv[2] ?? 'this script';
process.stderr.write(
  `npm run ${name}: not implemented yet (planned in a later issue; see README).\n`,
);
process.exit(1);
