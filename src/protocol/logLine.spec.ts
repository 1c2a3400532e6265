// The conductor's log line format (logLine.ts): what formatLogLine writes, parseLogLine reads
// back; lines in any other shape are not taken for log lines.
import * as assert from 'node:assert/strict';
import { formatLogLine, parseLogLine, type LogLine } from './logLine';

describe('log lines', () => {
  it('reads back every level, category and message that was written', () => {
    const lines: LogLine[] = [
      { level: 'trace', category: 'conductor', message: 'x' },
      { level: 'debug', category: 'conductor/chain', message: 'a [bracketed] message {"data":1}' },
      { level: 'info', category: 'conductor/agent/stderr', message: 'ERROR [eliza] relayed from the agent' },
      { level: 'warn', category: 'eliza', message: '' },
      { level: 'error', category: 'conductor/crate-sources', message: 'two\nlines' },
    ];
    for (const l of lines) assert.deepEqual(parseLogLine(formatLogLine(l.level, l.category, l.message)), l);
    assert.equal(formatLogLine('warn', 'conductor', 'careful'), 'WARN [conductor] careful');
  });

  it('other lines are not log lines', () => {
    for (const line of [
      '',
      'plain text',
      'INFO conductor started',
      'info [conductor] lower case',
      'FATAL [x] y',
      'WARN [] empty category',
      ' INFO [x] indented',
      'INFO [x]',
      'eliza: crashing as asked (exit code 3)',
    ]) {
      assert.equal(parseLogLine(line), undefined, line);
    }
  });
});
