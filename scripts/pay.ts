/**
 * `npm run pay -- <account number> <amount in naira> [--data-dir D]`: plays the customer's bank
 * transfer into a sale's account, on the sandbox provider of the browser shell running with that
 * data directory (`npm run web`; the same --data-dir, TRANSFER_TILL_DATA_DIR or the default). It
 * reads the shell's `control_url` from the start line the shell keeps there, so nobody copies an
 * address, and posts `{control_url}/transfers` as the sandbox's control API documents.
 * Exit codes: 0 the sandbox took the transfer (its status may still be failed: a wrong amount),
 * 1 no till, no sandbox or a refusal, 2 a bad command line.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '#main/config/data-dir';
import { readStartLine } from '#main/web/start-line-file';
import { formatNaira, nairaToKobo } from '#shared/money';

const USAGE =
  'usage: npm run pay -- <account number, e.g. 876 491 5093> <amount in naira> [--data-dir D]';

class PayError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** The account number and amount from the command line, or a PayError saying what is wrong. */
function readArguments(argv: readonly string[]): { accountNumber: string; amountKobo: number } {
  const { positionals } = parseArgs({
    args: [...argv],
    options: { 'data-dir': { type: 'string' } },
    allowPositionals: true,
  });
  // The amount is last; before it, the number as the till shows it ("876 491 5093" arrives as
  // three words unless quoted, "876-491-5093" as one).
  const amountText = positionals.at(-1);
  const numberParts = positionals.slice(0, -1);
  if (amountText === undefined || numberParts.length === 0) throw new PayError(USAGE, 2);
  const shown = numberParts.join(' ');
  const accountNumber = shown.replace(/[\s-]/g, '');
  if (!/^\d{10}$/.test(accountNumber)) {
    throw new PayError(
      `The account number is the 10 digits the till shows, spaces allowed (got "${shown}").\n${USAGE}`,
      2,
    );
  }
  let amountKobo: number;
  try {
    amountKobo = nairaToKobo(amountText.replaceAll(',', ''));
  } catch {
    amountKobo = 0;
  }
  if (amountKobo <= 0) {
    throw new PayError(
      `The amount is naira, like 1500 or 1,500.50 (got "${amountText}").\n${USAGE}`,
      2,
    );
  }
  return { accountNumber, amountKobo };
}

async function pay(argv: readonly string[]): Promise<string> {
  const { accountNumber, amountKobo } = readArguments(argv);
  const dataDir = resolveDataDir(argv, process.env, join(homedir(), '.transfer-till', 'web'));
  let startLine;
  try {
    startLine = readStartLine(dataDir);
  } catch (error) {
    throw new PayError(error instanceof Error ? error.message : String(error), 1);
  }
  const controlUrl = startLine.control_url;
  if (typeof controlUrl !== 'string') {
    throw new PayError(
      'This till is not on the sandbox provider (Settings: STAGING or LIVE), so there is no practice transfer to make: a real customer pays from their bank app.',
      1,
    );
  }
  let response: Response;
  try {
    response = await fetch(`${controlUrl}/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_number: accountNumber, amount: amountKobo / 100 }),
    });
  } catch {
    throw new PayError(
      `The till's sandbox at ${controlUrl} does not answer: is \`npm run web\` still running?`,
      1,
    );
  }
  const body = (await response.json().catch(() => ({}))) as {
    status?: string;
    message?: string;
    session_id?: string;
    reason?: string | null;
  };
  if (!response.ok) {
    throw new PayError(
      `The sandbox refused the transfer (${response.status}): ${body.message ?? 'no reason given'}`,
      1,
    );
  }
  const paid = `${formatNaira(amountKobo)} sent to ${accountNumber}`;
  if (body.status === 'success') {
    return `${paid} (session id ${body.session_id ?? '?'}). The till shows the sale paid within seconds.`;
  }
  return `${paid}, but the bank answered "${body.status ?? '?'}"${body.reason ? ` (${body.reason})` : ''}: the till says what happened on the sale screen.`;
}

pay(process.argv.slice(2)).then(
  (line) => process.stdout.write(`${line}\n`),
  (error: unknown) => {
    process.stderr.write(
      `transfer-till pay: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(error instanceof PayError ? error.exitCode : 1);
  },
);
