// Runs ElizACP without the bundled conductor: `node --import tsx conductor/eliza/standalone.ts
// [--deterministic] [--no-http-mcp]`. The process tests spawn this file.
import { runEliza } from './main';

runEliza(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`eliza: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
