// Credential masking for traces and the traffic viewer, as a table: each credential by name or by
// shape is masked wherever it sits (a string, a property, a {name, value} pair, an args array),
// the text around it is kept, and look-alikes that are not credentials are left alone. Every
// masked case must also pass the quick check that decides whether a message is masked at all.
import * as assert from 'node:assert/strict';
import { isSecretName, mayHoldSecret, maskSecrets, maskSecretsInText, REDACTED as R } from './secretMask';

const masked = (v: unknown): unknown => JSON.parse(JSON.stringify(v, maskSecrets)) as unknown;

describe('secret masking (src/protocol/secretMask.ts)', () => {
  const TEXT: [string, string, string][] = [
    // [what, text, masked text]
    ['bearer token', 'curl -H "Authorization: Bearer abc.def-123" https://x', `curl -H "Authorization: Bearer ${R}" https://x`],
    ['Basic header line', 'Authorization: Basic dXNlcjpwYXNz', `Authorization: Basic ${R}`],
    [
      'PRIVATE-KEY header line',
      'curl -H "PRIVATE-KEY: glx1234" https://gitlab.example',
      `curl -H "PRIVATE-KEY: ${R}" https://gitlab.example`,
    ],
    ['X-Api-Key header line', 'X-Api-Key: 0123abcd', `X-Api-Key: ${R}`],
    ['JSON field in text', '{"client_secret": "s3cr3t", "id": 4}', `{"client_secret": "${R}", "id": 4}`],
    ['URL userinfo', 'git clone https://user:hunter2@github.com/o/r.git', `git clone https://${R}@github.com/o/r.git`],
    ['URL token as user', 'https://x1234567890abcdef1234@host/p', `https://${R}@host/p`],
    ['query ?key=', 'GET https://maps.example/api?key=abc123&q=paris', `GET https://maps.example/api?key=${R}&q=paris`],
    ['query &access_token=', 'https://h/x?a=1&access_token=zzz#top', `https://h/x?a=1&access_token=${R}#top`],
    ['env assignment', 'OPENAI_KEY=abc123 GH_PAT=xyz node run.js', `OPENAI_KEY=${R} GH_PAT=${R} node run.js`],
    ['export of a quoted value', 'export DB_PASSWORD="p w"', `export DB_PASSWORD="${R}"`],
    ['--key=', 'tool --api-key=abc --verbose', `tool --api-key=${R} --verbose`],
    ['--token value', 'gh auth login --token abc123 --web', `gh auth login --token ${R} --web`],
    ['--password quoted', "mysql --password 'p w' db", `mysql --password '${R}' db`],
    ['OpenAI key', 'key is sk-proj-ABCDEFGHIJKLMNOPQRSTUV done', `key is ${R} done`],
    ['Anthropic key', 'sk-ant-api03-abcdefghijklmnopqrstuv', R],
    ['GitHub token', 'use ghp_0123456789abcdefghijABCDEFGHIJ0123 now', `use ${R} now`],
    ['GitHub fine-grained', 'github_pat_11ABCDEFG0123456789_abcdefghij', R],
    ['Slack token', 'xoxb-123456789012-abcdefghij', R],
    ['AWS key id', 'aws_id AKIAIOSFODNN7EXAMPLE ok', `aws_id ${R} ok`],
    ['GitLab token', 'glpat-abcdefghij0123456789', R],
    ['Google key', 'AIzaSyA-0123456789abcdefghijklmnopqrstu', R],
    [
      'PEM private key',
      'x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\ny',
      `x\n-----BEGIN RSA PRIVATE KEY-----${R}-----END RSA PRIVATE KEY-----\ny`,
    ],
  ];
  for (const [what, text, expected] of TEXT) {
    it(`masks ${what} in any string`, () => {
      assert.equal(maskSecretsInText(text), expected);
      assert.ok(mayHoldSecret(JSON.stringify({ text })), 'the quick check lets it through');
      assert.deepEqual(masked({ params: { text } }), { params: { text: expected } });
    });
  }

  const KEPT = [
    'PATH=/usr/bin:/bin node x.js',
    'see src/path/to/patch.ts and the pattern',
    'git@github.com:o/r.git and ssh://git@host/r',
    'the task-1234567890abcdefghij and disk-abcdefghijklmnopqrstu',
    'the key: a value in prose; auth is hard',
    'https://example.com/search?q=token+bucket&page=2',
    'a monkey on the keyboard --verbose',
  ];
  for (const text of KEPT) it(`keeps ${JSON.stringify(text)}`, () => assert.equal(maskSecretsInText(text), text));

  it('names: secret words anywhere, short ones as words only', () => {
    for (const n of ['OPENAI_KEY', 'GH_PAT', 'PRIVATE-KEY', 'apiKey', 'x-auth', 'DB_PASS', 'client_secret', 'GITHUB_TOKEN', 'Cookie'])
      assert.equal(isSecretName(n), true, n);
    for (const n of ['PATH', 'keyboard', 'author', 'passage', 'HOME', 'sessionId', 'monkey']) assert.equal(isSecretName(n), false, n);
  });

  it('masks by name: properties, {name, value} pairs, env objects and args arrays; keeps progress tokens', () => {
    const message = {
      params: {
        headers: { authorization: 'raw-token', 'PRIVATE-KEY': 'k', accept: 'text/plain' },
        env: [
          { name: 'OPENAI_KEY', value: 'plain' },
          { name: 'GH_PAT', value: 'Bearer x' },
          { name: 'PATH', value: '/usr/bin' },
        ],
        envObject: { AWS_SECRET_ACCESS_KEY: 'wJalr', HOME: '/home/u' },
        args: ['serve', '--api-key', 'k1', '--port', '8080', '--token', 'k2', '--token=k3'],
        _meta: { progressToken: 'p-1' },
        openctx: [{ uri: 'https://ctx.example', settings: { anything: 'x' } }],
      },
    };
    assert.deepEqual(masked(message), {
      params: {
        headers: { authorization: R, 'PRIVATE-KEY': R, accept: 'text/plain' },
        env: [
          { name: 'OPENAI_KEY', value: R },
          { name: 'GH_PAT', value: `Bearer ${R}` },
          { name: 'PATH', value: '/usr/bin' },
        ],
        envObject: { AWS_SECRET_ACCESS_KEY: R, HOME: '/home/u' },
        args: ['serve', '--api-key', R, '--port', '8080', '--token', R, `--token=${R}`],
        _meta: { progressToken: 'p-1' },
        openctx: [{ uri: 'https://ctx.example', settings: R }],
      },
    });
    assert.equal(message.params.env[0]!.value, 'plain', 'the message itself is not changed');
    assert.ok(mayHoldSecret(JSON.stringify({ n: 'GH_PAT' })) && mayHoldSecret(JSON.stringify({ n: 'ghPatValue' })));
  });
});
