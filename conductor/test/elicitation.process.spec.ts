// ACP elicitation through the conductor, against ElizACP's hooks: a form (`elicitation/create`,
// mode form, the schema with every field type) and a URL (mode url, then `elicitation/complete`)
// reach the editor as the agent sent them, and the editor's answer reaches the agent. An agent
// asks only a client that advertised the mode.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { DEMO_FORM } from '../eliza/elicitation';
import { conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, waitFor, type Harness } from './harness';

describe('elicitation through the conductor (process)', function () {
  this.timeout(60_000);
  const open: Harness[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });

  it('a form and a URL reach the editor as sent, and its answers reach the agent; none without the capability', async () => {
    const asked: acp.CreateElicitationRequest[] = [];
    const h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand() }), {
      elicitation: async (p) => {
        asked.push(p);
        return p.mode === 'form' ? { action: 'accept', content: { name: 'symposium', language: 'ts', size: 3 } } : { action: 'accept' };
      },
    });
    open.push(h);
    await initialize(h, { elicitation: { form: {}, url: {} } });
    const sessionId = await newSession(h, tempDir());
    assert.equal((await prompt(h, sessionId, 'ask me a form')).text, 'Form answer: accept {"name":"symposium","language":"ts","size":3}');
    assert.deepEqual(asked[0], { mode: 'form', sessionId, message: 'Tell me about your project.', requestedSchema: DEMO_FORM });
    assert.equal((await prompt(h, sessionId, 'ask me to open a url https://example.com/login?x=1')).text, 'URL answer: accept');
    const url = asked[1] as Extract<acp.CreateElicitationRequest, { mode: 'url' }>;
    assert.equal(url.mode, 'url');
    assert.equal(url.url, 'https://example.com/login?x=1');
    await waitFor(() => h.notifications.find((n) => n.method === 'elicitation/complete'), 5_000, 'elicitation/complete');
    assert.deepEqual(h.notifications.find((n) => n.method === 'elicitation/complete')?.params, { elicitationId: url.elicitationId });

    const plain = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand() }));
    open.push(plain);
    await initialize(plain);
    const other = await newSession(plain, tempDir());
    assert.equal((await prompt(plain, other, 'ask me a form')).text, 'Your client does not take forms (elicitation.form).');
  });
});
