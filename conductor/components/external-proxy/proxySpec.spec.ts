import * as assert from 'node:assert/strict';
import { placeProxies } from './placement';
import { takeProxyEnv } from '../../startupEnv';
import { parseProxyOption, proxyNameFor, splitCommandLine, uniqueNames } from './proxySpec';
import { unwrap } from './dialect';

describe('external proxy options', () => {
  it('splits command lines like a shell splits words, without expanding anything', () => {
    const rows: [string, string[]][] = [
      ['sparkle-mcp --acp', ['sparkle-mcp', '--acp']],
      [`node '/path with spaces/p.js' --name "a b"`, ['node', '/path with spaces/p.js', '--name', 'a b']],
      [String.raw`echo a\ b "q\"uote" 'single\n'`, ['echo', 'a b', 'q"uote', 'single\\n']],
      ['  x   $HOME  *.js ', ['x', '$HOME', '*.js']],
      [`a '' b`, ['a', '', 'b']],
    ];
    for (const [line, words] of rows) assert.deepEqual(splitCommandLine(line), words, line);
    assert.throws(() => splitCommandLine(`a 'open`), /unterminated/);
  });

  it('names a proxy after its program, or the script an interpreter runs', () => {
    assert.equal(proxyNameFor('/usr/bin/sparkle-mcp', ['--acp']), 'sparkle-mcp');
    assert.equal(proxyNameFor('node', ['--import', 'tsx', '/x/promptRewriter.ts']), 'promptRewriter');
    assert.equal(proxyNameFor('node', ['/x/promptRewriter.js', '--name', 'a']), 'promptRewriter');
    assert.equal(proxyNameFor('npx', ['-y', '@acme/proxy@1.2.3']), 'proxy');
    assert.equal(proxyNameFor('python3', ['my proxy.py']), 'my-proxy');
  });

  it('parses --proxy as a command line or as JSON, and refuses bad JSON with a reason', () => {
    assert.deepEqual(parseProxyOption('cargo-proxy --verbose'), {
      name: 'cargo-proxy',
      command: 'cargo-proxy',
      args: ['--verbose'],
      env: {},
    });
    assert.deepEqual(parseProxyOption('{"name":"rw","command":"node","args":["p.js"],"env":{"A":"1"}}'), {
      name: 'rw',
      command: 'node',
      args: ['p.js'],
      env: { A: '1' },
    });
    assert.throws(() => parseProxyOption('{"command":""}'), /non-empty "command"/);
    assert.throws(() => parseProxyOption('{"command":"x","args":[1]}'), /"args"/);
    assert.throws(() => parseProxyOption('{"command":"x","env":{"A":1}}'), /"env"/);
    assert.throws(() => parseProxyOption('{"command":"x","name":"a b"}'), /"name"/);
    assert.throws(() => parseProxyOption('{"command":'), /not valid/);
    assert.throws(() => parseProxyOption('  '), /needs a command line/);
  });

  it('gives repeated names a suffix, avoiding built-in component names', () => {
    const specs = ['p', 'p', 'passthrough'].map((name) => ({ name, command: 'x', args: [], env: {} }));
    assert.deepEqual(
      uniqueNames(specs, new Set(['passthrough'])).map((s) => s.name),
      ['p', 'p-2', 'passthrough-2'],
    );
  });

  it('places unnamed proxies first and the MCP-over-ACP bridge last', () => {
    const p = (name: string) => ({ name, command: 'x', args: [], env: {} });
    assert.deepEqual(placeProxies(['a', 'b'], [], false), ['a', 'b']);
    assert.deepEqual(placeProxies(['a', 'b'], [p('x'), p('y')], false), ['x', 'y', 'a', 'b', 'mcp-over-acp']);
    assert.deepEqual(placeProxies(['a', 'y', 'b'], [p('x'), p('y')], true), ['x', 'a', 'y', 'b', 'mcp-over-acp']);
    assert.deepEqual(placeProxies(['mcp-over-acp', 'x'], [p('x')], true), ['mcp-over-acp', 'x']);
  });

  it('takes the proxies environment out of the conductor environment', () => {
    const env: NodeJS.ProcessEnv = { SYMPOSIUM_PROXY_ENV: '{"rw":{"TOKEN":"s3cret"}}', OTHER: '1' };
    assert.deepEqual(takeProxyEnv(env), { rw: { TOKEN: 's3cret' } });
    assert.equal(env.SYMPOSIUM_PROXY_ENV, undefined);
    assert.throws(() => takeProxyEnv({ SYMPOSIUM_PROXY_ENV: '{"rw":{"A":1}}' }), /must be/);
    assert.deepEqual(takeProxyEnv({}), {});
  });

  it('unwraps successor envelopes and refuses what is not one', () => {
    assert.deepEqual(unwrap({ method: 'session/new', params: { cwd: '/' }, _meta: { hop: 1 } }), {
      method: 'session/new',
      params: { cwd: '/' },
    });
    assert.deepEqual(unwrap({ method: 'x', params: null }), { method: 'x' });
    assert.equal(unwrap({ params: {} }), undefined);
    assert.equal(unwrap({ method: 'x', params: 3 }), undefined);
    assert.equal(unwrap('x'), undefined);
  });
});
