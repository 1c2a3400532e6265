// The language-server fallback against servers that misbehave (agent-lsp's robustness table):
// the real conductor with `--language-servers FILE` naming a fake server per behaviour
// (fixtures/fakeLanguageServer.mjs: hangs, crashes once, crashes always, writes garbage) and one
// that is not installed; and the real typescript-language-server killed while it answers. Each
// failure is a tool error that says what happened, quickly, and the session goes on.
import * as assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { groupAlive } from '../../src/node/processGroup';
import { CONDUCTOR_JS, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, waitFor, type Harness } from './harness';
import { serverPids } from './languageServerLog';
import { toolReplyJson } from '../../src/test/ideExpectations';

const FAKE = resolve(__dirname, 'fixtures/fakeLanguageServer.mjs');
const WORKSPACE = resolve(__dirname, '../../test-fixtures/workspace');
const TIMEOUT_MS = 1500;

function conductor(languageServers: Record<string, unknown>, env: Record<string, string> = {}): Harness {
  const map = join(tempDir('ide-lsp-map-'), 'language-servers.json');
  writeFileSync(map, JSON.stringify(languageServers));
  const argv = [
    process.execPath,
    CONDUCTOR_JS,
    '--components',
    'ide-operations',
    '--language-servers',
    map,
    '--log',
    'debug',
    '--',
    ...elizaCommand(),
  ];
  return startProcess(argv, {}, { SYMPOSIUM_LSP_TIMEOUT_MS: String(TIMEOUT_MS), SYMPOSIUM_LSP_BACKOFF_MS: '100', ...env });
}

const definitionAt = (file: string): string =>
  `use tool symposium-ide::find_definitions with ${JSON.stringify({ file, line: 1, column: 1 })}`;

describe('ide-lsp robustness: servers that hang, crash, write garbage or are missing', function () {
  this.timeout(60_000);
  let h: Harness;
  let sessionId: string;
  let ws: string;

  before(async () => {
    ws = tempDir('ide-lsp-ws-');
    for (const ext of ['hang', 'crash1', 'crash', 'garbage', 'missing', 'xyz']) writeFileSync(join(ws, `a.${ext}`), 'hello world\n');
    const fake = (mode: string[], ext: string) => ({ command: FAKE, args: mode, extensions: [`.${ext}`] });
    h = conductor({
      hanging: fake(['hang'], 'hang'),
      crashonce: fake(['crash-once', join(ws, 'crashed.state')], 'crash1'),
      crashing: fake(['crash'], 'crash'),
      garbled: fake(['garbage'], 'garbage'),
      absent: { command: 'no-such-language-server', extensions: ['.missing'] },
    });
    await initialize(h, {});
    sessionId = await newSession(h, ws);
  });
  after(async () => {
    await h?.close();
  });

  it('a server that never answers: the call fails after its timeout with a clear message; the session goes on', async () => {
    const started = Date.now();
    const { text } = await prompt(h, sessionId, definitionAt('a.hang'));
    const took = Date.now() - started;
    assert.match(text, /^Tool error: find_definitions: fakeLanguageServer\.mjs did not answer textDocument\/definition within 1\.5 s/);
    assert.ok(took >= TIMEOUT_MS && took < TIMEOUT_MS + 4000, `took ${took} ms`);
    // The server was told to stop working on it ($/cancelRequest).
    await waitFor(() => h.stderr().includes('stderr: fake server: the client cancelled textDocument/definition'), 3000, 'the cancellation');
    // The session and the server are still there: a question that needs no server is answered.
    assert.match(
      (await prompt(h, sessionId, 'use tool symposium-ide::ide_operation with {"program":"lines(\\"a.hang\\", 1)"}')).text,
      /"content": "hello world"/,
    );
  });

  it('a crash mid-request fails the pending call at once with the exit reason and stderr; the next call restarts the server', async () => {
    const started = Date.now();
    const { text } = await prompt(h, sessionId, definitionAt('a.crash1'));
    assert.ok(Date.now() - started < TIMEOUT_MS, 'failed fast, not by timeout');
    assert.match(
      text,
      /^Tool error: find_definitions: fakeLanguageServer\.mjs exited with code 3 before answering textDocument\/definition; its last stderr: fake server ready \| fake server: crashing on purpose/,
    );
    const again = toolReplyJson((await prompt(h, sessionId, definitionAt('a.crash1'))).text) as {
      results: { file: string; line: number }[];
    };
    assert.deepEqual(
      again.results.map((r) => [r.file, r.line]),
      [['a.crash1', 1]],
    );
    // Its stderr went into the conductor's log (never its stdout, which carries ACP only).
    assert.match(h.stderr(), /\[conductor\/ide-lsp\/crashonce\] stderr: fake server: crashing on purpose/);
    assert.equal(serverPids(h.stderr()).filter((s) => s.name === 'fakeLanguageServer.mjs').length >= 3, true);
  });

  it('a server that crashes every time is restarted with backoff, then given up on after 5 crashes', async () => {
    const before = serverPids(h.stderr()).length;
    const replies: string[] = [];
    for (let i = 0; i < 6; i++) replies.push((await prompt(h, sessionId, definitionAt('a.crash'))).text);
    assert.equal(serverPids(h.stderr()).length - before, 5, 'started 5 times');
    assert.match(replies[4]!, /exited with code 3 before answering/);
    assert.match(
      replies[5]!,
      /^Tool error: find_definitions: fakeLanguageServer\.mjs crashed 5 times in the last 180 s; it is not restarted again \(last: it exited with code 3\)/,
    );
    assert.match(h.stderr(), /restarting fakeLanguageServer\.mjs in \d+ ms \(crash 4 of at most 5\)/);
  });

  it('a server that writes garbage is killed and restarted, not trusted', async () => {
    const { text } = await prompt(h, sessionId, definitionAt('a.garbage'));
    assert.match(
      text,
      /^Tool error: find_definitions: fakeLanguageServer\.mjs wrote something that is not LSP \(.*\) before answering textDocument\/definition/,
    );
    const pidsBefore = serverPids(h.stderr()).length;
    await prompt(h, sessionId, definitionAt('a.garbage'));
    assert.equal(serverPids(h.stderr()).length, pidsBefore + 1, 'a fresh process for the next call');
  });

  it('a missing server, and a file no server handles: errors that name what to install', async () => {
    assert.match(
      (await prompt(h, sessionId, definitionAt('a.missing'))).text,
      /^Tool error: find_definitions: no language server for absent files: no-such-language-server was not found on PATH/,
    );
    assert.match(
      (await prompt(h, sessionId, definitionAt('a.xyz'))).text,
      /^Tool error: find_definitions: no language server handles \.xyz files \(a\.xyz\); name one in symposium\.languageServers/,
    );
  });

  it('paths are checked after following links: a link inside the folder to a file outside is refused', async () => {
    const outside = join(tempDir('ide-lsp-outside-'), 'secret.hang');
    writeFileSync(outside, 'secret\n');
    symlinkSync(outside, join(ws, 'link.hang'));
    const before = serverPids(h.stderr()).length;
    assert.match(
      (await prompt(h, sessionId, definitionAt('link.hang'))).text,
      /^Tool error: find_definitions: link\.hang is outside the session's folder \(.*\): it resolves to .*secret\.hang/,
    );
    assert.equal(serverPids(h.stderr()).length, before, 'refused before any server was asked');
  });

  it('after the conductor exits, none of the servers it started is left', async () => {
    const pids = serverPids(h.stderr());
    await h.close();
    for (const { pid } of pids) await waitFor(() => !groupAlive(pid), 5000, `server ${pid} to be gone`);
  });
});

describe('ide-lsp: a server that loads its project late', function () {
  this.timeout(60_000);

  it('an empty answer while the server still loads is not "nothing found": the question waits for the load, then is asked again', async () => {
    const ws = tempDir('ide-lsp-late-');
    writeFileSync(join(ws, 'a.late'), 'Parser here\n');
    const h = conductor({ slow: { command: FAKE, args: ['late-index'], extensions: ['.late'] } });
    try {
      await initialize(h, {});
      const sessionId = await newSession(h, ws);
      // The load ends about 6 s after the file is opened: past the first seconds of the server's
      // life, in which an empty answer is asked again anyway.
      const { text } = await prompt(h, sessionId, 'use tool symposium-ide::find_definitions with {"symbol": "Parser"}');
      assert.match(text, /"file":"a\.late","line":1,"column":1/);
    } finally {
      await h.close();
    }
  });
});

describe('ide-lsp robustness: the real typescript-language-server killed mid-request', function () {
  this.timeout(90_000);

  it('the pending call fails at once naming the signal; the next call restarts the server and answers', async () => {
    const h = conductor({}, { SYMPOSIUM_LSP_TIMEOUT_MS: '30000' });
    try {
      await initialize(h, {});
      const sessionId = await newSession(h, WORKSPACE);
      // The first question waits for tsserver to load the project: kill the server meanwhile.
      const pending = prompt(
        h,
        sessionId,
        'use tool symposium-ide::find_references with {"file": "ts-project/src/report.ts", "line": 5, "column": 25}',
      );
      const { pid } = await waitFor(
        () => serverPids(h.stderr()).find((s) => s.name === 'typescript-language-server'),
        20_000,
        'the server',
      );
      await waitFor(() => h.stderr().includes('typescript-language-server initialized'), 20_000, 'initialize');
      await new Promise((r) => setTimeout(r, 300));
      process.kill(pid, 'SIGKILL');
      const killedAt = Date.now();
      const { text } = await pending;
      assert.ok(Date.now() - killedAt < 3000, `failed ${Date.now() - killedAt} ms after the kill`);
      assert.match(
        text,
        /^Tool error: find_references: typescript-language-server was killed by SIGKILL before answering textDocument\/references/,
      );
      // The restarted server loads the workspace's TypeScript projects again (two: ts-project and
      // ts-fresh); the by-name question waits for that load, not answering "nothing found" meanwhile.
      const after = (await prompt(h, sessionId, 'find definition of Parser')).text;
      assert.match(after, /"file":"ts-project\/src\/parser\.ts","line":4,"column":14/);
      assert.equal(serverPids(h.stderr()).filter((s) => s.name === 'typescript-language-server').length, 2);
    } finally {
      await h.close();
    }
  });
});
