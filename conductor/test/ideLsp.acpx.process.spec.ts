// A third-party ACP client asks an IDE question: acpx (a headless ACP CLI that advertises no
// `_meta.symposium.ide`) runs `conductor --components ide-operations -- conductor eliza`, so the
// conductor's assembly places the ide-lsp adapter, which answers ElizACP's `find definition of
// Parser` from the real typescript-language-server, with the file and line VS Code's Go to
// Definition shows (src/test/ideExpectations.ts).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { groupAlive } from '../../src/node/processGroup';
import { runAcpx, shellWord } from './acpx';
import { CONDUCTOR_JS, tempDir } from './harness';
import { toolReplyJson } from '../../src/test/ideExpectations';

const WORKSPACE = resolve(__dirname, '../../test-fixtures/workspace');

interface Line {
  method?: string;
  params?: { update?: { sessionUpdate?: string; content?: { text?: string } } };
  result?: { stopReason?: string };
}

describe('IDE operations through a third-party ACP client (acpx) and the language-server fallback', function () {
  this.timeout(120_000);

  it('acpx → conductor --components ide-operations → ElizACP: "find definition of Parser" names parser.ts line 4', async () => {
    const logFile = `${tempDir('ide-lsp-acpx-')}/conductor.log`;
    // The conductor's stderr (its log) goes to a file through a shell, to find the servers' pids.
    const agent = [
      '/bin/sh',
      '-c',
      [
        process.execPath,
        CONDUCTOR_JS,
        '--components',
        'ide-operations',
        '--log',
        'debug',
        '--',
        process.execPath,
        CONDUCTOR_JS,
        'eliza',
        '--deterministic',
      ]
        .map(shellWord)
        .join(' ') + ` 2>${logFile}`,
    ]
      .map(shellWord)
      .join(' ');
    const { code, lines, stderr } = await runAcpx<Line>(agent, 'find definition of Parser', {
      cwd: WORKSPACE,
      env: { HOME: tempDir('ide-lsp-acpx-home-') },
      timeoutSeconds: 90,
    });
    assert.equal(code, 0, stderr);
    const answer = lines
      .filter((l) => l.method === 'session/update' && l.params?.update?.sessionUpdate === 'agent_message_chunk')
      .map((l) => l.params?.update?.content?.text ?? '')
      .join('');
    const parsed = toolReplyJson(answer) as { results: { file: string; line: number; column: number; name: string; kind: string }[] };
    assert.deepEqual(
      parsed.results.map((r) => [r.file, r.line, r.column, r.name, r.kind]),
      [['ts-project/src/parser.ts', 4, 14, 'Parser', 'class']],
      `the conductor's log:\n${readFileSync(logFile, 'utf8').slice(-4000)}`,
    );
    // acpx ended the conductor; the language servers went with it.
    const pids = [...readFileSync(logFile, 'utf8').matchAll(/started (\S+) \(pid (\d+)\)/g)].map((m) => Number(m[2]));
    assert.ok(pids.length >= 1);
    for (const pid of pids) {
      const deadline = Date.now() + 5000;
      while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(groupAlive(pid), false, `language server ${pid} is gone`);
    }
  });
});
