import * as assert from 'node:assert/strict';
import { entryFolder, inputIdsOf, parseEnvFile, parseMcpJson, resolveEntry, type McpEntry, type VariableContext } from './mcpConfig';
import { mcpNotice, UNTRUSTED } from './mcpSummary';

const cx = (inputs: Record<string, string> = {}): VariableContext => ({
  workspaceFolder: '/work/project',
  userHome: '/home/me',
  pathSeparator: '/',
  env: { GH_USER: 'octo' },
  inputs: new Map(Object.entries(inputs)),
});

const MCP_JSON = `{
  // VS Code's own format: comments and trailing commas
  "inputs": [
    { "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true },
  ],
  "servers": {
    "github": {
      "type": "stdio",
      "command": "\${userHome}/bin/github-mcp",
      "args": ["--root", "\${workspaceFolder}\${pathSeparator}src", "--user=\${env:GH_USER}", "\${env:UNSET_ONE}"],
      "env": { "GITHUB_TOKEN": "\${input:gh-token}", "LEVEL": 3 },
    },
    "docs": { "type": "http", "url": "https://docs.example/mcp", "headers": { "Authorization": "Bearer \${input:gh-token}" } },
    "inferred": { "url": "http://127.0.0.1:9/mcp" },
    "old": { "type": "sse", "url": "https://old.example/sse" },
  },
}`;

describe('mcp.json: parse and resolve as VS Code does', () => {
  it('reads JSONC with inputs, infers the type, and resolves every variable kind', () => {
    const config = parseMcpJson(MCP_JSON, '/home/me/.config/Code/User/mcp.json');
    assert.deepEqual(config.problems, []);
    assert.deepEqual(config.inputs, [{ id: 'gh-token', description: 'GitHub token', password: true }]);
    assert.deepEqual(
      config.servers.map((s) => [s.name, s.type]),
      [
        ['github', 'stdio'],
        ['docs', 'http'],
        ['inferred', 'http'],
        ['old', 'sse'],
      ],
    );
    const github = config.servers[0]!;
    assert.deepEqual(inputIdsOf(github), ['gh-token']);
    assert.deepEqual(resolveEntry(github, cx({ 'gh-token': 'ghp_x' })), {
      server: {
        name: 'github',
        command: '/home/me/bin/github-mcp',
        args: ['--root', '/work/project/src', '--user=octo', ''],
        env: [
          { name: 'GITHUB_TOKEN', value: 'ghp_x' },
          { name: 'LEVEL', value: '3' },
        ],
      },
    });
    assert.deepEqual(resolveEntry(config.servers[1]!, cx({ 'gh-token': 't' })), {
      server: { type: 'http', name: 'docs', url: 'https://docs.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer t' }] },
    });
  });

  it('leaves a server out, saying why, when an input was not given or a variable is unknown', () => {
    const [github] = parseMcpJson(MCP_JSON, 'f').servers;
    assert.deepEqual(resolveEntry(github!, cx()), { skipped: 'the input "gh-token" was not given' });
    const odd: McpEntry = { name: 'odd', type: 'stdio', command: '${command:pick}', args: [], env: {} };
    assert.deepEqual(resolveEntry(odd, cx()), { skipped: 'the variable ${command:pick} is not supported here' });
    const ftp: McpEntry = { name: 'ftp', type: 'http', url: 'ftp://x/mcp', headers: {} };
    assert.deepEqual(resolveEntry(ftp, cx()), { skipped: 'its url is ftp:, not http(s)' });
  });

  it('names the file and the server in every problem, and keeps the good servers', () => {
    const config = parseMcpJson(
      `{"servers": {"ok": {"command": "x"}, "nocmd": {"type": "stdio"}, "ws": {"type": "websocket", "url": "ws://x"}, "badenv": {"command": "x", "env": {"A": {}}}},
        "inputs": [{"type": "pickString", "id": "p"}, {"description": "no id"}]}`,
      '/ws/.vscode/mcp.json',
    );
    assert.deepEqual(
      config.servers.map((s) => s.name),
      ['ok'],
    );
    assert.deepEqual(config.problems, [
      '/ws/.vscode/mcp.json: MCP server "nocmd" has no "command"; it was left out',
      '/ws/.vscode/mcp.json: MCP server "ws" has type "websocket"; stdio, http and sse are supported; it was left out',
      '/ws/.vscode/mcp.json: MCP server "badenv" has "env.A" that is not a string; it was left out',
      '/ws/.vscode/mcp.json: input "p" has type "pickString"; only promptString is supported',
      '/ws/.vscode/mcp.json: an input without an "id" was left out',
    ]);
    assert.match(parseMcpJson('{"servers": ', 'f').problems[0]!, /^f is not valid JSON .*none of its MCP servers were used$/);
  });

  it('reads an env file; the entry’s own env wins over it', () => {
    const file = parseEnvFile('# keys\nexport A=1\nB="two words" \nC=\'q\'\nD=x # comment\nE="a\\nb"\nnot a line\n');
    assert.deepEqual(file, { A: '1', B: 'two words', C: 'q', D: 'x', E: 'a\nb' });
    const entry: McpEntry = { name: 's', type: 'stdio', command: 'c', args: [], env: { A: 'mine' } };
    const resolved = resolveEntry(entry, cx(), { A: 'file', B: 'b' });
    assert.ok('server' in resolved && 'env' in resolved.server);
    assert.deepEqual(resolved.server.env, [
      { name: 'A', value: 'mine' },
      { name: 'B', value: 'b' },
    ]);
  });
});

describe('the folder a stdio server runs in', () => {
  const entry = (cwd?: string): McpEntry & { type: 'stdio' } => ({
    name: 's',
    type: 'stdio',
    command: 'c',
    args: [],
    env: {},
    ...(cwd ? { cwd } : {}),
  });
  it('its cwd, variables resolved, relative to the folder whose file named it; else that folder', () => {
    assert.equal(entryFolder(entry(), cx()), '/work/project');
    assert.equal(entryFolder(entry('tools'), cx()), '/work/project/tools');
    assert.equal(entryFolder(entry('${userHome}/mcp'), cx()), '/home/me/mcp');
    assert.equal(entryFolder(entry('${input:where}'), cx()), undefined, 'an input not given');
  });
});

describe("the chat's line about the session's MCP servers", () => {
  it('names each server with its transport, the bridge where the agent lacks one, and what was left out with the reason', () => {
    const notice = mcpNotice(
      [
        { name: 'github', type: 'stdio', source: 'user' },
        { name: 'docs', type: 'http', source: 'user' },
        { name: 'planted', type: 'stdio', source: 'workspace', skipped: UNTRUSTED },
      ],
      { http: false, sse: false },
    );
    assert.deepEqual(notice, {
      level: 'warning',
      text: "MCP servers: github (stdio), docs (http via the conductor's stdio bridge). Not passed to the agent: planted (the workspace is not trusted).",
      settings: 'trust',
    });
    assert.deepEqual(mcpNotice([{ name: 'docs', type: 'http', source: 'user' }], { http: true, sse: false }), {
      level: 'info',
      text: 'MCP servers: docs (http).',
    });
    assert.deepEqual(mcpNotice([{ name: 'tools', type: 'stdio', source: 'workspace', note: 'runs elsewhere' }], undefined), {
      level: 'warning',
      text: 'MCP servers: tools (stdio; runs elsewhere).',
    });
    assert.equal(mcpNotice([], undefined), undefined, 'nothing configured, nothing said');
  });
});
