import * as assert from 'node:assert/strict';
import { preferredOption } from '../protocol/permissionOptions';
import { agentActionConfirmation } from './agentActionConfirmation';

const option = (kind: string) => ({ optionId: `${kind}-id`, name: `Name of ${kind}`, kind });

describe('agent action: which option an answer selects, and what the confirmation says', () => {
  it('prefers the once options whatever order the agent lists them in', () => {
    const always = [option('allow_always'), option('reject_always'), option('allow_once'), option('reject_once')];
    assert.equal(preferredOption(always, 'allow')?.kind, 'allow_once');
    assert.equal(preferredOption(always, 'reject')?.kind, 'reject_once');
    assert.equal(preferredOption([option('allow_always'), option('reject_once')], 'allow')?.kind, 'allow_always');
    assert.equal(preferredOption([option('reject_once')], 'allow'), undefined);
  });

  it('says when approving (or declining) selects an "always" option, and only then', () => {
    const base = { kind: 'delete', title: 'Delete build/', raw_input: { path: 'build/' } };
    const once = agentActionConfirmation({
      ...base,
      approve_option: { name: 'Yes', kind: 'allow_once' },
      reject_option: { name: 'No', kind: 'reject_once' },
    });
    assert.equal(once.title, 'Allow the agent to delete?');
    assert.doesNotMatch(once.message, /always|only/i);
    assert.match(once.message, /"path": "build\/"/);
    const onlyAlways = agentActionConfirmation({
      ...base,
      approve_option: { name: 'Always allow', kind: 'allow_always' },
      reject_option: { name: 'Never', kind: 'reject_always' },
    });
    assert.match(
      onlyAlways.message,
      /Approving selects the agent's only approval option, "Always allow" \(allow_always\): the agent may not ask again/,
    );
    assert.match(onlyAlways.message, /Declining selects the agent's only refusal option, "Never" \(reject_always\)/);
    assert.match(agentActionConfirmation(base).message, /no option that allows this/);
  });
});
