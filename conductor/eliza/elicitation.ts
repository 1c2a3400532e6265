// Hooks that ask the user for input (ACP elicitation/create), only of a client that advertised
// the mode (`clientCapabilities.elicitation.form` / `.url`): a form with every field type, a form
// with the schema as written (so clients can be tested with what they cannot show), and a URL,
// completed (`elicitation/complete`) as soon as the user accepted to open it.
import type * as acp from '@agentclientprotocol/sdk';
import { callClient, errorMessage, throwIfCancelled } from './turn-context';
import type { Turn } from './turn-context';

/** The form `ask me a form` sends: one field of each kind, two of them required. */
export const DEMO_FORM: acp.ElicitationSchema = {
  type: 'object',
  title: 'Project details',
  description: 'ElizACP would like to know about your project.',
  properties: {
    name: { type: 'string', title: 'Project name', description: 'What it is called', minLength: 2 },
    language: {
      type: 'string',
      title: 'Language',
      oneOf: [
        { const: 'rust', title: 'Rust' },
        { const: 'ts', title: 'TypeScript' },
      ],
    },
    size: { type: 'integer', title: 'Team size', minimum: 1, maximum: 100 },
    budget: { type: 'number', title: 'Budget (k€)' },
    tests: { type: 'boolean', title: 'Has tests', default: false },
    targets: { type: 'array', title: 'Targets', items: { type: 'string', enum: ['linux', 'macos', 'windows'] } },
  },
  required: ['name', 'language'],
};

let nextUrl = 1;

export async function formHook(turn: Turn, schemaJson?: string): Promise<string> {
  if (turn.clientCapabilities?.elicitation?.form == null) return 'Your client does not take forms (elicitation.form).';
  let requestedSchema: unknown = DEMO_FORM;
  if (schemaJson !== undefined) {
    try {
      requestedSchema = JSON.parse(schemaJson);
    } catch (err) {
      return `Invalid JSON for the form: ${errorMessage(err)}`;
    }
  }
  try {
    const res = await callClient(turn, (options) =>
      turn.client.request(
        'elicitation/create',
        {
          mode: 'form',
          sessionId: turn.session.id,
          message: 'Tell me about your project.',
          requestedSchema,
        } as acp.CreateElicitationRequest,
        options,
      ),
    );
    return `Form answer: ${res.action}${res.action === 'accept' ? ` ${JSON.stringify(res.content ?? {})}` : ''}`;
  } catch (err) {
    throwIfCancelled(turn);
    return `Form error: ${errorMessage(err)}`;
  }
}

export async function urlHook(turn: Turn, url: string): Promise<string> {
  if (turn.clientCapabilities?.elicitation?.url == null) return 'Your client does not take URLs (elicitation.url).';
  const elicitationId = `eliza-url-${nextUrl++}`;
  try {
    const res = await callClient(turn, (options) =>
      turn.client.request(
        'elicitation/create',
        { mode: 'url', sessionId: turn.session.id, message: 'Please sign in on this page.', url, elicitationId },
        options,
      ),
    );
    // The page's work is "done" at once: the client's card can close.
    if (res.action === 'accept') await turn.client.notify('elicitation/complete', { elicitationId });
    return `URL answer: ${res.action}`;
  } catch (err) {
    throwIfCancelled(turn);
    return `URL error: ${errorMessage(err)}`;
  }
}
