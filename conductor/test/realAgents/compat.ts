// The real-agent tests' outcomes, agent × feature, written to test-results/agent-compat-<suite>.json
// for docs/agents.md's compatibility table (scripts/agent-compat-table.mjs renders it), so the
// table says what the tests showed, not what someone remembered.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const RESULTS = resolve(__dirname, '../../../test-results');

/** `part`: one of the files a suite is spread over (its own JSON, merged by the table). */
export function writeCompat(suite: string, outcomes: Record<string, Record<string, 'passed' | 'failed'>>, part?: string): void {
  if (Object.keys(outcomes).length === 0) return;
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, `agent-compat-${suite}${part ? `-${part}` : ''}.json`),
    JSON.stringify({ suite, at: new Date().toISOString(), outcomes }, null, 2) + '\n',
  );
}
