// Child process for the crash test: a real listener over a real SQLite inbox. It prints one
// JSON line with its port, then waits to be killed with SIGKILL (no clean shutdown of anything).
import { pino } from 'pino';
import { openSqliteTestInbox } from './test-support';
import { startWebhookListener } from './webhook-listener';

const [file, token] = process.argv.slice(2);
if (file === undefined || token === undefined) {
  process.stderr.write('usage: crash-child.fixture.ts <db-file> <token>\n');
  process.exit(2);
}
const inbox = openSqliteTestInbox(file);
const listener = await startWebhookListener({
  tokens: () => [token],
  inbox,
  // The engine never gets to confirm: the process dies first.
  onCallback: () => undefined,
  logger: pino({ level: 'silent' }),
});
process.stdout.write(`${JSON.stringify({ port: listener.port })}\n`);
setInterval(() => undefined, 60_000);
